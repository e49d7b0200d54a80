package neighbours

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// goFuncs is a Go file of functions A and B, far apart, whose bodies say
// what is given.
func goFuncs(a, b string) string {
	var s strings.Builder
	s.WriteString("package app\n\nfunc A() {\n\tprintln(\"" + a + "\")\n}\n")
	for i := range 30 {
		fmt.Fprintf(&s, "\n// filler %d", i)
	}
	s.WriteString("\n\nfunc B() {\n\tprintln(\"" + b + "\")\n}\n")
	return s.String()
}

// TestFindSameEntity: of two files that changed with the changed file, the
// one whose commits changed the same function as the change ranks first,
// though the other shared more commits, and more recent ones.
func TestFindSameEntity(t *testing.T) {
	for _, tc := range []struct {
		name          string
		change        string
		first, second string
		firstCommits  int
		secondCommits int
	}{
		{"changes A", goFuncs("a-change", "b3"), "notes/a.txt", "notes/b.txt", 2, 3},
		{"changes B", goFuncs("a2", "b-change"), "notes/b.txt", "notes/a.txt", 3, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRepo(t)
			r.commitEach(map[string]string{"app/seed.go": goFuncs("a0", "b0"), "notes/a.txt": "0\n", "notes/b.txt": "0\n"})
			for i := range 2 {
				r.WriteAll(map[string]string{"app/seed.go": goFuncs(fmt.Sprint("a", i+1), "b0"), "notes/a.txt": fmt.Sprint(i+1, "\n")})
				r.Commit("A and a")
			}
			for i := range 3 {
				r.WriteAll(map[string]string{"app/seed.go": goFuncs("a2", fmt.Sprint("b", i+1)), "notes/b.txt": fmt.Sprint(i+1, "\n")})
				r.Commit("B and b")
			}
			r.WriteAll(map[string]string{"app/seed.go": tc.change})
			r.Commit("the change")
			ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
			ranksAbove(t, ns, tc.first, tc.second)
			if n := neighbour(t, ns, "notes/a.txt"); !hasReasonMatching(n, `in the same code`) == (tc.first == "notes/a.txt") {
				t.Errorf("notes/a.txt reasons %q", n.Reasons)
			}
		})
	}
}

// TestSameParts: a past commit changed the same part of a file as the
// change when one of its hunks sits in a definition the change changes,
// or comes within entitySlack of the changed lines, followed back through
// the commits after it.
func TestSameParts(t *testing.T) {
	hunk := func(oldStart, oldLines, newStart, newLines int, section string) gitctx.PastHunk {
		return gitctx.PastHunk{Path: "f.go", OldStart: oldStart, OldLines: oldLines, NewStart: newStart, NewLines: newLines, Section: section}
	}
	parts := map[string]changedParts{"f.go": {names: map[string]bool{"func A() {": true}, lines: []lineRange{{50, 52}}}}
	for _, tc := range []struct {
		name string
		past []gitctx.HunkCommit
		want []string
	}{
		{"same definition", []gitctx.HunkCommit{{SHA: "c1", Hunks: []gitctx.PastHunk{hunk(5, 1, 5, 1, "func A() {")}}}, []string{"c1"}},
		{"other definition, far", []gitctx.HunkCommit{{SHA: "c1", Hunks: []gitctx.PastHunk{hunk(5, 1, 5, 1, "func B() {")}}}, nil},
		{"near the lines", []gitctx.HunkCommit{{SHA: "c1", Hunks: []gitctx.PastHunk{hunk(54, 1, 54, 1, "")}}}, []string{"c1"}},
		{"other file", []gitctx.HunkCommit{{SHA: "c1", Hunks: []gitctx.PastHunk{{Path: "g.go", NewStart: 50, NewLines: 1, Section: "func A() {"}}}}, nil},
		{"lines moved by a later commit", []gitctx.HunkCommit{
			{SHA: "later", Hunks: []gitctx.PastHunk{hunk(10, 0, 11, 20, "")}}, // wrote lines 11-30: old line 30 is now 50
			{SHA: "earlier", Hunks: []gitctx.PastHunk{hunk(31, 1, 31, 1, "")}},
			{SHA: "elsewhere", Hunks: []gitctx.PastHunk{hunk(50, 1, 50, 1, "")}},
		}, []string{"earlier"}},
		{"the file written whole", []gitctx.HunkCommit{{SHA: "c1", Hunks: []gitctx.PastHunk{hunk(0, 0, 1, 80, "")}}}, nil},
		{"the file written whole, with the definition", []gitctx.HunkCommit{{SHA: "c1", Hunks: []gitctx.PastHunk{
			{Path: "f.go", NewStart: 1, NewLines: 80, Heads: []string{"func A() {"}}}}}, nil},
		{"lines inserted at the top", []gitctx.HunkCommit{{SHA: "c1", Hunks: []gitctx.PastHunk{hunk(0, 0, 1, 3, ""), hunk(48, 1, 51, 1, "")}}}, []string{"c1"}},
		{"lines written by a later commit", []gitctx.HunkCommit{
			{SHA: "later", Hunks: []gitctx.PastHunk{hunk(40, 2, 45, 10, "")}}, // 45-54 replaced 40-41
			{SHA: "earlier", Hunks: []gitctx.PastHunk{hunk(41, 1, 41, 1, "")}},
		}, []string{"earlier", "later"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := sameParts(parts, tc.past)
			checkEqual(t, "sameParts", sortedKeys(got), tc.want)
		})
	}
}

// TestPartsOf: a changed line sits in the last definition line above it in
// its hunk, or else in the hunk's section; its line numbers are the old
// side's, and an added line sits between two old lines. A document names
// no definitions.
func TestPartsOf(t *testing.T) {
	lines := func(ops string, texts ...string) []gitctx.Line {
		out := make([]gitctx.Line, len(texts))
		for i, s := range texts {
			out[i] = gitctx.Line{Op: ops[i], Text: s}
		}
		return out
	}
	// Old lines 10 to 15; 12 deleted, a line added between 14 and 15.
	hunk := gitctx.Hunk{OldStart: 10, OldLines: 6, NewStart: 10, NewLines: 6, Section: "func A() {",
		Lines: lines("  -  + ", "\tx := 1", "}", "\treturn", "func B() {", "\ty := 2", "\treturn", "}")}
	for _, tc := range []struct {
		name string
		hunk gitctx.Hunk
		code bool
		want changedParts
	}{
		{"a deleted line in A", gitctx.Hunk{OldStart: 10, OldLines: 3, NewStart: 10, NewLines: 2, Section: "func A() {",
			Lines: lines(" - ", "\tx := 1", "\ty := 2", "}")}, true,
			changedParts{names: map[string]bool{"func A() {": true}, lines: []lineRange{{11, 11}}}},
		{"lines in A and in B", hunk, true,
			changedParts{names: map[string]bool{"func A() {": true, "func B() {": true}, lines: []lineRange{{12, 15}}}},
		{"a document", hunk, false, changedParts{names: map[string]bool{}, lines: []lineRange{{12, 15}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := partsOf(&gitctx.Patch{Hunks: []gitctx.Hunk{tc.hunk}}, tc.code)
			checkEqual(t, "partsOf", got, tc.want)
		})
	}
}
