package ghreview

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gitctx/gitctx/review"
)

const mainPatch = `@@ -1,3 +1,7 @@
 package main
 
-func main() {}
+import "os"
+
+func main() {
+	os.Exit(0)
+}`

const greetPatch = `@@ -1,4 +1,5 @@
 package greet
 
+// Hello greets.
 func Hello(name string) string {
 	return "hello " + name
@@ -20,3 +21,6 @@ func Bye() {
 	x := 1
 	y := 2
+	if name == "" {
+		return ""
+	}
 }`

var testFiles = []fakeFile{{Name: "main.go", Patch: mainPatch}, {Name: "greet/greet.go", Patch: greetPatch}}

// newPoster returns a poster on octo/demo#7 of f, and the waits it made.
func newPoster(t *testing.T, f *fakeGitHub) (*Poster, *[]time.Duration) {
	t.Helper()
	var waits []time.Duration
	p, err := New(Config{
		Token: testToken, APIURL: f.srv.URL, Owner: "octo", Repo: "demo", PR: testPR,
		HTTPClient: f.srv.Client(), UserAgent: "gitctx/test", ArtifactHint: "artifact gitctx-review",
		Sleep: func(ctx context.Context, d time.Duration) error {
			waits = append(waits, d)
			return ctx.Err()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p, &waits
}

func comment(answer string) review.Comment {
	return review.Comment{PackHash: "sha256:0123456789ab", Answer: answer, Footer: "_gitctx test_"}
}

func TestPostCreatesThenEditsInPlace(t *testing.T) {
	ctx := t.Context()
	f := newFake(t, testFiles...)
	first, _ := newPoster(t, f)
	if _, found, err := first.Previous(ctx); err != nil || found {
		t.Fatalf("Previous on a new pull request = found %v, %v; want none", found, err)
	}
	d, err := first.Post(ctx, comment("first answer"), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != "github" || !strings.HasPrefix(d.URL, "https://github.com/octo/demo/pull/7#issuecomment-") {
		t.Errorf("delivery %+v", d)
	}

	second, _ := newPoster(t, f)
	body, found, err := second.Previous(ctx)
	if err != nil || !found || !strings.Contains(review.AnswerOf(body), "first answer") {
		t.Fatalf("Previous = %q, %v, %v; want the first answer", body, found, err)
	}
	d2, err := second.Post(ctx, comment("second answer"), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if d2.URL != d.URL {
		t.Errorf("second post went to %s, want %s", d2.URL, d.URL)
	}
	if got := f.count("POST", "/issues/7/comments", 0); got != 1 {
		t.Errorf("%d comments created, want 1", got)
	}
	if got := f.count("PATCH", "/issues/comments/2000000001", 200); got != 1 {
		t.Errorf("%d edits of the sticky comment, want 1", got)
	}
	if s := f.stickies(); len(s) != 1 || !strings.Contains(review.AnswerOf(s[0]), "second answer") {
		t.Errorf("sticky comments %q", s)
	}
}

func TestStickyFoundPastTheFirstPage(t *testing.T) {
	ctx := t.Context()
	f := newFake(t)
	f.seed(120)
	first, _ := newPoster(t, f)
	if _, err := first.Post(ctx, comment("one"), nil, false); err != nil {
		t.Fatal(err)
	}
	f.seed(5)
	// A later marker comment (someone copied it) is not the sticky one.
	late := fakeComment{ID: 2100000000, User: "octocat", Body: review.Marker + ":review -->\nquoted"}
	f.set(func(f *fakeGitHub) { f.comments = append(f.comments, late) })

	second, _ := newPoster(t, f)
	if _, err := second.Post(ctx, comment("two"), nil, false); err != nil {
		t.Fatal(err)
	}
	if got := f.count("GET", "/issues/7/comments", 200); got != 2+2 {
		t.Errorf("%d list calls, want two pages for each run", got)
	}
	if got := f.count("PATCH", "/issues/comments/2000000121", 200); got != 1 {
		t.Errorf("the sticky comment (id 2000000121) was edited %d times, want 1", got)
	}
	if got := f.count("POST", "/issues/7/comments", 0); got != 1 {
		t.Errorf("%d comments created, want 1", got)
	}
}

func TestOversizeAnswerIsTruncated(t *testing.T) {
	ctx := t.Context()
	f := newFake(t)
	p, _ := newPoster(t, f)
	start := "Début de la réponse — "
	answer := start + strings.Repeat("Ünïcödé ✓ 😀 line\n", 4500)
	if n := utf8.RuneCountInString(answer); n < 72000 {
		t.Fatalf("answer of %d characters, want at least 72000", n)
	}
	if _, err := p.Post(ctx, comment(answer), nil, false); err != nil {
		t.Fatal(err)
	}
	s := f.stickies()
	if len(s) != 1 {
		t.Fatalf("%d sticky comments", len(s))
	}
	if n := utf8.RuneCountInString(s[0]); n > review.MaxCommentChars {
		t.Errorf("comment of %d characters, over %d", n, review.MaxCommentChars)
	}
	if !strings.Contains(s[0], "truncated") || !strings.Contains(s[0], start) {
		t.Errorf("the comment does not keep the answer's start and say it was truncated")
	}
}

func TestForbiddenWrites(t *testing.T) {
	tests := []struct {
		name     string
		fork     bool
		readOnly bool
		want     []string
	}{
		{name: "fork", fork: true, readOnly: true, want: []string{"fork pull request", "403", "artifact gitctx-review"}},
		{name: "same repository", want: []string{"403", "pull-requests: write", "permissions"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			f.set(func(f *fakeGitHub) { f.forbidden, f.fork = true, tt.fork })
			p, _ := newPoster(t, f)
			d, err := p.Post(t.Context(), comment("answer"), nil, false)
			if err == nil {
				t.Fatal("Post succeeded on a forbidden pull request")
			}
			if got := errors.Is(err, review.ErrReadOnly); got != tt.readOnly {
				t.Errorf("errors.Is(err, ErrReadOnly) = %v, want %v: %v", got, tt.readOnly, err)
			}
			if tt.readOnly && d.Notice != err.Error() {
				t.Errorf("notice %q, want the error's message %q", d.Notice, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if s := f.stickies(); len(s) != 0 || d.URL != "" {
				t.Errorf("a forbidden post left comments %q, URL %q", s, d.URL)
			}
		})
	}
}

func TestTokenNeverInErrors(t *testing.T) {
	modes := map[string]func(f *fakeGitHub){
		"server echoes the credential": func(f *fakeGitHub) { f.failWrite = 500 },
		"forbidden":                    func(f *fakeGitHub) { f.forbidden = true },
		"forbidden fork":               func(f *fakeGitHub) { f.forbidden, f.fork = true, true },
		"rate limited":                 func(f *fakeGitHub) { f.limited = 100 },
	}
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, testFiles...)
			f.set(mode)
			p, _ := newPoster(t, f)
			_, err := p.Post(t.Context(), comment("answer"), []review.Finding{{Path: "main.go", Line: 3}}, true)
			if err == nil {
				t.Fatal("Post succeeded")
			}
			if strings.Contains(err.Error(), testToken) {
				t.Errorf("the error shows the token: %v", err)
			}
		})
	}
}

func TestRateLimitIsRetried(t *testing.T) {
	tests := []struct {
		name      string
		limited   int
		exhausted bool
		wantErr   string
		wantWaits int
	}{
		{name: "two refusals, then an answer", limited: 2, wantWaits: 2},
		{name: "always refused", limited: 100, wantErr: "also after waiting", wantWaits: 2},
		{name: "used up for an hour", exhausted: true, wantErr: "used up until", wantWaits: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			f.set(func(f *fakeGitHub) { f.limited, f.exhausted = tt.limited, tt.exhausted })
			p, waits := newPoster(t, f)
			_, _, err := p.Previous(t.Context())
			if (err != nil) != (tt.wantErr != "") {
				t.Fatalf("Previous: %v, want error %q", err, tt.wantErr)
			}
			if err != nil && (!strings.Contains(err.Error(), "rate limit") || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("error %q does not say it is a rate limit (%s)", err, tt.wantErr)
			}
			if len(*waits) != tt.wantWaits {
				t.Fatalf("waited %v, want %d waits", *waits, tt.wantWaits)
			}
			for _, w := range *waits {
				if w != time.Second {
					t.Errorf("waited %v, want Retry-After's 1s", w)
				}
			}
		})
	}
}

// TestServerErrorsRetriedWhereSafe: a 5xx is tried again, after a second
// and then two, for a read or an edit of the sticky comment, which do the
// same however often they are made; never for the POST that creates the
// comment, which may have landed before the error.
func TestServerErrorsRetriedWhereSafe(t *testing.T) {
	ctx := t.Context()
	f := newFake(t, testFiles...)
	p, waits := newPoster(t, f)
	f.set(func(f *fakeGitHub) { f.failing = 2 })
	if _, found, err := p.Previous(ctx); err != nil || found {
		t.Fatalf("Previous after two 502s = %v, %v; want none found, no error", found, err)
	}
	if !slices.Equal(*waits, []time.Duration{time.Second, 2 * time.Second}) {
		t.Errorf("waited %v, want 1s then 2s", *waits)
	}
	f.set(func(f *fakeGitHub) { f.failing = 1 })
	_, err := p.Post(ctx, comment("answer"), nil, false)
	if err == nil || !strings.Contains(err.Error(), "answered 502: Server Error") {
		t.Fatalf("Post after a 502 = %v, want the 502 and what GitHub said", err)
	}
	if msg := err.Error(); strings.Count(msg, "POST") != 1 || strings.Contains(msg, "[]") {
		t.Errorf("Post after a 502 = %q: go-github's own text repeated", msg)
	}
	if got := f.count("POST", "/issues/7/comments", 502); got != 1 {
		t.Errorf("the comment was asked for %d times, want once", got)
	}
	f.set(func(f *fakeGitHub) { f.failing = 0 })
	if _, err := p.Post(ctx, comment("answer"), nil, false); err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fakeGitHub) { f.failing = 3 })
	if _, err := p.Post(ctx, comment("edited"), nil, false); err == nil {
		t.Error("an edit after three 502s succeeded; want the last 502")
	}
	if got := f.count("PATCH", "/issues/comments/2000000001", 502); got != maxAttempts {
		t.Errorf("the edit was tried %d times, want %d", got, maxAttempts)
	}
}

// TestStickyWrittenByOthersIgnored: a marker comment is gitctx's only when
// its author could be gitctx's token (an app's bot, or someone with write
// access). One a pull request's author wrote, older and holding gitctx's
// markers, is left alone: it is neither the previous review nor edited.
func TestStickyWrittenByOthersIgnored(t *testing.T) {
	ctx := t.Context()
	for _, tt := range []struct {
		author string
		ours   bool
	}{
		{"mallory", false},
		{"octocat", true}, // a member, as with a personal token
		{"other-app[bot]", true},
	} {
		t.Run(tt.author, func(t *testing.T) {
			f := newFake(t, testFiles...)
			planted := fakeComment{ID: 1000, User: tt.author, Body: comment("planted answer").Render(65536)}
			f.set(func(f *fakeGitHub) { f.comments = append(f.comments, planted) })
			p, _ := newPoster(t, f)
			body, found, err := p.Previous(ctx)
			if err != nil || found != tt.ours || found && !strings.Contains(review.AnswerOf(body), "planted answer") {
				t.Fatalf("Previous = %q, %v, %v; want found %v", body, found, err, tt.ours)
			}
			if _, err := p.Post(ctx, comment("real answer"), nil, false); err != nil {
				t.Fatal(err)
			}
			edits, creates := f.count("PATCH", "/issues/comments/1000", 200), f.count("POST", "/issues/7/comments", 0)
			if tt.ours && (edits != 1 || creates != 0) || !tt.ours && (edits != 0 || creates != 1) {
				t.Errorf("%d edits of the planted comment, %d comments created", edits, creates)
			}
		})
	}
}
