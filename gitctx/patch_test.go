package gitctx

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// numbered is n lines "line 1" to "line n", each with its newline.
func numbered(n int, edit map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := edit[i]; ok {
			b.WriteString(s)
			continue
		}
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestPatchesHunks(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", numbered(20, nil))
	r.Write("tail.txt", "no newline at the end")
	r.Commit("first")
	r.Write("a.txt", numbered(20, map[int]string{5: "five\n", 17: "", 18: "eighteen\nnineteen-and-a-half\n"}))
	r.Write("tail.txt", "no newline at the end, still")
	r.Commit("second")

	c, err := r.open().SelectRange(context.Background(), "HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	patches := allPatches(t, c, 0)
	a := patches["a.txt"]
	if a == nil {
		t.Fatalf("no patch for a.txt among %v", patches)
	}
	// Strip the lines to compare the numbers, then compare the lines.
	var heads []Hunk
	for _, h := range a.Hunks {
		heads = append(heads, Hunk{OldStart: h.OldStart, OldLines: h.OldLines, NewStart: h.NewStart, NewLines: h.NewLines, Section: h.Section})
	}
	checkEqual(t, "a.txt hunks", heads, []Hunk{
		{OldStart: 2, OldLines: 7, NewStart: 2, NewLines: 7, Section: "line 1"},
		{OldStart: 14, OldLines: 7, NewStart: 14, NewLines: 7, Section: "line 13"},
	})
	checkEqual(t, "a.txt lines", lineTexts(a), []string{
		" line 2", " line 3", " line 4", "-line 5", "+five", " line 6", " line 7", " line 8",
		" line 14", " line 15", " line 16", "-line 17", "-line 18", "+eighteen", "+nineteen-and-a-half", " line 19", " line 20",
	})
	if a.Added != 3 || a.Deleted != 3 || a.Binary || a.Oversize || a.Size == 0 {
		t.Errorf("a.txt: Added %d, Deleted %d, Binary %v, Oversize %v, Size %d; want 3, 3, false, false, > 0",
			a.Added, a.Deleted, a.Binary, a.Oversize, a.Size)
	}

	tail := patches["tail.txt"]
	if tail == nil || len(tail.Hunks) != 1 {
		t.Fatalf("tail.txt patch = %+v, want one hunk", tail)
	}
	checkEqual(t, "tail.txt lines", tail.Hunks[0].Lines, []Line{
		{Op: '-', Text: "no newline at the end", NoNewline: true},
		{Op: '+', Text: "no newline at the end, still", NoNewline: true},
	})
}

func TestPatchesBinaryAndSubmodule(t *testing.T) {
	r := newTestRepo(t)
	r.Write("image.bin", "\x00\x01\x02binary\x00")
	sub1, sub2 := strings.Repeat("1", 40), strings.Repeat("2", 40)
	// A gitlink with no checkout: stage by hand, as `git add -A` would
	// drop the entry whose directory is missing.
	r.Git("update-index", "--add", "--cacheinfo", "160000,"+sub1+",vendor/lib")
	r.Git("add", "image.bin")
	r.Git("commit", "-q", "-m", "first")
	r.Write("image.bin", "\x00\x01\x02binary, changed\x00")
	r.Git("update-index", "--cacheinfo", "160000,"+sub2+",vendor/lib")
	r.Git("add", "image.bin")
	r.Git("commit", "-q", "-m", "second")

	c, err := r.open().SelectRange(context.Background(), "HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	checkEqual(t, "Files", summarize(c.Files), []fileSum{
		{"image.bin", "", Modified, ModeRegular, ModeRegular},
		{"vendor/lib", "", Modified, ModeSubmodule, ModeSubmodule},
	})
	patches := allPatches(t, c, 0)
	if p := patches["image.bin"]; p == nil || !p.Binary || len(p.Hunks) != 0 {
		t.Errorf("image.bin patch = %+v, want Binary and no hunks", p)
	}
	checkEqual(t, "submodule patch", lineTexts(patches["vendor/lib"]), []string{
		"-Subproject commit " + sub1, "+Subproject commit " + sub2,
	})
	sub := byPath(t, c, "vendor/lib")
	if !sub.IsSubmodule() {
		t.Errorf("vendor/lib: IsSubmodule() = false")
	}
	for side, id := range map[Side]string{Old: sub1, New: sub2} {
		size, data, err := c.Read(context.Background(), sub, side, 10)
		want := "Subproject commit " + id + "\n"
		if err != nil || string(data) != want || size != int64(len(want)) {
			t.Errorf("Read(vendor/lib, %s) = %d, %q, %v; want the pointer line", sideName(side), size, data, err)
		}
	}
}

func TestPatchesOversizeAndWant(t *testing.T) {
	r := newTestRepo(t)
	r.Write("small-before.txt", "a\n")
	r.Write("skipped.txt", "a\n")
	r.Write("small-after.txt", "a\n")
	r.Commit("first")
	r.Write("big.txt", numbered(1000, nil))
	r.Write("small-before.txt", "b\n")
	r.Write("skipped.txt", "b\n")
	r.Write("small-after.txt", "b\n")
	r.Commit("second")

	c, err := r.open().SelectRange(context.Background(), "HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	var order []string
	got := map[string]*Patch{}
	want := func(f *File) bool { return f.Path != "skipped.txt" }
	err = c.Patches(context.Background(), want, 1000, func(f *File, p *Patch) error {
		order = append(order, f.Path)
		got[f.Path] = p
		return nil
	})
	if err != nil {
		t.Fatalf("Patches: %v", err)
	}
	checkEqual(t, "files delivered", order, []string{"big.txt", "small-after.txt", "small-before.txt"})
	big := got["big.txt"]
	if big == nil || !big.Oversize || big.Hunks != nil || big.Added != 1000 || big.Deleted != 0 || big.Size <= 1000 {
		t.Errorf("big.txt patch = Oversize %v, %d hunks, Added %d, Deleted %d, Size %d; want Oversize, no hunks, 1000, 0, > 1000",
			big.Oversize, len(big.Hunks), big.Added, big.Deleted, big.Size)
	}
	for _, name := range []string{"small-before.txt", "small-after.txt"} {
		if p := got[name]; p == nil || p.Oversize || !equalLines(lineTexts(p), []string{"-a", "+b"}) {
			t.Errorf("%s patch = %+v, want a parsed one-line change", name, p)
		}
	}

	stop := errors.New("stop here")
	calls := 0
	err = c.Patches(context.Background(), want, 0, func(*File, *Patch) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("Patches with fn failing = %v after %d calls, want %v after 1", err, calls, stop)
	}
}

func equalLines(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

// TestPatchesOversizeCounts checks that an oversize patch counts its added
// and deleted lines as a parsed one does, including content lines that
// look like the "+++ " and "--- " file headers.
func TestPatchesOversizeCounts(t *testing.T) {
	r := newTestRepo(t)
	var before, after strings.Builder
	for i := range 50 {
		fmt.Fprintf(&before, "-- old comment %d\n", i) // deleted as "--- old comment"
		fmt.Fprintf(&after, "++ new counter %d\n", i)  // added as "+++ new counter"
	}
	r.Write("c.txt", before.String())
	r.Commit("first")
	r.Write("c.txt", after.String())
	r.Commit("second")
	c, err := r.open().SelectRange(context.Background(), "HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	parsed, over := allPatches(t, c, 0)["c.txt"], allPatches(t, c, 100)["c.txt"]
	if parsed.Added != 50 || parsed.Deleted != 50 {
		t.Fatalf("parsed patch: Added %d, Deleted %d; want 50, 50", parsed.Added, parsed.Deleted)
	}
	if !over.Oversize || over.Added != parsed.Added || over.Deleted != parsed.Deleted {
		t.Errorf("oversize patch: Oversize %v, Added %d, Deleted %d; want true, %d, %d (content lines starting with \"++ \"/\"-- \" are not file headers)",
			over.Oversize, over.Added, over.Deleted, parsed.Added, parsed.Deleted)
	}
}

// TestPatchesTypeChange checks the patch of a file that became a symbolic
// link. git prints a type change as two patches under the same "diff --git"
// header, the old file's deletion and the link's creation; both belong to
// the one type_changed file.
func TestPatchesTypeChange(t *testing.T) {
	r := newTestRepo(t)
	r.Write("target.txt", "target\n")
	r.Write("kind.txt", "a regular file\n")
	r.Write("z-after.txt", "a\n")
	r.Commit("first")
	r.symlink("target.txt", "kind.txt")
	r.Write("z-after.txt", "b\n")
	r.Commit("second")
	c, err := r.open().SelectRange(context.Background(), "HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	checkEqual(t, "Files", summarize(c.Files), []fileSum{
		{"kind.txt", "", TypeChanged, ModeRegular, ModeSymlink},
		{"z-after.txt", "", Modified, ModeRegular, ModeRegular},
	})
	patches := allPatches(t, c, 0)
	checkEqual(t, "z-after.txt patch", lineTexts(patches["z-after.txt"]), []string{"-a", "+b"})
	p := patches["kind.txt"]
	if p == nil {
		t.Fatal("no patch for kind.txt")
	}
	if p.Added != 1 || p.Deleted != 1 || !equalLines(lineTexts(p), []string{"-a regular file", "+target.txt"}) {
		t.Errorf("kind.txt patch: Added %d, Deleted %d, lines %q; want 1, 1, [-a regular file +target.txt] (the link's half of git's patch is dropped)",
			p.Added, p.Deleted, lineTexts(p))
	}
}

// TestLineReaderReadsAsBufio holds lineReader to bufio.Reader, which
// go-gitdiff would use in its place.
func TestLineReaderReadsAsBufio(t *testing.T) {
	for _, in := range []string{"", "a", "a\n", "a\nb", "\n\n", "@@ -1 +1 @@\n-x\n+y\n\\ No newline at end of file"} {
		want := bufio.NewReader(strings.NewReader(in))
		got := &lineReader{[]byte(in)}
		for i := 0; ; i++ {
			ws, werr := want.ReadString('\n')
			gs, gerr := got.ReadString('\n')
			if gs != ws || gerr != werr {
				t.Fatalf("%q, read %d: got %q, %v; bufio reads %q, %v", in, i, gs, gerr, ws, werr)
			}
			if werr != nil {
				break
			}
		}
	}
}
