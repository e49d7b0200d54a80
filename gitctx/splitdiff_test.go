package gitctx

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// spreadRepo is a repository whose last commit changes enough files to be
// spread: edits, additions, deletions, renames (one edited), a mode change
// and a type change.
func spreadRepo(t *testing.T) *testRepo {
	r := newTestRepo(t)
	body := func(i, v int) string {
		var b strings.Builder
		for l := range 30 {
			fmt.Fprintf(&b, "file %d line %d version %d\n", i, l, v*(l%7))
		}
		return b.String()
	}
	for i := range minSplitFiles + 20 {
		r.Write(fmt.Sprintf("d%d/f%03d.txt", i%5, i), body(i, 1))
	}
	r.Write("moved.txt", body(999, 1))
	r.Write("moved-edited.txt", body(998, 1))
	r.Write("gone.txt", "gone\n")
	r.Write("run.sh", "#!/bin/sh\n")
	r.Write("becomes-link", "target\n")
	r.Commit("one")
	for i := range minSplitFiles + 20 {
		if i%9 != 0 {
			r.Write(fmt.Sprintf("d%d/f%03d.txt", i%5, i), body(i, 2))
		}
	}
	r.Git("rm", "-q", "moved.txt", "moved-edited.txt", "gone.txt")
	r.Write("d1/moved.txt", body(999, 1)) // in a folder another run prints
	r.Write("sub/moved-edited.txt", body(998, 1)+"one more line\n")
	r.Write("new.txt", "new\n")
	r.Git("update-index", "--chmod=+x", "run.sh")
	r.remove("becomes-link")
	r.symlink("run.sh", "becomes-link")
	r.Commit("two")
	return r
}

// TestSpreadPatches: patches printed by several runs are those one run
// prints, handed on in the order of the files, for any choice of files.
func TestSpreadPatches(t *testing.T) {
	r := spreadRepo(t)
	ctx := context.Background()
	type got struct {
		path  string
		patch *Patch
	}
	read := func(spread bool, want func(*File) bool) []got {
		c, err := r.open().SelectRange(ctx, "HEAD~1..HEAD")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		renamed := 0
		for _, f := range c.Files {
			if f.OldPath != "" {
				renamed++
			}
		}
		if renamed != 2 {
			t.Fatalf("%d files renamed, want 2", renamed)
		}
		if spread && !c.SpreadPatches(ctx) {
			t.Fatalf("%d files were not spread", len(c.Files))
		}
		var out []got
		err = c.Patches(ctx, want, -1, func(f *File, p *Patch) error {
			out = append(out, got{f.Path, p})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for name, want := range map[string]func(*File) bool{
		"all":       func(*File) bool { return true },
		"some":      func(f *File) bool { return strings.Contains(f.Path, "1") || f.OldPath != "" },
		"none":      func(*File) bool { return false },
		"the first": func(f *File) bool { return f.Path == "becomes-link" },
	} {
		one, spread := read(false, want), read(true, want)
		if !reflect.DeepEqual(one, spread) {
			t.Errorf("%s: spread patches differ:\none run: %d patches\nspread: %d patches", name, len(one), len(spread))
			for i := range min(len(one), len(spread)) {
				if !reflect.DeepEqual(one[i], spread[i]) {
					t.Errorf("first difference at %d: %s, %s", i, one[i].path, spread[i].path)
					break
				}
			}
		}
	}
}

// TestPatchGroups: renames and copies go together, the other files are
// shared evenly, and a change too small or too large is not spread.
func TestPatchGroups(t *testing.T) {
	unit := func(*File) int64 { return 1 }
	files := func(n int) []*File {
		var out []*File
		for i := range n {
			out = append(out, &File{Path: fmt.Sprintf("f%04d", i)})
		}
		return out
	}
	if g := patchGroups(files(minSplitFiles-1), unit); g != nil {
		t.Errorf("%d files spread", minSplitFiles-1)
	}
	if g := patchGroups(files(maxSplitFiles+1), unit); g != nil {
		t.Errorf("%d files spread", maxSplitFiles+1)
	}
	fs := files(minSplitFiles)
	fs[3].OldPath, fs[7].OldPath = "old3", "old7"
	g := patchGroups(fs, unit)
	if len(g) != splitWithoutPairs+1 {
		t.Fatalf("%d groups", len(g))
	}
	if pairs := g[len(g)-1]; !reflect.DeepEqual(pairs, []*File{fs[3], fs[7]}) {
		t.Errorf("the pairs' group: %v", pairs)
	}
	seen := map[*File]bool{}
	for _, grp := range g[:len(g)-1] {
		if len(grp) != (minSplitFiles-2)/splitWithoutPairs {
			t.Errorf("a group of %d files", len(grp))
		}
		for i, f := range grp {
			if seen[f] || f.OldPath != "" || i > 0 && f.Path <= grp[i-1].Path {
				t.Errorf("%s dealt twice, out of order, or a pair", f.Path)
			}
			seen[f] = true
		}
	}
	if len(seen) != minSplitFiles-2 {
		t.Errorf("%d files dealt, want %d", len(seen), minSplitFiles-2)
	}
}

// TestPatchGroupsByWeight: the runs are cut from the files in their
// order, where the weight so far is nearest half of it.
func TestPatchGroupsByWeight(t *testing.T) {
	var fs []*File
	weights := map[*File]int64{}
	for i := range minSplitFiles {
		f := &File{Path: fmt.Sprintf("f%04d", i)}
		fs = append(fs, f)
		weights[f] = 1
	}
	// 335 in all: the first four files weigh 162, five 163 (the cut), six 213
	weights[fs[0]], weights[fs[2]], weights[fs[5]] = 100, 60, 50
	g := patchGroups(fs, func(f *File) int64 { return weights[f] })
	if len(g) != splitWithoutPairs {
		t.Fatalf("%d groups", len(g))
	}
	if !slices.Equal(slices.Concat(g...), fs) {
		t.Error("the groups are not the files cut in their order")
	}
	if len(g[0]) != 5 {
		t.Errorf("the first group has %d files, want 5 (163 of 335)", len(g[0]))
	}
	for _, tc := range []struct {
		weights []int64
		n       int
		want    []int // the runs' lengths
	}{
		{[]int64{1, 1, 1, 1}, 2, []int{2, 2}},
		{[]int64{9, 1, 1, 1}, 2, []int{1, 3}},
		{[]int64{1, 1, 1, 9}, 2, []int{3, 1}},
		{[]int64{0, 0, 0, 0}, 2, []int{1, 3}},
		{[]int64{5, 5}, 2, []int{1, 1}},
		{[]int64{1, 1, 1, 1, 1, 1}, 3, []int{2, 2, 2}},
		{[]int64{100, 1, 1}, 3, []int{1, 1, 1}},
	} {
		var files []*File
		w := map[*File]int64{}
		for _, x := range tc.weights {
			f := &File{}
			files = append(files, f)
			w[f] = x
		}
		var got []int
		for _, run := range cutByWeight(files, func(f *File) int64 { return w[f] }, tc.n) {
			got = append(got, len(run))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v in %d runs: %v, want %v", tc.weights, tc.n, got, tc.want)
		}
	}
}

// TestSpreadPatchesStop: an error of fn stops every run and is returned;
// a change closed unread stops them too.
func TestSpreadPatchesStop(t *testing.T) {
	r := spreadRepo(t)
	ctx := context.Background()
	c, err := r.open().SelectRange(ctx, "HEAD~1..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if !c.SpreadPatches(ctx) {
		t.Fatal("not spread")
	}
	stop := errors.New("enough")
	n := 0
	err = c.Patches(ctx, func(*File) bool { return true }, -1, func(*File, *Patch) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 3 {
		t.Errorf("Patches = %v after %d patches, want %v after 3", err, n, stop)
	}
	c.Close()

	c, err = r.open().SelectRange(ctx, "HEAD~1..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if !c.SpreadPatches(ctx) || c.SpreadPatches(ctx) {
		t.Error("spread twice, or not at all")
	}
	if err := c.Close(); err != nil || c.pending != nil {
		t.Errorf("Close = %v, pending %d", err, len(c.pending))
	}
}

// TestSpreadPatchesOddPaths: paths git quotes, or that look like options,
// are passed to the runs as they are and their patches found.
func TestSpreadPatchesOddPaths(t *testing.T) {
	r := newTestRepo(t)
	names := []string{"-dash.txt", "with space.txt", "ünï/cødé.txt", "quote\"d.txt", "tab\there.txt", "star*.txt"}
	for i := range minSplitFiles {
		names = append(names, fmt.Sprintf("plain/f%03d.txt", i))
	}
	for _, n := range names {
		r.Write(n, "one\n")
	}
	r.Commit("one")
	for _, n := range names {
		r.Write(n, "two\n")
	}
	r.Commit("two")
	ctx := context.Background()
	c, err := r.open().SelectRange(ctx, "HEAD~1..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !c.SpreadPatches(ctx) {
		t.Fatal("not spread")
	}
	got := map[string]bool{}
	err = c.Patches(ctx, func(*File) bool { return true }, -1, func(f *File, p *Patch) error {
		if len(p.Hunks) != 1 || p.Added != 1 || p.Deleted != 1 {
			t.Errorf("%q: %+v", f.Path, p)
		}
		got[f.Path] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !got[n] {
			t.Errorf("no patch for %q", n)
		}
	}
}
