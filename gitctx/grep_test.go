package gitctx

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadGrep: `git grep -z` lines are split at the first NUL into path
// and text, a tree's "rev:" prefix is dropped (a path may hold a colon of
// its own), and an over-long line is handed on cut to maxGrepLine with the
// lines after it intact.
func TestReadGrep(t *testing.T) {
	long := strings.Repeat("x", maxGrepLine+100_000)
	out := "HEAD:a.go\x00func Alpha() {}\n" +
		"HEAD:odd:name.txt\x00Alpha\n" +
		"HEAD:min.js\x00" + long + "\n" +
		"no separator\n" +
		"HEAD:b.go\x00Alpha()\n"
	type hit struct{ path, text string }
	var got []hit
	read := func(fromTree bool) {
		got = nil
		err := readGrep(strings.NewReader(out), fromTree, func(p string, text []byte) {
			got = append(got, hit{p, string(text)})
		})
		if err != nil {
			t.Fatalf("readGrep: %v", err)
		}
	}
	read(true)
	want := []hit{{"a.go", "func Alpha() {}"}, {"odd:name.txt", "Alpha"}, {"min.js", long[:maxGrepLine-len("HEAD:min.js\x00")]}, {"b.go", "Alpha()"}}
	if len(got) != len(want) {
		t.Fatalf("readGrep gave %d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].path != want[i].path || len(got[i].text) != len(want[i].text) || got[i].text != want[i].text {
			t.Errorf("line %d = %q (%d bytes), want %q (%d bytes)", i, got[i].path, len(got[i].text), want[i].path, len(want[i].text))
		}
	}
	read(false)
	if got[0].path != "HEAD:a.go" {
		t.Errorf("work-tree path = %q, want it as git printed it", got[0].path)
	}
}

// TestReadGrepSamePath: consecutive matches in one file are handed on with
// its path, and a path seen earlier is right again after another.
func TestReadGrepSamePath(t *testing.T) {
	out := "HEAD:a.go\x00x\nHEAD:a.go\x00y\nHEAD:b:c.go\x00z\nHEAD:a.go\x00w\nHEAD:a.go\x00v\n"
	for _, fromTree := range []bool{true, false} {
		var got []string
		err := readGrep(strings.NewReader(out), fromTree, func(p string, text []byte) { got = append(got, p+"="+string(text)) })
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"a.go=x", "a.go=y", "b:c.go=z", "a.go=w", "a.go=v"}
		if !fromTree {
			want = []string{"HEAD:a.go=x", "HEAD:a.go=y", "HEAD:b:c.go=z", "HEAD:a.go=w", "HEAD:a.go=v"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("fromTree %t: %q, want %q", fromTree, got, want)
		}
	}
}

// grepFiles runs Grep for word on a range of r and lists the files named.
func grepFiles(t *testing.T, r *testRepo, spec, word string) []string {
	t.Helper()
	ch := closeChange(t, mustSelect(t)(r.open().SelectRange(t.Context(), spec)))
	var got []string
	err := ch.Grep(t.Context(), []string{word}, func(p string, _ []byte) {
		if !slices.Contains(got, p) {
			got = append(got, p)
		}
	})
	if err != nil {
		t.Fatalf("Grep: %v", err)
	}
	slices.Sort(got)
	return got
}

// TestGrepRangeWorktreeStandsIn: a range is searched as its head commit
// has its files, whether the work tree stands in for the commit (it does
// when few files differ) or not: a file edited, added, deleted or left
// untracked in the work tree, or a later commit checked out, changes
// nothing.
func TestGrepRangeWorktreeStandsIn(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.go": "FooBar()\n", "b.go": "FooBar()\n", "d.go": "FooBar()\n", "e.go": "nothing\n"})
	r.Commit("one")
	r.Write("e.go", "still nothing\n")
	r.Commit("two")
	want := []string{"a.go", "b.go", "d.go"}

	if got := grepFiles(t, r, "HEAD~1..HEAD", "FooBar"); !slices.Equal(got, want) {
		t.Errorf("clean work tree: %q, want %q", got, want)
	}
	r.Write("a.go", "gone\n")     // edited
	r.remove("d.go")              // deleted
	r.Write("c.go", "FooBar()\n") // untracked
	r.Write("e.go", "FooBar()\n") // edited to name it
	r.Git("add", "e.go")          // and staged
	r.Write("f.go", "FooBar()\n") // new and staged
	r.Git("add", "f.go")
	if got := grepFiles(t, r, "HEAD~1..HEAD", "FooBar"); !slices.Equal(got, want) {
		t.Errorf("edited work tree: %q, want %q", got, want)
	}
	r.Git("stash", "-u")
	r.Write("b.go", "not any more\n")
	r.Commit("three") // the range's head is no longer HEAD
	if got := grepFiles(t, r, "HEAD~2..HEAD~1", "FooBar"); !slices.Equal(got, want) {
		t.Errorf("range before HEAD: %q, want %q", got, want)
	}
	if got := grepFiles(t, r, "HEAD~1..HEAD", "FooBar"); !slices.Equal(got, []string{"a.go", "d.go"}) {
		t.Errorf("range to HEAD after a commit: %q, want [a.go d.go]", got)
	}
}

// TestGrepRangeSparseCheckout: a sparse checkout's work tree leaves files
// out, so the commit itself is searched.
func TestGrepRangeSparseCheckout(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"in/a.go": "FooBar()\n", "out/b.go": "FooBar()\n"})
	r.Commit("one")
	r.Write("in/a.go", "FooBar()\nmore\n")
	r.Commit("two")
	r.Git("sparse-checkout", "set", "in")
	if _, err := os.Stat(filepath.Join(r.Dir, "out", "b.go")); err == nil {
		t.Fatal("the sparse checkout left out/b.go in the work tree")
	}
	if got := grepFiles(t, r, "HEAD~1..HEAD", "FooBar"); !slices.Equal(got, []string{"in/a.go", "out/b.go"}) {
		t.Errorf("sparse checkout: %q, want [in/a.go out/b.go]", got)
	}
}

// TestStandIn: which files keep the work tree from standing in.
func TestStandIn(t *testing.T) {
	r := newTestRepo(t)
	for i := range maxDiffering + 1 {
		r.Write(fmt.Sprintf("f%03d.txt", i), "x\n")
	}
	r.Commit("one")
	repo := r.open()
	head := r.Rev("HEAD")
	if differ, ok := repo.worktreeDiffers(t.Context(), head); !ok || len(differ) != 0 {
		t.Errorf("clean: %v, %v; want none, true", differ, ok)
	}
	r.Write("f000.txt", "y\n")
	if differ, ok := repo.worktreeDiffers(t.Context(), head); !ok || !differ["f000.txt"] || len(differ) != 1 {
		t.Errorf("one edited: %v, %v; want [f000.txt], true", differ, ok)
	}
	for i := range maxDiffering + 1 {
		r.Write(fmt.Sprintf("f%03d.txt", i), "z\n")
	}
	if _, ok := repo.worktreeDiffers(t.Context(), head); ok {
		t.Errorf("%d edited: the work tree stands in", maxDiffering+1)
	}
}

// TestGrepIn: a search limited to Go files finds them at any depth, and
// only them, whichever side it searches: a range with the work tree
// standing in (a Go file that differs is read from the commit, even with
// a name that would be a wildcard), a range in a sparse checkout, the work
// tree and the index.
func TestGrepIn(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.go": "FooBar()\n", "doc.txt": "FooBar()\n", "deep/x/y.go": "FooBar()\n",
		"we[ir]d*.go": "FooBar()\n", "notes.go.txt": "FooBar()\n", "other.go": "nothing\n"})
	r.Commit("one")
	r.Write("other.go", "still nothing\n")
	r.Commit("two")
	r.Write("we[ir]d*.go", "gone\n") // differs from the head commit
	r.Write("doc.txt", "gone\n")
	search := func(ch *Change) (words, perl []string) {
		t.Helper()
		collect := func(into *[]string) func(string, []byte) {
			return func(p string, _ []byte) {
				if !slices.Contains(*into, p) {
					*into = append(*into, p)
				}
			}
		}
		if err := ch.GrepIn(t.Context(), []string{".go"}, []string{"FooBar"}, collect(&words)); err != nil {
			t.Fatalf("GrepIn: %v", err)
		}
		if err := ch.GrepPerlIn(t.Context(), []string{".go"}, []string{`FooBar\(\)`}, collect(&perl)); err != nil {
			t.Fatalf("GrepPerlIn: %v", err)
		}
		slices.Sort(words)
		slices.Sort(perl)
		return words, perl
	}
	check := func(name string, ch *Change, want []string) {
		t.Helper()
		words, perl := search(ch)
		if !slices.Equal(words, want) || !slices.Equal(perl, want) {
			t.Errorf("%s: GrepIn %q, GrepPerlIn %q; want %q", name, words, perl, want)
		}
	}
	inCommit := []string{"a.go", "deep/x/y.go", "we[ir]d*.go"}
	check("range, work tree standing in", closeChange(t, mustSelect(t)(r.open().SelectRange(t.Context(), "HEAD~1..HEAD"))), inCommit)

	r.Write("u.go", "FooBar()\n") // untracked
	r.Write("u.txt", "FooBar()\n")
	check("work tree", closeChange(t, mustSelect(t)(r.open().SelectWorktree(t.Context()))), []string{"a.go", "deep/x/y.go", "u.go"})
	r.Git("add", "u.go", "u.txt")
	check("index", closeChange(t, mustSelect(t)(r.open().SelectStaged(t.Context()))), []string{"a.go", "deep/x/y.go", "u.go", "we[ir]d*.go"})

	r.Git("reset", "-q")
	r.Git("stash", "-u")
	r.Git("sparse-checkout", "set", "deep")
	check("range, sparse checkout", closeChange(t, mustSelect(t)(r.open().SelectRange(t.Context(), "HEAD~1..HEAD"))), inCommit)
}

// TestGrepInSuffixes: with several suffixes a search reads the files
// ending in any of them, in any case, in the work tree and, for a file
// that differs from the head commit, in the commit.
func TestGrepInSuffixes(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.go": "FooBar\n", "b/doc.md": "FooBar\n", "c.json": "FooBar\n", "d.md": "FooBar\n", "E.MD": "FooBar\n", "F.GO": "FooBar\n"})
	r.Commit("one")
	r.Write("d.md", "gone\n") // differs from the head commit
	r.Write("E.MD", "gone\n")
	ch := closeChange(t, mustSelect(t)(r.open().SelectRange(t.Context(), "HEAD~0")))
	var got []string
	err := ch.GrepIn(t.Context(), []string{".go", ".md"}, []string{"FooBar"}, func(p string, _ []byte) { got = append(got, p) })
	if err != nil {
		t.Fatalf("GrepIn: %v", err)
	}
	slices.Sort(got)
	if want := []string{"E.MD", "F.GO", "a.go", "b/doc.md", "d.md"}; !slices.Equal(got, want) {
		t.Errorf("GrepIn found %q, want %q", got, want)
	}
}

// TestGrepPassesOverMissingBlobs: a blob missing from the repository (a
// clone that lacks it) is passed over by git grep, which searches the other
// files: with a match elsewhere or none at all, the search is not an
// error. Any other failure still is.
func TestGrepPassesOverMissingBlobs(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.go": "FooBar()\n", "big.txt": "FooBar and more\n"})
	r.Commit("one")
	r.Write("a.go", "FooBar()\nBaz()\n")
	r.Commit("two")
	blob := r.Rev("HEAD:big.txt")
	if err := os.Remove(filepath.Join(r.Dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	r.remove("big.txt") // the work tree differs: the commit's blob is searched
	ch := closeChange(t, mustSelect(t)(r.open().SelectRange(t.Context(), "HEAD~1..HEAD")))
	for word, want := range map[string][]string{"FooBar": {"a.go"}, "Nowhere": nil} {
		var got []string
		if err := ch.Grep(t.Context(), []string{word}, func(p string, _ []byte) { got = append(got, p) }); err != nil {
			t.Errorf("Grep(%s): %v", word, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("Grep(%s) = %q, want %q", word, got, want)
		}
	}
	if err := ch.GrepPerl(t.Context(), []string{"(unclosed"}, func(string, []byte) {}); err == nil {
		t.Error("GrepPerl with a bad pattern: no error")
	}
}

// TestGrepPatternsOffCommandLine: the words and patterns searched for,
// text of the change that may be a password the pack redacts, reach git
// on its standard input and never on its command line, which any user of
// the machine can read, whichever side is searched; git still finds them.
// GIT_TRACE logs each git command's arguments.
func TestGrepPatternsOffCommandLine(t *testing.T) {
	const secret = "Marigold84zz"
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"app/db.py": "password = \"" + secret + "\"\n", "app/other.py": "x = 1\n", "b.txt": secret + "\n"})
	r.Commit("one")
	r.Write("app/other.py", "x = 2\n")
	r.Commit("two")
	r.Write("b.txt", "gone\n") // differs from the head commit: read from it
	trace := filepath.Join(t.TempDir(), "trace")
	t.Setenv("GIT_TRACE", trace)
	search := func(name string, ch *Change, want []string) {
		t.Helper()
		for kind, grep := range map[string]func(func(string, []byte)) error{
			"Grep": func(m func(string, []byte)) error { return ch.Grep(t.Context(), []string{secret}, m) },
			"GrepIn": func(m func(string, []byte)) error {
				return ch.GrepIn(t.Context(), []string{".py"}, []string{secret}, m)
			},
			"GrepPerl": func(m func(string, []byte)) error { return ch.GrepPerl(t.Context(), []string{`\b` + secret + `\b`}, m) },
			"GrepPerlIn": func(m func(string, []byte)) error {
				return ch.GrepPerlIn(t.Context(), []string{".py"}, []string{secret}, m)
			},
		} {
			var got []string
			if err := grep(func(p string, _ []byte) { got = append(got, p) }); err != nil {
				t.Fatalf("%s, %s: %v", name, kind, err)
			}
			slices.Sort(got)
			want := want
			if strings.HasSuffix(kind, "In") {
				want = slices.DeleteFunc(slices.Clone(want), func(p string) bool { return !strings.HasSuffix(p, ".py") })
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s, %s found %q, want %q", name, kind, got, want)
			}
		}
	}
	search("range, work tree standing in", closeChange(t, mustSelect(t)(r.open().SelectRange(t.Context(), "HEAD~1..HEAD"))), []string{"app/db.py", "b.txt"})
	search("work tree", closeChange(t, mustSelect(t)(r.open().SelectWorktree(t.Context()))), []string{"app/db.py"})
	search("index", closeChange(t, mustSelect(t)(r.open().SelectStaged(t.Context()))), []string{"app/db.py", "b.txt"})
	r.Git("stash")
	r.Git("sparse-checkout", "set", "app")
	search("range, sparse checkout", closeChange(t, mustSelect(t)(r.open().SelectRange(t.Context(), "HEAD~1..HEAD"))), []string{"app/db.py", "b.txt"})

	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	greps := 0
	for line := range strings.Lines(string(data)) {
		if strings.Contains(line, " grep ") {
			greps++
		}
		if strings.Contains(line, "Marigold") {
			t.Errorf("a git command line holds the text searched for: %s", line)
		}
	}
	if greps < 16 {
		t.Errorf("GIT_TRACE logged %d git greps, want 16 or more:\n%s", greps, data)
	}
}

// TestPatternLines: the patterns go to git one a line; one that git could
// not read back intact from a line of its own is passed over.
func TestPatternLines(t *testing.T) {
	for _, c := range []struct {
		patterns []string
		want     string
	}{
		{nil, ""},
		{[]string{"FooBar", `\b(?:a|b)\b`, "mid\rline"}, "FooBar\n\\b(?:a|b)\\b\nmid\rline\n"},
		{[]string{"", "two\nlines", "nul\x00", "crlf\r", "kept"}, "kept\n"},
		{[]string{"", "\n"}, ""},
	} {
		if got := patternLines(c.patterns); got != c.want {
			t.Errorf("patternLines(%q) = %q, want %q", c.patterns, got, c.want)
		}
	}
}
