package gitctx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadWorktreeStaysInside checks that work-tree reads refuse paths
// that leave the root, directly or through a linked directory.
func TestReadWorktreeStaysInside(t *testing.T) {
	r := newTestRepo(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("MARKER-OUTSIDE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write("a.txt", "inside\n")
	r.Commit("first")
	r.symlink(outside, "linkdir")
	repo := r.open()
	c := closeChange(t, mustWorktree(t, repo))

	tests := []struct {
		path   string
		unsafe bool
	}{
		{"../secret.txt", true},
		{"a/../../secret.txt", true},
		{filepath.Join(outside, "secret.txt"), true},
		{".git/config", true},
		{"sub/.GIT/config", true},
		{".", true},
		{"linkdir/secret.txt", false}, // refused by os.Root, not by the name
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			_, data, err := c.ReadTree(context.Background(), TreeEntry{Path: tt.path, Mode: ModeRegular}, -1)
			if err == nil || bytes.Contains(data, []byte("MARKER")) {
				t.Fatalf("ReadTree(%q) = %q, %v; want an error", tt.path, data, err)
			}
			if tt.unsafe && !errors.Is(err, ErrUnsafePath) {
				t.Errorf("ReadTree(%q) error %v does not wrap ErrUnsafePath", tt.path, err)
			}
		})
	}
}

// TestReadWorktreeBesideDeletion reads the new side of work-tree files when
// the work tree also deletes a file. Rename detection then hashes the
// added files, and git lists them with the id of their work-tree content,
// a blob that is not in the repository: the content must still be read
// from the work tree.
func TestReadWorktreeBesideDeletion(t *testing.T) {
	r := newTestRepo(t)
	r.Write("gone.txt", "deleted in the work tree\n")
	r.Write("long.txt", numbered(20, nil))
	r.Commit("first")
	r.remove("gone.txt")
	r.Write("untracked.txt", "an unrelated new file\n")
	if err := os.Rename(filepath.Join(r.Dir, "long.txt"), filepath.Join(r.Dir, "moved.txt")); err != nil {
		t.Fatal(err)
	}
	r.Write("moved.txt", numbered(20, map[int]string{20: "line 20, edited after the move\n"}))
	c := closeChange(t, mustWorktree(t, r.open()))
	checkEqual(t, "Files", summarize(c.Files), []fileSum{
		{"gone.txt", "", Deleted, ModeRegular, 0},
		{"moved.txt", "long.txt", Renamed, ModeRegular, ModeRegular},
		{"untracked.txt", "", Added, 0, ModeRegular},
	})

	want := map[string]string{
		"moved.txt":     numbered(20, map[int]string{20: "line 20, edited after the move\n"}),
		"untracked.txt": "an unrelated new file\n",
	}
	for _, path := range []string{"moved.txt", "untracked.txt"} {
		f := byPath(t, c, path)
		_, data, err := c.Read(context.Background(), f, New, -1)
		if err != nil || string(data) != want[path] {
			t.Errorf("Read(%s, New) with NewID %s = %q, %v; want the work-tree content", path, f.NewID, data, err)
		}
	}
	err := c.ReadEach(context.Background(), c.Files[1:], New, -1, func(f *File, _ int64, data []byte, err error) error {
		if err != nil || string(data) != want[f.Path] {
			t.Errorf("ReadEach: %s = %q, %v; want the work-tree content", f.Path, data, err)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("ReadEach: %v", err)
	}
}

// TestReadWorktreeManyDirs: files in more directories than are kept open
// read as well, the rest from the work tree's root.
func TestReadWorktreeManyDirs(t *testing.T) {
	r := newTestRepo(t)
	files := map[string]string{}
	for i := range maxOpenDirs + 20 {
		files[fmt.Sprintf("d%03d/e/f.txt", i)] = fmt.Sprintf("file %d\n", i)
	}
	files["top.txt"] = "top\n"
	r.WriteAll(files)
	r.Commit("many")
	repo := r.open()
	c := closeChange(t, mustWorktree(t, repo))
	for p, want := range files {
		_, data, err := c.ReadTree(t.Context(), TreeEntry{Path: p, Mode: ModeRegular}, -1)
		if err != nil || string(data) != want {
			t.Fatalf("ReadTree(%q) = %q, %v; want %q", p, data, err, want)
		}
	}
	if n := len(repo.dirs); n != maxOpenDirs {
		t.Errorf("%d directories open, want %d", n, maxOpenDirs)
	}
	if _, _, err := c.ReadTree(t.Context(), TreeEntry{Path: "d000/e/missing.txt", Mode: ModeRegular}, -1); err == nil || !strings.Contains(err.Error(), "d000/e/missing.txt") {
		t.Errorf("a missing file: %v, want an error naming it", err)
	}
}
