package gitctx

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestRangePatchesFromListing: a range's patches come from the git diff
// that listed its files (renames, a type change, odd names, binary), as a
// git diff -p of their own gives them; a second read runs one of its own.
func TestRangePatchesFromListing(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{
		"old-name.txt":  strings.Repeat("a line that moves with the file\n", 20),
		"mod.txt":       "one\ntwo\nthree\n",
		"del.txt":       "gone soon\n",
		"kind.txt":      "a file that becomes a link\n",
		"tab\tname.txt": "x\n",
		"bin.dat":       "\x00\x01binary",
	})
	r.Commit("first")
	if err := os.Rename(filepath.Join(r.Dir, "old-name.txt"), filepath.Join(r.Dir, "new-name.txt")); err != nil {
		t.Fatal(err)
	}
	r.WriteAll(map[string]string{"mod.txt": "one\n2\nthree\n", "tab\tname.txt": "y\n", "bin.dat": "\x00\x02binary", "ünï.txt": "new\n"})
	r.remove("del.txt")
	r.symlink("mod.txt", "kind.txt")
	r.Commit("second")

	repo := r.open()
	c, err := repo.SelectRange(context.Background(), "HEAD~1..HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	defer c.Close()
	listed, _, err := repo.rawDiff(context.Background(), nil, c.Source.Base, c.Source.Head)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(summarize(c.Files), summarize(listed)) {
		t.Errorf("files: %+v, git diff --raw: %+v", summarize(c.Files), summarize(listed))
	}
	if c.pending == nil {
		t.Fatal("no patches pending after the listing")
	}
	first := allPatches(t, c, 0)
	if c.pending != nil {
		t.Error("the pending patches were not read")
	}
	again := allPatches(t, c, 0) // a git diff -p of its own
	if len(first) != len(c.Files) || !reflect.DeepEqual(first, again) {
		t.Errorf("patches from the listing: %d files, %v; from git diff -p: %v", len(first), first, again)
	}
	if p := first["mod.txt"]; p == nil || !reflect.DeepEqual(lineTexts(p), []string{" one", "-two", "+2", " three"}) {
		t.Errorf("mod.txt patch: %+v", p)
	}
}

// TestRangeClosedUnread: a change closed before its patches are read stops
// git (here blocked on a full pipe), and a range with no file changed
// leaves nothing pending.
func TestRangeClosedUnread(t *testing.T) {
	r := newTestRepo(t)
	for i := range 40 {
		r.Write(fmt.Sprintf("f%02d.txt", i), strings.Repeat(fmt.Sprintf("line %d of a long file\n", i), 400))
	}
	r.Commit("first")
	for i := range 40 {
		r.Write(fmt.Sprintf("f%02d.txt", i), strings.Repeat(fmt.Sprintf("LINE %d of a long file\n", i), 400))
	}
	r.Commit("second")
	repo := r.open()
	c, err := repo.SelectRange(context.Background(), "HEAD~1..HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	if len(c.Files) != 40 || c.pending == nil {
		t.Fatalf("%d files, pending %v", len(c.Files), c.pending != nil)
	}
	c.Close() // returns only once git has ended
	if c.pending != nil {
		t.Error("still pending after Close")
	}
	same, err := repo.SelectRange(context.Background(), "HEAD..HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	if len(same.Files) != 0 || same.pending != nil {
		t.Errorf("an empty range: %d files, pending %v", len(same.Files), same.pending != nil)
	}
}

// TestReadRawListing: the listing ends at its empty field, or at the end
// of the output; what follows is left to read.
func TestReadRawListing(t *testing.T) {
	for _, tc := range []struct {
		out, raw, rest string
		fails          bool
	}{
		{out: "", raw: "", rest: ""},
		{out: ":100644 100644 a b M\x00f.txt\x00\x00diff --git a/f.txt b/f.txt\n", raw: ":100644 100644 a b M\x00f.txt\x00", rest: "diff --git a/f.txt b/f.txt\n"},
		{out: ":100644 100644 a b R100\x00old\x00new\x00\x00", raw: ":100644 100644 a b R100\x00old\x00new\x00", rest: ""},
		{out: ":100644 100644 a b M\x00cut sh", fails: true},
	} {
		rd := bufio.NewReader(strings.NewReader(tc.out))
		raw, err := readRawListing(rd)
		if (err != nil) != tc.fails {
			t.Errorf("%q: error %v, want failure %v", tc.out, err, tc.fails)
			continue
		}
		rest, _ := io.ReadAll(rd)
		if !tc.fails && (string(raw) != tc.raw || string(rest) != tc.rest) {
			t.Errorf("%q: listing %q, rest %q; want %q, %q", tc.out, raw, rest, tc.raw, tc.rest)
		}
	}
}
