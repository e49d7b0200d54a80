package neighbours

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// The gitctx.Change methods Find builds on: History and Grep.

// TestChangeHistory: History lists, newest first, the commits before the
// change that touched any of the paths, each with every file it touched,
// merges left out.
func TestChangeHistory(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.txt": "1\n"})
	a := r.Commit("A: a")
	r.WriteAll(map[string]string{"b.txt": "1\n", "dir/c.txt": "1\n"})
	b := r.Commit("B: b and c")
	r.WriteAll(map[string]string{"a.txt": "2\n", "b.txt": "2\n"})
	c := r.Commit("C: a and b")
	r.Git("checkout", "-q", "-b", "side")
	r.WriteAll(map[string]string{"a.txt": "3\n", "side.txt": "1\n"})
	s := r.Commit("S: a and side, on a branch")
	r.Git("checkout", "-q", "main")
	r.WriteAll(map[string]string{"dir/c.txt": "2\n"})
	d := r.Commit("D: c")
	r.Git("merge", "-q", "--no-ff", "-m", "M: merge side", "side")
	r.Commits++
	m := r.Rev("HEAD")
	r.WriteAll(map[string]string{"a.txt": "4\n", "new.txt": "1\n"})
	r.Commit("N: the change")

	ch := r.selectRange("HEAD")
	if ch.Source.Base != m {
		t.Fatalf("base is %s, want the merge %s", ch.Source.Base, m)
	}
	for _, tc := range []struct {
		name  string
		paths []string
		depth int
		want  []gitctx.HistoryCommit
	}{
		{"one path", []string{"a.txt"}, 100, []gitctx.HistoryCommit{
			{SHA: s, Files: []string{"a.txt", "side.txt"}},
			{SHA: c, Files: []string{"a.txt", "b.txt"}},
			{SHA: a, Files: []string{"a.txt"}},
		}},
		{"depth", []string{"a.txt"}, 2, []gitctx.HistoryCommit{
			{SHA: s, Files: []string{"a.txt", "side.txt"}},
			{SHA: c, Files: []string{"a.txt", "b.txt"}},
		}},
		{"two paths", []string{"dir/c.txt", "side.txt"}, 100, []gitctx.HistoryCommit{
			{SHA: d, Files: []string{"dir/c.txt"}},
			{SHA: s, Files: []string{"a.txt", "side.txt"}},
			{SHA: b, Files: []string{"b.txt", "dir/c.txt"}},
		}},
		{"a file new in the change", []string{"new.txt"}, 100, nil},
		{"no paths", nil, 100, nil},
	} {
		for _, many := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/many paths %v", tc.name, many), func(t *testing.T) {
				got, err := ch.History(t.Context(), manyPaths(tc.paths, many), tc.depth, 0)
				if err != nil {
					t.Fatalf("History: %v", err)
				}
				for i := range got {
					sort.Strings(got[i].Files)
				}
				checkEqual(t, "History", got, tc.want)
			})
		}
	}
}

// manyPaths pads paths, when many is set, with names no commit touched,
// past the number of paths History hands git: History then lists every
// commit's files and keeps those that touch a path, and must give the
// same answer as git's path-limited walk.
func manyPaths(paths []string, many bool) []string {
	if !many || len(paths) == 0 {
		return paths
	}
	out := slices.Clone(paths)
	for i := range 40 {
		out = append(out, fmt.Sprintf("absent/%d.txt", i))
	}
	return out
}

// TestChangeHistoryStart: the history of a range ends at its base, so
// commits inside the range are not listed; a work-tree change's history
// ends at HEAD.
func TestChangeHistoryStart(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.txt": "1\n", "b.txt": "1\n"})
	first := r.Commit("first")
	r.WriteAll(map[string]string{"a.txt": "2\n", "b.txt": "2\n"})
	second := r.Commit("second")
	r.WriteAll(map[string]string{"a.txt": "3\n", "c.txt": "3\n"})
	third := r.Commit("third")

	got, err := r.selectRange(first+"..HEAD").History(t.Context(), []string{"a.txt"}, 100, 0)
	if err != nil {
		t.Fatalf("History: %v", err)
	}
	checkEqual(t, "history of a range", shas(got), []string{first})

	got, err = r.selectRange("HEAD~1...HEAD").History(t.Context(), []string{"a.txt"}, 100, 0)
	if err != nil {
		t.Fatalf("History: %v", err)
	}
	checkEqual(t, "history of a three-dot range", shas(got), []string{second, first})

	r.WriteAll(map[string]string{"a.txt": "4\n"})
	got, err = r.selectWorktree().History(t.Context(), []string{"a.txt"}, 100, 0)
	if err != nil {
		t.Fatalf("History: %v", err)
	}
	checkEqual(t, "history of the work tree", shas(got), []string{third, second, first})
}

// TestChangeHistoryWindow: the window bounds how far back the walk goes,
// counting every commit, not only those that touched the paths.
func TestChangeHistoryWindow(t *testing.T) {
	r := newTestRepo(t)
	var touched []string
	for i := range 6 {
		r.WriteAll(map[string]string{"a.txt": fmt.Sprint(i), "other.txt": fmt.Sprint(i)})
		touched = append([]string{r.Commit(fmt.Sprint("a ", i))}, touched...)
		r.WriteAll(map[string]string{"other.txt": fmt.Sprint("o", i)})
		r.Commit(fmt.Sprint("other ", i))
	}
	r.WriteAll(map[string]string{"a.txt": "change"})
	ch := r.selectWorktree()
	for _, tc := range []struct {
		max, window int
		want        []string
	}{
		{100, 0, touched},      // no window: all of history
		{100, 100, touched},    // a window longer than history
		{100, 4, touched[:2]},  // the 4 newest commits hold 2 that touched a.txt
		{1, 0, touched[:1]},    // at most max
		{100, 1, nil},          // the newest commit did not touch a.txt
		{100, 12, touched},     // exactly the whole history
		{100, 11, touched[:5]}, // all but the root
	} {
		for _, many := range []bool{false, true} {
			got, err := ch.History(t.Context(), manyPaths([]string{"a.txt"}, many), tc.max, tc.window)
			if err != nil {
				t.Fatalf("History: %v", err)
			}
			checkEqual(t, fmt.Sprintf("History(max %d, window %d, many paths %v)", tc.max, tc.window, many), shas(got), tc.want)
		}
	}
}

// TestChangeHistoryWindowMerges: with branches merged, the window is
// still the most recent commits as git lists them, however far back each
// branch reaches: History returns the commits of `git log -- paths` that
// `git rev-list -n window` holds, for every window.
func TestChangeHistoryWindowMerges(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.txt": "0", "s.txt": "0", "other.txt": "0"})
	r.Commit("root")
	for i := range 3 {
		r.Git("checkout", "-q", "-b", fmt.Sprint("side", i))
		r.WriteAll(map[string]string{"s.txt": fmt.Sprint("side ", i)})
		r.Commit(fmt.Sprint("side ", i))
		r.WriteAll(map[string]string{"other.txt": fmt.Sprint("side other ", i)})
		r.Commit(fmt.Sprint("side other ", i))
		r.Git("checkout", "-q", "main")
		r.WriteAll(map[string]string{"a.txt": fmt.Sprint("main ", i)})
		r.Commit(fmt.Sprint("main ", i))
		r.Git("merge", "-q", "--no-ff", "-m", fmt.Sprint("merge ", i), fmt.Sprint("side", i))
		r.Commits++
		r.WriteAll(map[string]string{"other.txt": fmt.Sprint("main other ", i)})
		r.Commit(fmt.Sprint("main other ", i))
	}
	r.WriteAll(map[string]string{"a.txt": "change"})
	ch := r.selectWorktree()
	paths := []string{"a.txt", "s.txt"}
	touched := strings.Fields(r.Git(append([]string{"log", "--no-merges", "--format=%H", "HEAD", "--"}, paths...)...))
	total := len(strings.Fields(r.Git("rev-list", "HEAD")))
	for window := 1; window <= total+1; window++ {
		in := map[string]bool{}
		for _, id := range strings.Fields(r.Git("rev-list", fmt.Sprint("-n", window), "HEAD")) {
			in[id] = true
		}
		var want []string
		for _, id := range touched {
			if in[id] {
				want = append(want, id)
			}
		}
		for _, many := range []bool{false, true} {
			got, err := ch.History(t.Context(), manyPaths(paths, many), 100, window)
			if err != nil {
				t.Fatalf("History: %v", err)
			}
			checkEqual(t, fmt.Sprintf("History(window %d, many paths %v)", window, many), shas(got), want)
		}
	}
}

// TestChangeHistoryUnborn: before the first commit there is no history.
func TestChangeHistoryUnborn(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.txt": "1\n"})
	got, err := r.selectWorktree().History(t.Context(), []string{"a.txt"}, 100, 0)
	if err != nil {
		t.Fatalf("History: %v", err)
	}
	if len(got) != 0 {
		t.Errorf("History on an unborn branch = %+v, want none", got)
	}
}

func shas(commits []gitctx.HistoryCommit) []string {
	var out []string
	for _, c := range commits {
		out = append(out, c.SHA)
	}
	return out
}

// TestChangeGrep: Grep maps each word to the files of the new side that
// contain it as a whole word.
func TestChangeGrep(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{
		"a.go":          "package a\n\nfunc Alpha() {}\n\nvar gone = Alpha\n",
		"b.go":          "package a\n\nfunc b() { Alpha(); Alpha() }\n",
		"c.txt":         "Alphabet soup, notAlpha either\n",
		"deep/dir/d.md": "see Alpha\n",
		"old.txt":       "Omega\n",
		"odd:name.txt":  "Alpha\n",
	})
	r.Commit("first")
	r.WriteAll(map[string]string{"e.go": "package a\n\nvar Gamma = 1\n", "old.txt": "nothing\n"})
	r.Commit("second")
	r.WriteAll(map[string]string{"b.go": "package a\n\nfunc b() { Delta() }\n"}) // uncommitted

	ch := r.selectRange("HEAD~1..HEAD")
	got, err := grepWords(t.Context(), ch, []string{"Alpha", "Gamma", "Omega", "Delta", "Nope"})
	if err != nil {
		t.Fatalf("Grep: %v", err)
	}
	checkEqual(t, "Grep of a range", sortValues(got), map[string][]string{
		"Alpha": {"a.go", "b.go", "deep/dir/d.md", "odd:name.txt"},
		"Gamma": {"e.go"},
	})

	got, err = grepWords(t.Context(), ch, []string{"Nope", "Omega"})
	if err != nil {
		t.Fatalf("Grep with no match: %v", err)
	}
	if got == nil || len(got) != 0 {
		t.Errorf("Grep with no match = %#v, want an empty map", got)
	}

	wt := r.selectWorktree()
	got, err = grepWords(t.Context(), wt, []string{"Alpha", "Delta"})
	if err != nil {
		t.Fatalf("Grep: %v", err)
	}
	checkEqual(t, "Grep of the work tree", sortValues(got), map[string][]string{
		"Alpha": {"a.go", "deep/dir/d.md", "odd:name.txt"},
		"Delta": {"b.go"},
	})
}

// TestChangeGrepWorktreeUntracked: the new side of a work-tree change
// holds its untracked files (Tree lists them), so Grep searches them too.
func TestChangeGrepWorktreeUntracked(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.go": "package a\n\nfunc Alpha() {}\n"})
	r.Commit("first")
	r.WriteAll(map[string]string{"a.go": "package a\n\nfunc Alpha() int { return 1 }\n", "new.go": "package a\n\nvar x = Alpha()\n"})
	ch := r.selectWorktree()
	tree, err := ch.Tree(t.Context())
	if err != nil {
		t.Fatalf("Tree: %v", err)
	}
	var paths []string
	for _, e := range tree {
		paths = append(paths, e.Path)
	}
	checkEqual(t, "Tree", sorted(paths), []string{"a.go", "new.go"})
	got, err := grepWords(t.Context(), ch, []string{"Alpha"})
	if err != nil {
		t.Fatalf("Grep: %v", err)
	}
	checkEqual(t, "Grep", sortValues(got), map[string][]string{"Alpha": {"a.go", "new.go"}})
}

// TestChangeGrepNoWords: nothing to look for finds nothing.
func TestChangeGrepNoWords(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.txt": "x\n"})
	r.Commit("first")
	got, err := grepWords(t.Context(), r.selectRange("HEAD"), nil)
	if err != nil || len(got) != 0 {
		t.Errorf("Grep(nil) = %v, %v; want nothing", got, err)
	}
}

func sortValues(m map[string][]string) map[string][]string {
	out := map[string][]string{}
	for k, v := range m {
		out[k] = sorted(v)
	}
	return out
}

// grepWords collects what Grep finds as word → the files that name it.
func grepWords(ctx context.Context, ch *gitctx.Change, words []string) (map[string][]string, error) {
	want := map[string]bool{}
	for _, w := range words {
		want[w] = true
	}
	found := map[string][]string{}
	err := ch.Grep(ctx, words, func(p string, line []byte) {
		eachWord(line, func(b []byte) {
			if w := string(b); want[w] && !slices.Contains(found[w], p) {
				found[w] = append(found[w], p)
			}
		})
	})
	return found, err
}
