package gitctx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx/gittest"
)

// TestHunkHistory: HunkHistory reads, for the commits given, the hunks
// each changed in the paths asked, without context lines, in the order
// given; the other files those commits touched are left out.
func TestHunkHistory(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.go", "package a\n\nfunc A() {\n\treturn\n}\n\nfunc B() {\n\treturn\n}\n")
	r.Write("other.go", "package a\n")
	first := r.Commit("first")
	r.Write("a.go", "package a\n\nfunc A() {\n\tprintln()\n\treturn\n}\n\nfunc B() {\n\treturn\n}\n")
	r.Write("other.go", "package a\n\nvar X = 1\n")
	inA := r.Commit("A prints")
	r.Write("a.go", "package a\n\nfunc A() {\n\tprintln()\n\treturn\n}\n\nfunc B() {\n}\n\nfunc C() {}\n")
	inB := r.Commit("B returns nothing, C")
	r.Write("other.go", "package a\n\nvar X = 2\n")
	r.Commit("the change")

	c, err := r.open().SelectRange(context.Background(), "HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	got, err := c.HunkHistory(context.Background(), []string{"a.go"}, []string{inB, inA, first})
	if err != nil {
		t.Fatalf("HunkHistory: %v", err)
	}
	want := []HunkCommit{
		{SHA: inB, Hunks: []PastHunk{
			{Path: "a.go", OldStart: 9, OldLines: 1, NewStart: 8, NewLines: 0, Section: "func B() {"},
			{Path: "a.go", OldStart: 10, OldLines: 0, NewStart: 10, NewLines: 2, Section: "func B() {",
				Heads: []string{"func C() {}"}},
		}, Changed: []byte("\treturn\n\nfunc C() {}\n")},
		{SHA: inA, Hunks: []PastHunk{{Path: "a.go", OldStart: 3, OldLines: 0, NewStart: 4, NewLines: 1, Section: "func A() {"}},
			Changed: []byte("\tprintln()\n")},
		{SHA: first, Hunks: []PastHunk{{Path: "a.go", OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 9,
			Heads: []string{"package a", "func A() {", "func B() {"}}},
			Changed: []byte("package a\n\nfunc A() {\n\treturn\n}\n\nfunc B() {\n\treturn\n}\n")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("HunkHistory:\n got %+v\nwant %+v", got, want)
	}
	if got, err := c.HunkHistory(context.Background(), []string{"a.go"}, nil); err != nil || got != nil {
		t.Errorf("HunkHistory of no commits = %+v, %v; want none", got, err)
	}
}

// TestParseHunkRecord: a hunk's lines are skipped by its counts, so a
// changed line that reads like a file or hunk header is not taken for one;
// files not asked for are left out, and definition lines are kept up to
// maxHeads, the changed text up to maxChangedText.
func TestParseHunkRecord(t *testing.T) {
	for _, tc := range []struct {
		name string
		rec  string
		want HunkCommit
	}{
		{"a changed line like headers",
			"c1\n\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -2 +2,3 @@ top\n-old\n+++ b/b.txt\n+@@ -1 +1 @@\n+new\n",
			HunkCommit{SHA: "c1", Hunks: []PastHunk{{Path: "a.txt", OldStart: 2, OldLines: 1, NewStart: 2, NewLines: 3, Section: "top",
				Heads: []string{"old", "new"}}}, Changed: []byte("old\n++ b/b.txt\n@@ -1 +1 @@\nnew\n")}},
		{"a file not asked for",
			"c2\n\ndiff --git a/z.txt b/z.txt\n--- a/z.txt\n+++ b/z.txt\n@@ -1 +1 @@\n-x\n+y\n",
			HunkCommit{SHA: "c2"}},
		{"a deleted file",
			"c3\n\ndiff --git a/a.txt b/a.txt\ndeleted file mode 100644\n--- a/a.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n",
			HunkCommit{SHA: "c3"}},
		{"no newline at the end",
			"c4\n\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n",
			HunkCommit{SHA: "c4", Hunks: []PastHunk{{Path: "a.txt", OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1,
				Heads: []string{"x", "y"}}}, Changed: []byte("x\ny\n")}},
		{"changed text past its bound, whole lines",
			"c5\n\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+" + strings.Repeat("x", maxChangedText-4) + "\n+abc\n",
			HunkCommit{SHA: "c5", Hunks: []PastHunk{{Path: "a.txt", OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 2,
				Heads: []string{strings.Repeat("x", maxChangedText-4), "abc"}}},
				Changed: []byte(strings.Repeat("x", maxChangedText-4) + "\n")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := parseHunkRecord([]byte(tc.rec), map[string]bool{"a.txt": true})
			if !ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parseHunkRecord = %+v, %v; want %+v", got, ok, tc.want)
			}
		})
	}
}

// FuzzParseHunkRecord: any bytes for a commit's record parse without a
// panic, into hunks of the asked file only, with at most maxChangedText
// bytes of changed lines kept.
func FuzzParseHunkRecord(f *testing.F) {
	f.Add([]byte("c1\n\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -2 +2,3 @@ top\n-old\n+++ b/b.txt\n+@@ -1 +1 @@\n+new\n"))
	f.Add([]byte("c4\n\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n"))
	f.Add([]byte("c\n+++ b/a.txt\n@@ -1,999999999999999999999 +1 @@\n"))
	f.Fuzz(func(t *testing.T, rec []byte) {
		hc, ok := parseHunkRecord(rec, map[string]bool{"a.txt": true})
		if !ok {
			return
		}
		for _, h := range hc.Hunks {
			if h.Path != "a.txt" {
				t.Errorf("hunk of %q, asked for a.txt only", h.Path)
			}
			if len(h.Heads) > maxHeads {
				t.Errorf("%d heads, want at most %d", len(h.Heads), maxHeads)
			}
		}
		if len(hc.Changed) > maxChangedText {
			t.Errorf("%d bytes of changed lines kept, want at most %d", len(hc.Changed), maxChangedText)
		}
	})
}

// bloblessClone clones origin (which must allow filters) without its
// blobs, as `git clone --filter=blob:none`, into a temporary directory.
func bloblessClone(t *testing.T, origin *testRepo, args ...string) *testRepo {
	t.Helper()
	dir := t.TempDir()
	origin.Git(append(append([]string{"clone", "-q", "--filter=blob:none"}, args...), "file://"+origin.Dir, dir)...)
	return &testRepo{&gittest.Repo{TB: t, Dir: dir, Date: gittest.DayDates}}
}

// TestHunkHistoryInPartialClone checks that in a blobless clone only the
// commits whose blobs are at hand are diffed, and that nothing is fetched
// for the others (git would fetch each commit's, one round trip apiece).
func TestHunkHistoryInPartialClone(t *testing.T) {
	origin := newTestRepo(t)
	origin.Git("config", "uploadpack.allowFilter", "true")
	origin.Write("a.go", "package a\n\nfunc A() {}\n")
	first := origin.Commit("first")
	origin.Write("a.go", "package a\n\nfunc A() { println() }\n")
	second := origin.Commit("second")
	origin.Write("a.go", "package a\n\nfunc A() { println(1) }\n")
	third := origin.Commit("third")
	origin.Write("other.go", "package a\n")
	origin.Commit("the change")

	clone := bloblessClone(t, origin)
	clone.Git("cat-file", "-p", third+"^:a.go") // the second commit's a.go, fetched
	missing := func() int { return strings.Count(clone.Git("rev-list", "--objects", "--missing=print", "--all"), "?") }
	before := missing()

	repo := clone.open()
	if !repo.partialClone(t.Context()) || origin.open().partialClone(t.Context()) {
		t.Fatalf("partialClone: the clone %t, its origin %t; want true, false", repo.partialClone(t.Context()), origin.open().partialClone(t.Context()))
	}
	c := closeChange(t, mustSelect(t)(repo.SelectRange(t.Context(), "HEAD")))
	got, err := c.HunkHistory(t.Context(), []string{"a.go"}, []string{third, second, first})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].SHA != third || len(got[0].Hunks) != 1 {
		t.Errorf("HunkHistory in a partial clone: %+v, want the third commit's hunk alone", got)
	}
	if after := missing(); after != before || before == 0 {
		t.Errorf("missing objects: %d before, %d after; want the same, one or more", before, after)
	}
}

// TestPrefetchTree checks that, in a blobless clone whose checkout is not
// a range's head, preparing a search fetches the head's missing blobs in
// one round trip, so that searching the head's files fetches nothing
// more; with the head checked out, nothing is fetched.
func TestPrefetchTree(t *testing.T) {
	origin := newTestRepo(t)
	origin.Git("config", "uploadpack.allowFilter", "true")
	origin.Git("config", "uploadpack.allowAnySHA1InWant", "true")
	origin.WriteAll(map[string]string{"a.go": "package a // FooBar\n", "b.go": "package a\n", "c.go": "package a\n"})
	origin.Commit("one")
	origin.WriteAll(map[string]string{"a.go": "package a // FooBar 2\n", "b.go": "package a // FooBar\n", "c.go": "package a // 2\n"})
	origin.Commit("two")
	origin.Write("d.go", "package a // FooBar\n")
	origin.Commit("three")

	clone := bloblessClone(t, origin, "--no-checkout")
	dir := clone.Dir
	clone.Git("checkout", "-q", "main~2")
	packs := func() int {
		entries, err := os.ReadDir(filepath.Join(dir, ".git", "objects", "pack"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".pack") {
				n++
			}
		}
		return n
	}
	missing := func(rev string) int {
		return strings.Count(clone.Git("rev-list", "--objects", "--missing=print", "--no-walk", rev+"^{tree}"), "?")
	}
	if missing("main") < 2 {
		t.Fatal("the clone holds main's blobs before the search: the test tests nothing")
	}
	before := packs()
	repo := clone.open()
	c := closeChange(t, mustSelect(t)(repo.SelectRange(t.Context(), "main~1..main")))
	c.PrepareSearch(t.Context(), nil)
	c.waitPrefetch(t.Context())
	// one fetch for the head's blobs; git's diff may fetch the one it
	// changes first, or find it fetched
	if got := packs() - before; got < 1 || got > 2 || missing("main") != 0 {
		t.Errorf("after preparing the search: %d fetches (want 1 or 2), %d of main's blobs missing (want none)", got, missing("main"))
	}
	before = packs()
	var found []string
	if err := c.Grep(t.Context(), []string{"FooBar"}, func(p string, _ []byte) { found = append(found, p) }); err != nil {
		t.Fatal(err)
	}
	slices.Sort(found)
	if got := packs(); got != before || !slices.Equal(found, []string{"a.go", "b.go", "d.go"}) {
		t.Errorf("Grep: %q and %d fetches, want a.go, b.go, d.go and none", found, got-before)
	}
	clone.Git("checkout", "-q", "main")
	before = packs()
	c = closeChange(t, mustSelect(t)(repo.SelectRange(t.Context(), "main~1..main")))
	c.PrepareSearch(t.Context(), nil)
	c.waitPrefetch(t.Context())
	if got := packs(); got != before {
		t.Errorf("with the head checked out, preparing the search fetched %d times", got-before)
	}
}

// TestPartialCloneOffline checks that a partial clone whose remote cannot be
// reached says so when the change's own contents are missing, rather than
// repeating git's first line about a repository the user never named.
func TestPartialCloneOffline(t *testing.T) {
	origin := newTestRepo(t)
	origin.Git("config", "uploadpack.allowFilter", "true")
	origin.Write("a.go", "package a\n")
	origin.Commit("first")
	origin.Write("a.go", "package a\n\nfunc A() {}\n")
	origin.Commit("the change")
	clone := bloblessClone(t, origin, "--no-checkout")
	if err := os.Rename(origin.Dir, origin.Dir+".gone"); err != nil {
		t.Fatal(err)
	}
	_, err := clone.open().SelectRange(t.Context(), "HEAD")
	var gerr *Error
	if !errors.As(err, &gerr) {
		t.Fatalf("select in an offline partial clone: %v, want a git error", err)
	}
	for _, want := range []string{"partial clone", "could not fetch", "does not appear to be a git repository", "full clone"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
