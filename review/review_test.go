package review_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gitctx/gitctx/review"
	"github.com/gitctx/gitctx/secrets"
	"github.com/gitctx/gitctx/secrets/secretstest"
)

type fakeProvider struct {
	answer string
	err    error
	calls  int
	got    review.Request
}

func (p *fakeProvider) Name() string     { return "fake" }
func (p *fakeProvider) Endpoint() string { return "fake.invalid" }
func (p *fakeProvider) Complete(_ context.Context, r review.Request) (review.Answer, error) {
	p.calls++
	p.got = r
	return review.Answer{Text: p.answer, Model: r.Model, Usage: review.Usage{InputTokens: 10, OutputTokens: 5}}, p.err
}

type fakePoster struct {
	previous string
	posted   []string
	findings []review.Finding
	err      error
}

func (p *fakePoster) Kind() string { return "fake" }
func (p *fakePoster) Previous(context.Context) (string, bool, error) {
	return p.previous, p.previous != "", nil
}
func (p *fakePoster) Post(_ context.Context, c review.Comment, fs []review.Finding, _ bool) (review.Delivery, error) {
	if p.err != nil {
		return review.Delivery{Kind: "fake"}, p.err
	}
	body := c.Render(review.MaxCommentChars)
	p.posted, p.previous, p.findings = append(p.posted, body), body, fs
	return review.Delivery{Kind: "fake", URL: "https://example.invalid/c/1"}, nil
}

func newGate(t *testing.T, own ...string) *secrets.Gate {
	t.Helper()
	g, err := secrets.New(secrets.Options{OwnTokens: own})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

const answer = "## Review\n\nLooks fine.\n\n```json\n{\"findings\":[{\"path\":\"a.go\",\"line\":3,\"severity\":\"warning\",\"title\":\"Unchecked\",\"body\":\"err\"}]}\n```\n"

func TestRunPostsSavesAndReusesAnUnchangedPack(t *testing.T) {
	ctx := context.Background()
	prov, poster := &fakeProvider{answer: answer}, &fakePoster{}
	var saves []*review.Result
	job := review.Job{
		Provider: prov, Poster: poster, Model: "m", MaxOutputTokens: 100,
		Prompt: review.NewPrompt("", "GITCTX-X", "pack"), PackHash: "sha256:a1b2c3d4e5f60000000000000000000000000000000000000000000000000000",
		Scanner: newGate(t), Details: func() string { return "details" },
		Save: func(_ context.Context, r *review.Result) error { saves = append(saves, r); return nil },
	}
	res, err := review.Run(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	if prov.calls != 1 || len(poster.posted) != 1 || len(saves) != 2 {
		t.Fatalf("calls %d, posts %d, saves %d; want 1, 1, 2", prov.calls, len(poster.posted), len(saves))
	}
	if len(res.Findings) != 1 || res.Findings[0].Side != "RIGHT" || poster.findings[0].Path != "a.go" {
		t.Errorf("findings %+v", res.Findings)
	}
	body := poster.posted[0]
	if !strings.HasPrefix(body, "<!-- gitctx:review pack=a1b2c3d4e5f6 -->") || !strings.Contains(body, "Looks fine.") || strings.Contains(body, "```json") {
		t.Errorf("comment:\n%s", body)
	}
	if prov.got.MaxOutputTokens != 100 || !strings.Contains(prov.got.System, "GITCTX-X begin") {
		t.Errorf("request %+v", prov.got)
	}

	res, err = review.Run(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Reused || prov.calls != 1 || len(poster.posted) != 2 || !strings.Contains(poster.posted[1], "Looks fine.") {
		t.Errorf("second run: reused %v, calls %d, posts %d", res.Reused, prov.calls, len(poster.posted))
	}
	job.PackHash = "sha256:d1e2f3a4b5c60000000000000000000000000000000000000000000000000000"
	if _, err := review.Run(ctx, job); err != nil || prov.calls != 2 {
		t.Errorf("a new pack must be sent: err %v, calls %d", err, prov.calls)
	}
}

func TestRunKeepsTheAnswerWhenThePostFails(t *testing.T) {
	saved := ""
	job := review.Job{
		Provider: &fakeProvider{answer: "fine"}, Poster: &fakePoster{err: errors.New("boom")},
		Scanner: newGate(t), Save: func(_ context.Context, r *review.Result) error { saved = r.Answer; return nil },
	}
	_, err := review.Run(context.Background(), job)
	if err == nil || saved != "fine" {
		t.Fatalf("err %v, saved %q", err, saved)
	}
	job.Poster = &fakePoster{err: review.ErrReadOnly}
	res, err := review.Run(context.Background(), job)
	if !errors.Is(err, review.ErrReadOnly) || res.Delivery.Notice == "" {
		t.Errorf("read-only: err %v, notice %q", err, res.Delivery.Notice)
	}
}

func TestRunStopsOnProviderError(t *testing.T) {
	saves := 0
	job := review.Job{
		Provider: &fakeProvider{err: &review.StatusError{Provider: "fake", Status: 500, Attempts: 4}}, Poster: &fakePoster{},
		Scanner: newGate(t), Save: func(context.Context, *review.Result) error { saves++; return nil },
	}
	_, err := review.Run(context.Background(), job)
	if err == nil || !strings.Contains(err.Error(), "500") || saves != 0 {
		t.Errorf("err %v, saves %d", err, saves)
	}
}

func TestSanitise(t *testing.T) {
	corpus, err := secretstest.Load()
	if err != nil {
		t.Fatal(err)
	}
	pat, err := corpus.Make("github-pat", "answer")
	if err != nil {
		t.Fatal(err)
	}
	own := "sk-own-" + strings.Repeat("q", 30)
	in := "token " + pat.Token + "\r\nkey " + own + "\n::set-output name=x::y\n  ##[error]boom\n\x1b]0;title\x07ok\n<!-- gitctx:review -->\ncc @octo-org/everyone\nif x \u202e} \u2066// y\u2069 {\nשלום \u200f"
	out, items, err := review.Sanitise(context.Background(), newGate(t, own), in)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{pat.Token, own, "::set-output", "##[error]", "\x1b", "\x07", "\r", "<!-- gitctx", "@octo-org", "\u202e", "\u2066", "\u2069"} {
		if strings.Contains(out, bad) {
			t.Errorf("sanitised answer still holds %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, `if x \u202E} \u2066// y\u2069 {`) || !strings.Contains(out, "שלום \u200f") {
		t.Errorf("bidirectional overrides are not shown as escapes, or right-to-left text is changed:\n%s", out)
	}
	if len(items) < 2 || items[0].Side != "answer" || items[0].Line != 1 {
		t.Errorf("items %+v", items)
	}
}

func TestParseFindings(t *testing.T) {
	tests := []struct {
		name, answer string
		want         []review.Finding
	}{
		{"none", "no block", nil},
		{"wrapped", "```json\n{\"findings\":[{\"path\":\"./x/y.go\",\"line\":2,\"severity\":\"ERROR\"}]}\n```",
			[]review.Finding{{Path: "x/y.go", Line: 2, Side: "RIGHT", Severity: "error"}}},
		{"bare list, left side", "```json\n[{\"path\":\"a\",\"line\":1,\"side\":\"left\",\"severity\":\"nit\"}]\n```",
			[]review.Finding{{Path: "a", Line: 1, Side: "LEFT", Severity: "info"}}},
		{"unanchored dropped", "```json\n{\"findings\":[{\"path\":\"/etc/passwd\",\"line\":1},{\"path\":\"../x\",\"line\":1},{\"path\":\"a\",\"line\":0},{\"path\":\"b\",\"line\":4,\"start_line\":9,\"side\":\"UP\"}]}\n```", nil},
		{"bad start line dropped", "```json\n{\"findings\":[{\"path\":\"b\",\"line\":4,\"start_line\":9}]}\n```",
			[]review.Finding{{Path: "b", Line: 4, Side: "RIGHT", Severity: "warning"}}},
		{"last block wins", "```json\n[{\"path\":\"a\",\"line\":1}]\n```\n```json\n[{\"path\":\"b\",\"line\":2}]\n```",
			[]review.Finding{{Path: "b", Line: 2, Side: "RIGHT", Severity: "warning"}}},
		{"broken json ignored", "```json\n{\"findings\": [\n```", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := review.ParseFindings(tt.answer)
			if len(got) != len(tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("finding %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestRenderKeepsWithinTheLimit(t *testing.T) {
	long := strings.Repeat("Übersicht — line of review text ✓\n", 2200) // > 72,000 code points
	c := review.Comment{PackHash: "sha256:0f1e2d3c4b5a9999999999999999999999999999999999999999999999999999", Answer: long, Details: strings.Repeat("d", 5000), Footer: "footer",
		Outside: []review.Finding{{Path: "a.go", Line: 3, Severity: "info", Title: "t"}}}
	body := c.Render(review.MaxCommentChars)
	if n := utf8.RuneCountInString(body); n > review.MaxCommentChars {
		t.Fatalf("%d code points", n)
	}
	for _, want := range []string{"<!-- gitctx:review pack=0f1e2d3c4b5a -->", "Übersicht", "truncated", "footer", "`a.go` line 3", "What the model saw"} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q", want)
		}
	}
	if review.PackHashOf(body) != "0f1e2d3c4b5a" {
		t.Errorf("hash %q", review.PackHashOf(body))
	}
	short := review.Comment{PackHash: "sha256:2", Answer: "fine", Details: "d"}.Render(review.MaxCommentChars)
	if review.AnswerOf(short) != "fine" || strings.Contains(short, "truncated") {
		t.Errorf("short comment:\n%s", short)
	}
}

// TestSamePack: a marker names its pack by the first 12 hex of its sha256
// (and, as earlier versions wrote it, by the whole "sha256:<hex>"); less
// than 12 hex names no pack.
func TestSamePack(t *testing.T) {
	pack := "sha256:a1b2c3d4e5f6" + strings.Repeat("0", 52)
	for marked, want := range map[string]bool{
		"a1b2c3d4e5f6": true,
		pack:           true,
		"a1b2c3d4e5f7": false,
		"a1b2c3":       false,
		"":             false,
		"sha256:a1b2c3d4e5f6" + strings.Repeat("0", 51) + "1": false,
	} {
		if got := review.SamePack(marked, pack); got != want {
			t.Errorf("SamePack(%q) = %v, want %v", marked, got, want)
		}
	}
	body := review.Comment{PackHash: pack, Answer: "fine"}.Render(review.MaxCommentChars)
	if !review.SamePack(review.PackHashOf(body), pack) || !strings.HasPrefix(body, "<!-- gitctx:review pack=a1b2c3d4e5f6 -->") {
		t.Errorf("a rendered comment's marker does not name its pack:\n%.80s", body)
	}
}
