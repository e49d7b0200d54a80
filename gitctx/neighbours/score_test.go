package neighbours

import (
	"cmp"
	"slices"
	"testing"
)

// TestScoreHistoryRelative: history counts in proportion to the file that
// changed most with the change's files, so the same evidence ranks alike
// whether the changed file has 5 past commits or 500, and shared words or
// a reference outweigh a small lead in history either way; a paired test
// stays first and a bare sibling last.
func TestScoreHistoryRelative(t *testing.T) {
	for _, scale := range []float64{0.5, 1, 10, 100} {
		cands := []*candidate{
			{path: "test", direct: weightTest, history: 1 * scale},
			{path: "most-history", history: 4 * scale},
			{path: "words", history: 3.5 * scale, words: weightWords},
			{path: "reference", history: 3.8 * scale, direct: weightDefinition},
			{path: "history", history: 3.9 * scale},
			{path: "words-only", words: 1},
			{path: "sibling", sibling: true},
		}
		maxHistory := 4 * scale
		slices.SortStableFunc(cands, func(a, b *candidate) int {
			return cmp.Compare(b.score(maxHistory, 0), a.score(maxHistory, 0))
		})
		var got []string
		for _, c := range cands {
			got = append(got, c.path)
		}
		want := []string{"test", "words", "reference", "most-history", "history", "words-only", "sibling"}
		if !slices.Equal(got, want) {
			t.Errorf("history ×%v: ranked %q, want %q", scale, got, want)
		}
	}
}

// TestScoreNoHistory: with no history at all, the other evidence ranks
// the files (no division by zero).
func TestScoreNoHistory(t *testing.T) {
	a := (&candidate{direct: weightImporter}).score(0, 0)
	b := (&candidate{words: 1}).score(0, 0)
	if !(a > tierRelated && b > a) {
		t.Errorf("scores without history: importer %v, words %v; want both above %v, words higher", a, b, tierRelated)
	}
}

// TestStrongestOneChangedFile: imports of several changed files do not add
// up to a paired test's evidence; one changed file's import and
// definition do, and so does what no changed file gives alone.
func TestStrongestOneChangedFile(t *testing.T) {
	tests := []struct {
		name string
		c    candidate
		test bool // ranks with the paired tests
	}{
		{"a paired test", candidate{direct: weightTest, bySeed: map[string]float64{"a.go": weightTest}}, true},
		{"import and definition of one file", candidate{direct: 3, bySeed: map[string]float64{"a.go": 3}}, true},
		{"imported by three files", candidate{direct: 3, bySeed: map[string]float64{"a.go": 1, "b.go": 1, "c.go": 1}}, false},
		{"a test of one, imported by another", candidate{direct: 4, bySeed: map[string]float64{"a.go": 3, "b.go": 1}}, true},
		{"a lock", candidate{direct: weightTest, unseeded: weightTest}, true},
		{"a dropped name beside two imports", candidate{direct: 3, unseeded: 1, bySeed: map[string]float64{"a.go": 1, "b.go": 1}}, false},
		{"a dropped name beside one file's import and definition", candidate{direct: 4, unseeded: 1, bySeed: map[string]float64{"a.go": 2, "b.go": 1}}, true},
	}
	for _, tt := range tests {
		if got := tt.c.score(0, 0) >= tierTest; got != tt.test {
			t.Errorf("%s: score %v, with the paired tests %v, want %v", tt.name, tt.c.score(0, 0), got, tt.test)
		}
	}
}

// TestFindHubOfSeveralChangedFiles: a package that each of three changed
// files imports ranks with the files history links to the change, below
// the one that changed with them before, not with the paired tests.
func TestFindHubOfSeveralChangedFiles(t *testing.T) {
	r := newTestRepo(t)
	user := func(pkg, fn, extra string) string {
		return "package " + pkg + "\n\nimport \"example.com/m/hub\"\n\nfunc " + fn + "() int { return hub.Do() }\n" + extra
	}
	r.commitEach(map[string]string{
		"go.mod":         "module example.com/m\n",
		"hub/hub.go":     "package hub\n\nfunc Do() int { return 1 }\n",
		"a/a.go":         user("a", "A", ""),
		"a/a_test.go":    "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { _ = A() }\n",
		"b/b.go":         user("b", "B", ""),
		"c/c.go":         user("c", "C", ""),
		"other/other.go": "package other\n\nconst Version = 1\n",
	})
	for i, v := range []string{"2", "3"} {
		r.WriteAll(map[string]string{
			"a/a.go":         user("a", "A", "\nconst limitA = "+v+"\n"),
			"b/b.go":         user("b", "B", "\nconst limitB = "+v+"\n"),
			"other/other.go": "package other\n\nconst Version = " + v + "\n",
		})
		r.Commit("limits " + string(rune('1'+i)))
	}
	r.WriteAll(map[string]string{
		"a/a.go": user("a", "A", "\nconst limitA = 4\n"),
		"b/b.go": user("b", "B", "\nconst limitB = 4\n"),
		"c/c.go": user("c", "C", "\nconst limitC = 4\n"),
	})
	r.Commit("limits")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	hub := neighbour(t, ns, "hub/hub.go")
	if hub.Score >= tierTest || !hasReason(hub, "c/c.go uses what it defines") {
		t.Errorf("hub/hub.go: score %v, reasons %q; want below %v, used by each changed file", hub.Score, hub.Reasons, tierTest)
	}
	if !slices.Equal(hub.Names, []string{"Do"}) {
		t.Errorf("hub/hub.go keeps %q for its excerpt, want Do, the name the changed files use", hub.Names)
	}
	ranksAbove(t, ns, "a/a_test.go", "other/other.go")
	ranksAbove(t, ns, "other/other.go", "hub/hub.go")
}

// TestFindDefinerOfSeveralChangedFiles: a file that defines what the
// changed lines of two files call ranks with the paired tests, though
// neither alone gives it a test's evidence.
func TestFindDefinerOfSeveralChangedFiles(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"go.mod":      "module example.com/m\n",
		"a/util.go":   "package a\n\nfunc normaliseWidth(n int) int { return n }\n\nfunc normaliseHeight(n int) int { return n }\n",
		"a/width.go":  "package a\n\nfunc Width() int { return 1 }\n",
		"a/height.go": "package a\n\nfunc Height() int { return 1 }\n",
	})
	r.WriteAll(map[string]string{
		"a/width.go":  "package a\n\nfunc Width() int { return normaliseWidth(1) }\n",
		"a/height.go": "package a\n\nfunc Height() int { return normaliseHeight(1) }\n",
	})
	r.Commit("normalise")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	util := neighbour(t, ns, "a/util.go")
	if util.Score < tierTest {
		t.Errorf("a/util.go: score %v, reasons %q; want %v or more", util.Score, util.Reasons, tierTest)
	}
}

// TestHistoryCommitsOfSeveralChangedFiles: an earlier commit that changed
// two of the change's files together weighs more than two that changed
// one of them, older though it is.
func TestHistoryCommitsOfSeveralChangedFiles(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"a.txt": "a 0\n", "b.txt": "b 0\n", "both.txt": "both 0\n", "one.txt": "one 0\n",
	})
	r.WriteAll(map[string]string{"a.txt": "a 1\n", "b.txt": "b 1\n", "both.txt": "both 1\n"})
	r.Commit("a and b")
	for i := range 2 {
		v := string(rune('2' + i))
		r.WriteAll(map[string]string{"a.txt": "a " + v + "\n", "one.txt": "one " + v + "\n"})
		r.Commit("a alone " + v)
	}
	r.WriteAll(map[string]string{"a.txt": "a 9\n", "b.txt": "b 9\n"})
	r.Commit("change")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	ranksAbove(t, ns, "both.txt", "one.txt")
}

func TestSeedsTouched(t *testing.T) {
	isSeed := map[string]bool{"a.go": true, "b.go": true, "c.go": true}
	tests := []struct {
		files []string
		want  float64
	}{
		{[]string{"x.go", "y.go"}, 1},
		{[]string{"a.go", "x.go"}, 1},
		{[]string{"a.go", "b.go", "x.go"}, 4},
		{[]string{"a.go", "b.go", "c.go"}, 9},
	}
	for _, tt := range tests {
		if got := seedsTouched(tt.files, isSeed); got != tt.want {
			t.Errorf("seedsTouched(%q) = %v, want %v", tt.files, got, tt.want)
		}
	}
}
