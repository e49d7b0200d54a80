package ghreview

import (
	"strings"
	"testing"

	"github.com/gitctx/gitctx/review"
)

func finding(path string, side string, start, line int, title string) review.Finding {
	return review.Finding{Path: path, Side: side, StartLine: start, Line: line, Severity: "warning", Title: title, Body: "details of " + title}
}

func TestInlineFindings(t *testing.T) {
	tests := []struct {
		name       string
		findings   []review.Finding
		wantInline []string // titles posted inline
		wantRanges int      // inline comments with a start_line
		wantOut    []string // titles listed in the comment
	}{
		{
			name:       "added line",
			findings:   []review.Finding{finding("main.go", "RIGHT", 0, 3, "added")},
			wantInline: []string{"added"},
		},
		{
			name:       "context and removed lines, side defaulted",
			findings:   []review.Finding{finding("main.go", "", 0, 1, "context"), finding("main.go", "LEFT", 0, 3, "removed")},
			wantInline: []string{"context", "removed"},
		},
		{
			name:     "lines outside the diff",
			findings: []review.Finding{finding("main.go", "RIGHT", 0, 40, "far"), finding("other.go", "RIGHT", 0, 1, "unchanged file"), finding("main.go", "LEFT", 0, 5, "no such old line")},
			wantOut:  []string{"far", "unchanged file", "no such old line"},
		},
		{
			name:       "ranges: one valid, one across hunks narrowed",
			findings:   []review.Finding{finding("greet/greet.go", "RIGHT", 21, 23, "in one hunk"), finding("greet/greet.go", "RIGHT", 3, 23, "across hunks")},
			wantInline: []string{"in one hunk", "across hunks"},
			wantRanges: 1,
		},
		{
			name:       "mixed",
			findings:   []review.Finding{finding("./main.go", "right", 0, 5, "in"), finding("greet/greet.go", "RIGHT", 0, 10, "out")},
			wantInline: []string{"in"},
			wantOut:    []string{"out"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, testFiles...)
			p, _ := newPoster(t, f)
			d, err := p.Post(t.Context(), comment("answer"), tt.findings, true)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.count("POST", "/pulls/7/reviews", 422); got != 0 {
				t.Errorf("GitHub answered 422 to %d reviews", got)
			}
			if d.Inline != len(tt.wantInline) {
				t.Errorf("Delivery.Inline = %d, want %d", d.Inline, len(tt.wantInline))
			}
			f.mu.Lock()
			inline, reviews := f.inline, len(f.reviews)
			f.mu.Unlock()
			if want := min(len(tt.wantInline), 1); reviews != want {
				t.Errorf("%d reviews, want %d", reviews, want)
			}
			ranges := 0
			for i, c := range inline {
				if i < len(tt.wantInline) && !strings.Contains(c.Body, tt.wantInline[i]) {
					t.Errorf("inline comment %d is %q, want %q", i, c.Body, tt.wantInline[i])
				}
				if c.StartLine != nil {
					ranges++
				}
			}
			if len(inline) != len(tt.wantInline) || ranges != tt.wantRanges {
				t.Errorf("%d inline comments (%d ranges), want %d (%d)", len(inline), ranges, len(tt.wantInline), tt.wantRanges)
			}
			body := f.stickies()[0]
			if got := strings.Contains(body, "Findings outside the diff"); got != (len(tt.wantOut) > 0) {
				t.Errorf("outside section present = %v, want %v", got, len(tt.wantOut) > 0)
			}
			for _, title := range tt.wantOut {
				if !strings.Contains(body, title) {
					t.Errorf("finding %q is not listed in the comment", title)
				}
			}
		})
	}
}

func TestInlineOff(t *testing.T) {
	f := newFake(t, testFiles...)
	p, _ := newPoster(t, f)
	fs := []review.Finding{finding("main.go", "RIGHT", 0, 3, "added"), finding("main.go", "RIGHT", 0, 40, "far")}
	d, err := p.Post(t.Context(), comment("answer"), fs, false)
	if err != nil {
		t.Fatal(err)
	}
	if d.Inline != 0 || f.count("GET", "/pulls/7/files", 0) != 0 || f.count("POST", "/pulls/7/reviews", 0) != 0 {
		t.Errorf("inline off still fetched files or posted a review: %+v", d)
	}
	if body := f.stickies()[0]; strings.Contains(body, "Findings outside the diff") {
		t.Errorf("inline off listed findings in the comment:\n%s", body)
	}
}

func TestInlineNotPostedTwice(t *testing.T) {
	f := newFake(t, testFiles...)
	fs := []review.Finding{finding("main.go", "RIGHT", 0, 3, "added")}
	for run := range 2 {
		p, _ := newPoster(t, f)
		d, err := p.Post(t.Context(), comment("answer"), fs, true)
		if err != nil || d.Inline != 1 {
			t.Fatalf("run %d: %+v, %v", run, d, err)
		}
	}
	if got := f.count("POST", "/pulls/7/reviews", 0); got != 1 {
		t.Errorf("%d reviews posted over two runs, want 1", got)
	}
	fs = append(fs, finding("main.go", "RIGHT", 0, 5, "new one"))
	p, _ := newPoster(t, f)
	if d, err := p.Post(t.Context(), comment("answer"), fs, true); err != nil || d.Inline != 2 {
		t.Fatalf("third run: %+v, %v", d, err)
	}
	if f.mu.Lock(); len(f.inline) != 2 {
		t.Errorf("%d inline comments, want 2", len(f.inline))
	}
	f.mu.Unlock()
}

// A review GitHub refuses (the pull request moved) keeps its findings: they
// are listed in the comment, and the post succeeds with a notice.
func TestRefusedReviewMovesFindingsToComment(t *testing.T) {
	f := newFake(t, testFiles...)
	f.set(func(f *fakeGitHub) { f.reviewStatus = 422 })
	p, _ := newPoster(t, f)
	d, err := p.Post(t.Context(), comment("answer"), []review.Finding{finding("main.go", "RIGHT", 0, 3, "added")}, true)
	if err != nil {
		t.Fatal(err)
	}
	if d.Inline != 0 || !strings.Contains(d.Notice, "422") || d.URL == "" {
		t.Errorf("delivery %+v", d)
	}
	s := f.stickies()
	if len(s) != 1 || !strings.Contains(s[0], "added") || !strings.Contains(s[0], "Findings not posted inline") || strings.Contains(s[0], "outside the diff") {
		t.Errorf("comments %q: want one, listing the refused finding as refused (it is in the diff)", s)
	}
	if got := review.AnswerOf(s[0]); got != "answer" {
		t.Errorf("the answer read back from the comment: %q", got)
	}
}

// A review that fails otherwise is an error, but the comment stays,
// listing the findings, and its URL is returned.
func TestFailedReviewKeepsComment(t *testing.T) {
	f := newFake(t, testFiles...)
	f.set(func(f *fakeGitHub) { f.reviewStatus = 502 })
	p, _ := newPoster(t, f)
	d, err := p.Post(t.Context(), comment("answer"), []review.Finding{finding("main.go", "RIGHT", 0, 3, "added")}, true)
	if err == nil || !strings.Contains(err.Error(), "502") || !strings.Contains(err.Error(), "/pulls/7/reviews") {
		t.Errorf("error %v: want the review's 502 and its endpoint", err)
	}
	s := f.stickies()
	if d.URL == "" || len(s) != 1 || !strings.Contains(s[0], "added") {
		t.Errorf("delivery %+v, comments %q: want the comment, listing the finding", d, s)
	}
}

// TestInlineFingerprintsOfOthersIgnored: a review comment holding a
// finding's fingerprint keeps the finding from being posted again only
// when gitctx could have written it.
func TestInlineFingerprintsOfOthersIgnored(t *testing.T) {
	f := newFake(t, testFiles...)
	fs := []review.Finding{finding("main.go", "RIGHT", 0, 3, "added")}
	three := 3
	planted := fakeInline{Path: "main.go", Line: &three, Body: inlineBody(fs[0]), User: "mallory"}
	f.set(func(f *fakeGitHub) { f.inline = append(f.inline, planted) })
	p, _ := newPoster(t, f)
	if d, err := p.Post(t.Context(), comment("answer"), fs, true); err != nil || d.Inline != 1 {
		t.Fatalf("%+v, %v", d, err)
	}
	if got := f.count("POST", "/pulls/7/reviews", 0); got != 1 {
		t.Errorf("%d reviews posted, want 1: another's fingerprint kept the finding back", got)
	}
}
