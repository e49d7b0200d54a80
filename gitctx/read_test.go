package gitctx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const marker = "MARKER-OUTSIDE-THE-REPOSITORY"

// outsideFile is a file outside any repository holding the marker.
func outsideFile(t *testing.T) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(name, []byte(marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestReadRange(t *testing.T) {
	r := newTestRepo(t)
	outside := outsideFile(t)
	r.Write("mod.txt", "old side\n")
	r.Write("del.txt", "deleted\n")
	r.Commit("first")
	r.Write("mod.txt", "new side\n")
	r.remove("del.txt")
	r.Write("add.txt", "added\n")
	r.symlink(outside, "link")
	r.Commit("second")
	c, err := r.open().SelectRange(context.Background(), "HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}

	tests := []struct {
		path string
		side Side
		want string // "" means an error is expected
	}{
		{"mod.txt", Old, "old side\n"},
		{"mod.txt", New, "new side\n"},
		{"del.txt", Old, "deleted\n"},
		{"del.txt", New, ""},
		{"add.txt", Old, ""},
		{"add.txt", New, "added\n"},
		{"link", New, outside},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%s", tt.path, sideName(tt.side)), func(t *testing.T) {
			size, data, err := c.Read(context.Background(), byPath(t, c, tt.path), tt.side, -1)
			if tt.want == "" {
				if err == nil {
					t.Errorf("Read = %q, want an error", data)
				}
				return
			}
			if err != nil || string(data) != tt.want || size != int64(len(tt.want)) {
				t.Errorf("Read = %d, %q, %v; want %d, %q", size, data, err, len(tt.want), tt.want)
			}
		})
	}

	size, data, err := c.Read(context.Background(), byPath(t, c, "mod.txt"), New, 3)
	if !errors.Is(err, ErrTooLarge) || size != int64(len("new side\n")) || data != nil {
		t.Errorf("Read(mod.txt, limit 3) = %d, %q, %v; want the size, no data, ErrTooLarge", size, data, err)
	}
}

// TestReadSymlinkNotFollowed reads links to a file outside the repository
// through every door: the blob of a range, the work tree, and the tree.
func TestReadSymlinkNotFollowed(t *testing.T) {
	r := newTestRepo(t)
	outside := outsideFile(t)
	r.Write("a.txt", "a\n")
	r.Commit("first")
	r.symlink(outside, "tracked-link")
	r.Git("add", "tracked-link")
	r.symlink(outside, "untracked-link")
	c := closeChange(t, mustWorktree(t, r.open()))

	for _, f := range c.Files {
		_, data, err := c.Read(context.Background(), f, New, -1)
		if err != nil || string(data) != outside {
			t.Errorf("Read(%s, New) = %q, %v; want the link's target %q", f.Path, data, err, outside)
		}
	}
	tree, err := c.Tree(context.Background())
	if err != nil {
		t.Fatalf("Tree: %v", err)
	}
	for _, e := range tree {
		_, data, err := c.ReadTree(context.Background(), e, -1)
		if err != nil || bytes.Contains(data, []byte(marker)) {
			t.Errorf("ReadTree(%s) = %q, %v; want no error and no marker", e.Path, data, err)
		}
	}
	if len(c.Files) != 2 || len(tree) != 3 {
		t.Errorf("got %d files and %d tree entries, want 2 and 3", len(c.Files), len(tree))
	}
}

// readResult is what Read or ReadEach gave for one file.
type readResult struct {
	Path     string
	Size     int64
	Data     string
	Err      bool
	TooLarge bool
}

func result(f *File, size int64, data []byte, err error) readResult {
	return readResult{f.Path, size, fmt.Sprintf("%q", data), err != nil, errors.Is(err, ErrTooLarge)}
}

// eachResults runs ReadEach and gathers what fn was given.
func eachResults(t *testing.T, c *Change, files []*File, side Side, limit int64) []readResult {
	t.Helper()
	var got []readResult
	err := c.ReadEach(context.Background(), files, side, limit, func(f *File, size int64, data []byte, err error) error {
		got = append(got, result(f, size, data, err))
		return nil
	})
	if err != nil {
		t.Fatalf("ReadEach: %v", err)
	}
	return got
}

func readResults(t *testing.T, c *Change, files []*File, side Side, limit int64) []readResult {
	t.Helper()
	var want []readResult
	for _, f := range files {
		size, data, err := c.Read(context.Background(), f, side, limit)
		want = append(want, result(f, size, data, err))
	}
	return want
}

func TestReadEach(t *testing.T) {
	c := checkReadEach(t)
	if c.repo.noBatchCommand.Load() {
		t.Errorf("git %s has cat-file --batch-command, but ReadEach did without it", gitVersion(t))
	}
}

// checkReadEach holds ReadEach to Read over a change of 40 files, with a
// missing blob among them, on both sides and with three limits.
func checkReadEach(t *testing.T) *Change {
	t.Helper()
	r := newTestRepo(t)
	for i := range 40 {
		r.Write(fmt.Sprintf("f%02d.txt", i), "before\n")
	}
	r.Commit("first")
	for i := range 40 {
		r.Write(fmt.Sprintf("f%02d.txt", i), strings.Repeat("x", i)+"\n")
	}
	r.Commit("second")
	c, err := r.open().SelectRange(context.Background(), "HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	ghost := &File{Path: "ghost.txt", Status: Modified, OldMode: ModeRegular, NewMode: ModeRegular,
		OldID: strings.Repeat("d", 40), NewID: strings.Repeat("e", 40)}
	files := append(append([]*File{}, c.Files[:20]...), append([]*File{ghost}, c.Files[20:]...)...)

	for _, side := range []Side{Old, New} {
		for _, limit := range []int64{-1, 0, 20} {
			t.Run(fmt.Sprintf("%s/limit %d", sideName(side), limit), func(t *testing.T) {
				got := eachResults(t, c, files, side, limit)
				checkEqual(t, "ReadEach against Read", got, readResults(t, c, files, side, limit))
				if len(got) != 41 || !got[20].Err || got[20].Path != "ghost.txt" {
					t.Fatalf("ReadEach gave %d results, the missing blob's %+v", len(got), got[20])
				}
				tooLarge := 0
				for _, g := range got {
					if g.TooLarge {
						tooLarge++
					}
				}
				wantTooLarge := map[int64]int{-1: 0, 0: 40, 20: 20}[limit]
				if side == Old && limit == 20 {
					wantTooLarge = 0
				}
				if tooLarge != wantTooLarge {
					t.Errorf("%d results over the limit, want %d", tooLarge, wantTooLarge)
				}
			})
		}
	}

	stop := errors.New("stop")
	calls := 0
	err = c.ReadEach(context.Background(), c.Files, New, -1, func(*File, int64, []byte, error) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("ReadEach with fn failing = %v after %d calls, want %v after 1", err, calls, stop)
	}
	return c
}

// gitVersion is what `git version` says.
func gitVersion(t *testing.T) string {
	out, err := exec.Command("git", "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// TestReadEachOrder checks that ReadEach keeps the order of files when some
// are read from the object store in one batch and others not (a deleted
// file has no new side, a submodule is a pointer line, a work-tree file is
// read from disk).
func TestReadEachOrder(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "a\n")
	r.Write("b-deleted.txt", "b\n")
	r.Write("c.txt", "c\n")
	r.Commit("first")
	r.Write("a.txt", "a2\n")
	r.remove("b-deleted.txt")
	r.Write("c.txt", "c2\n")
	r.Commit("second")
	repo := r.open()
	rng, err := repo.SelectRange(context.Background(), "HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	r.Write("a.txt", "a3, staged\n")
	r.Git("add", "a.txt")
	r.Write("b0-untracked.txt", "new\n")
	r.Write("c.txt", "c3, not staged\n")
	wt := closeChange(t, mustWorktree(t, repo))
	checkEqual(t, "work-tree files", summarize(wt.Files), []fileSum{
		{"a.txt", "", Modified, ModeRegular, ModeRegular},
		{"b0-untracked.txt", "", Added, 0, ModeRegular},
		{"c.txt", "", Modified, ModeRegular, ModeRegular},
	})

	for name, c := range map[string]*Change{"range": rng, "worktree": wt} {
		for _, side := range []Side{Old, New} {
			t.Run(name+"/"+sideName(side), func(t *testing.T) {
				got := eachResults(t, c, c.Files, side, -1)
				checkEqual(t, "ReadEach in the order of files", got, readResults(t, c, c.Files, side, -1))
			})
		}
	}
}
