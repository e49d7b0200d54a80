package gitctx

import (
	"context"
	"strings"
	"testing"
)

// TestTreeSparseCheckout: in a sparse checkout, the files outside it are
// in the index (skip-worktree) but not on disk, and git takes the index's
// blob for them. A work-tree change and a patch read them so, like any
// unchanged file, rather than fail on the missing file; the files inside
// it are still read from the work tree.
func TestTreeSparseCheckout(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a/a.go", "package a\n")
	r.Write("b/b.go", "package b\n// committed\n")
	r.Commit("first")
	r.Git("sparse-checkout", "set", "a")
	r.Write("a/a.go", "package a\n// in the work tree\n")
	patch := r.Git("diff")

	for _, tt := range []struct {
		name string
		pick func(context.Context, *Repo) (*Change, error)
	}{
		{"worktree", func(ctx context.Context, repo *Repo) (*Change, error) { return repo.SelectWorktree(ctx) }},
		{"patch", func(ctx context.Context, repo *Repo) (*Change, error) {
			return ReadPatch(ctx, repo, "-", strings.NewReader(patch))
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			repo := r.open()
			c := closeChange(t, mustSelect(t)(tt.pick(t.Context(), repo)))
			tree, err := c.Tree(t.Context())
			if err != nil {
				t.Fatalf("Tree: %v", err)
			}
			byName := map[string]TreeEntry{}
			for _, e := range tree {
				byName[e.Path] = e
			}
			if e := byName["b/b.go"]; !e.SkipWorktree || e.ID != r.Rev("HEAD:b/b.go") {
				t.Errorf("b/b.go listed as %+v; want SkipWorktree and its blob", e)
			}
			if e := byName["a/a.go"]; e.SkipWorktree {
				t.Errorf("a/a.go listed as %+v; want it in the work tree", e)
			}
			want := map[string]string{"a/a.go": "package a\n// in the work tree\n", "b/b.go": "package b\n// committed\n"}
			entries := []TreeEntry{byName["a/a.go"], byName["b/b.go"]}
			got := map[string]string{}
			for _, e := range entries {
				_, data, err := c.ReadTree(t.Context(), e, -1)
				if err != nil {
					t.Errorf("ReadTree(%s): %v", e.Path, err)
				}
				got[e.Path] = string(data)
			}
			checkEqual(t, "ReadTree", got, want)
			got = map[string]string{}
			err = c.ReadTreeEach(t.Context(), entries, -1, func(e TreeEntry, data []byte, err error) error {
				if err != nil {
					t.Errorf("ReadTreeEach(%s): %v", e.Path, err)
				}
				got[e.Path] = string(data)
				return nil
			})
			if err != nil {
				t.Fatalf("ReadTreeEach: %v", err)
			}
			checkEqual(t, "ReadTreeEach", got, want)
			if id := c.TreeObjectID(byName["b/b.go"]); id != byName["b/b.go"].ID {
				t.Errorf("TreeObjectID(b/b.go) = %q; want its blob, which is what is read", id)
			}
		})
	}
}
