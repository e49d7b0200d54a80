package gitctx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// conflictRepo is a repository stopped in a merge on a conflict in f.txt
// (the merge base has "b", main "MAIN", side "SIDE"); side's s.txt is
// staged cleanly.
func conflictRepo(t *testing.T) *testRepo {
	t.Helper()
	r := newTestRepo(t)
	r.Write("f.txt", "a\nb\nc\n")
	r.Write("keep.txt", "k\n")
	r.Commit("root")
	r.Git("checkout", "-q", "-b", "side")
	r.Write("f.txt", "a\nSIDE\nc\n")
	r.Write("s.txt", "s\n")
	r.Commit("side")
	r.Git("checkout", "-q", "main")
	r.Write("f.txt", "a\nMAIN\nc\n")
	r.Commit("main")
	if _, err := r.GitErr("merge", "-q", "side"); err == nil {
		t.Fatal("git merge: no conflict")
	}
	return r
}

// TestSelectStagedUnmerged: an index with a conflict has no staged version
// of the file, so --staged refuses it, naming the file and what to do,
// rather than pack the clean paths and leave the conflicted one out.
func TestSelectStagedUnmerged(t *testing.T) {
	r := conflictRepo(t)
	index := filepath.Join(t.TempDir(), "index")
	if err := os.WriteFile(index, readFile(t, filepath.Join(r.Dir, ".git", "index")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		pick func(*Repo, context.Context) (*Change, error)
	}{
		{"SelectStaged", (*Repo).SelectStaged},
		{"SelectIndex", func(repo *Repo, ctx context.Context) (*Change, error) { return repo.SelectIndex(ctx, index) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.pick(r.open(), t.Context())
			if !errors.Is(err, ErrUnmerged) {
				t.Fatalf("%s: %v (change %v); want ErrUnmerged", tt.name, err, c != nil)
			}
			for _, want := range []string{"f.txt", "git add", "without --staged"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: %q does not say %q", tt.name, err, want)
				}
			}
			if strings.Contains(err.Error(), "s.txt") {
				t.Errorf("%s: %q names s.txt, which merged cleanly", tt.name, err)
			}
		})
	}
}

// TestWorktreeUnmerged: the work tree's change holds the conflicted file
// as modified, and its tree lists it once, read from the work tree
// (conflict markers and all): never one of the conflict's stages, the
// merge base's least of all.
func TestWorktreeUnmerged(t *testing.T) {
	r := conflictRepo(t)
	c := closeChange(t, mustWorktree(t, r.open()))
	checkEqual(t, "files", summarize(c.Files), []fileSum{
		{"f.txt", "", Modified, ModeRegular, ModeRegular},
		{"s.txt", "", Added, 0, ModeRegular},
	})
	tree, err := c.Tree(t.Context())
	if err != nil {
		t.Fatalf("Tree: %v", err)
	}
	var listed int
	for _, e := range tree {
		if e.Path != "f.txt" {
			continue
		}
		listed++
		if e.ID != "" || e.Mode != ModeRegular {
			t.Errorf("f.txt listed as %+v; want mode %o and no id (none of its stages is the file)", e, ModeRegular)
		}
		_, data, err := c.ReadTree(t.Context(), e, -1)
		if err != nil || !strings.Contains(string(data), "<<<<<<< HEAD\nMAIN\n=======\nSIDE\n>>>>>>> side\n") {
			t.Errorf("ReadTree(f.txt) = %q, %v; want the work tree's conflict markers", data, err)
		}
	}
	if listed != 1 {
		t.Errorf("f.txt listed %d times in %+v; want once", listed, tree)
	}
}
