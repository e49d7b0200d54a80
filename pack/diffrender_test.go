package pack

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/secrets"
)

// numberedLines is a file of n lines that start with digits, so that git
// finds no function name to put in hunk headers.
func numberedLines(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%02d line", i+1)
	}
	return out
}

// edit returns the lines with some replaced, inserted or deleted.
func edit(lines []string, changes map[int]string) string {
	var b strings.Builder
	for i, l := range lines {
		c, ok := changes[i+1]
		switch {
		case !ok:
			b.WriteString(l + "\n")
		case c == "":
			// deleted
		case strings.HasPrefix(c, "+"):
			b.WriteString(c[1:] + "\n" + l + "\n")
		default:
			b.WriteString(c + "\n")
		}
	}
	return b.String()
}

var sixty = numberedLines(60)

var diffCases = []struct {
	name     string
	old, new string
}{
	{"three separated edits", edit(sixty, nil), edit(sixty, map[int]string{10: "ten", 30: "thirty", 50: "fifty"})},
	// gaps of 2, 3, 4 and 5 context lines: -U1 joins the first only, -U2 the first three
	{"edits at every gap", edit(sixty, nil), edit(sixty, map[int]string{5: "a", 8: "b", 12: "c", 17: "d", 23: "e", 30: "f"})},
	{"insert at start and end", edit(sixty, nil), "first\nsecond\n" + edit(sixty, nil) + "last\n"},
	{"insert in the middle", edit(sixty, nil), edit(sixty, map[int]string{20: "+inserted", 21: "+another"})},
	{"deletions", edit(sixty, nil), edit(sixty, map[int]string{1: "", 2: "", 30: "", 31: "", 32: "", 60: ""})},
	{"no newline at the end", strings.TrimSuffix(edit(sixty, nil), "\n"), edit(sixty, map[int]string{60: "sixty"}) + "added\n"},
	{"a whole rewrite", "a\nb\nc\n", "x\ny\n"},
}

// patchesOf commits old and new versions of files and returns the
// change's patches by path (git diff -U3, as gitctx reads them).
func patchesOf(t *testing.T, r *gitRepo, files map[string][2]string) map[string]*gitctx.Patch {
	t.Helper()
	for name, v := range files {
		r.Write(name, v[0])
	}
	r.Commit("old")
	for name, v := range files {
		r.Write(name, v[1])
	}
	r.Commit("new")
	ch := r.change("HEAD~1..HEAD")
	got := map[string]*gitctx.Patch{}
	err := ch.Patches(context.Background(), func(*gitctx.File) bool { return true }, 0, func(f *gitctx.File, p *gitctx.Patch) error {
		got[f.Path] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// renderedDiff is the diff text the pack shows of a patch, re-cut to n
// lines of context and capped at capLines, the gate having found nothing.
func renderedDiff(p *gitctx.Patch, old, new string, n, capLines int) string {
	e := &entry{path: "f", label: secrets.Literal("f"), patch: p, diffContext: n, diffCap: capLines}
	e.red = &redaction{newDiff: literalImage(new), oldDiff: literalImage(old), sections: map[string]redactedText{}}
	for _, s := range sectionCandidates(p) {
		e.red.sections[s] = redactedText{text: secrets.Literal(s)}
	}
	text, _, _ := e.diffText()
	return text
}

// gitHunks is what `git diff -U<n>` prints from the first hunk on.
func gitHunks(t *testing.T, r *gitRepo, n int, path string) string {
	t.Helper()
	out := r.Git("diff", fmt.Sprintf("-U%d", n), "--no-color", "HEAD~1", "HEAD", "--", path)
	i := strings.Index(out, "\n@@ ")
	if i < 0 {
		t.Fatalf("git diff -U%d printed no hunk:\n%s", n, out)
	}
	return out[i+1:]
}

func TestWithContextMatchesGit(t *testing.T) {
	r := newRepo(t, "context")
	files := map[string][2]string{}
	for i, c := range diffCases {
		files[fmt.Sprintf("f%d.txt", i)] = [2]string{c.old, c.new}
	}
	patches := patchesOf(t, r, files)
	for i, c := range diffCases {
		path := fmt.Sprintf("f%d.txt", i)
		p := patches[path]
		if p == nil {
			t.Fatalf("%s: no patch", c.name)
		}
		for n := 0; n <= 3; n++ {
			got, want := renderedDiff(p, c.old, c.new, n, 0), gitHunks(t, r, n, path)
			if got != want {
				t.Errorf("%s, %d lines of context:\n%s\ngot:\n%s\nwant (git diff -U%d):\n%s", c.name, n, textDiff(got, want), got, n, want)
			}
		}
	}
}

// TestWithContextSectionMatchesGit checks the function name in re-cut hunk
// headers. git takes it from the line above each hunk's first line, so a
// hunk cut to less context, or split off another, can sit in a different
// function from the -U3 hunk it came from.
func TestWithContextSectionMatchesGit(t *testing.T) {
	r := newRepo(t, "sections")
	old := "package p\n\nfunc A() {\n\ta := 1\n}\n\nfunc B() {\n\tb := 2\n}\n\nfunc C() {\n\tc := 3\n\t_ = c\n}\n"
	new := strings.Replace(strings.Replace(old, "b := 2", "b := 20", 1), "_ = c", "_ = c + 1", 1)
	p := patchesOf(t, r, map[string][2]string{"p.go": {old, new}})["p.go"]
	for n := 0; n <= 2; n++ {
		got, want := renderedDiff(p, old, new, n, 0), gitHunks(t, r, n, "p.go")
		if got != want {
			t.Errorf("%d lines of context:\n%s\ngot:\n%s\nwant (git diff -U%d):\n%s", n, textDiff(got, want), got, n, want)
		}
	}
}

func TestDiffCap(t *testing.T) {
	r := newRepo(t, "cap")
	changes := map[int]string{}
	for i := 1; i <= 60; i += 2 {
		changes[i] = fmt.Sprintf("changed %d", i)
	}
	old, new := edit(sixty, nil), edit(sixty, changes)
	p := patchesOf(t, r, map[string][2]string{"f.txt": {old, new}})["f.txt"]
	full := strings.SplitAfter(renderedDiff(p, old, new, 3, 0), "\n")
	full = full[:len(full)-1]
	for _, capLines := range []int{3, 12, 31, 100} {
		got := strings.SplitAfter(renderedDiff(p, old, new, 3, capLines), "\n")
		got = got[:len(got)-1]
		if len(full) <= capLines {
			if strings.Join(got, "") != strings.Join(full, "") {
				t.Errorf("cap %d over %d lines: the diff changed", capLines, len(full))
			}
			continue
		}
		head := capLines * 2 / 3
		tail := capLines - head
		want := append(append(append([]string{}, full[:head]...),
			fmt.Sprintf("... [gitctx: %d diff lines omitted here to fit the token budget] ...\n", len(full)-capLines)), full[len(full)-tail:]...)
		if strings.Join(got, "") != strings.Join(want, "") {
			t.Errorf("cap %d:\n%s", capLines, textDiff(strings.Join(got, ""), strings.Join(want, "")))
		}
		if len(got) != capLines+1 {
			t.Errorf("cap %d: %d lines, want %d and the marker", capLines, len(got), capLines)
		}
	}
}

func TestDiffLines(t *testing.T) {
	hunks := []gitctx.Hunk{{Lines: make([]gitctx.Line, 4)}, {Lines: make([]gitctx.Line, 2)}}
	if _, got := hunkSize(hunks, 3); got != 8 {
		t.Errorf("hunkSize's lines = %d, want 8 (2 headers, 6 lines)", got)
	}
}
