package gitctx

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestSelectRangeRevisions: a single commit can be named as git names it,
// R^! (R and none of its parents) and :/text (a search of the messages)
// among others; what git reads as a set of commits, or as an object that
// is not a commit, is refused saying so, not as "no commit by that name".
func TestSelectRangeRevisions(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "a\n")
	first := r.Commit("first")
	r.Write("a.txt", "a\nb\n")
	second := r.Commit("second")
	emptyTree := "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	repo := r.open()

	for _, tt := range []struct {
		spec       string
		base, head string // the change selected
		err        error  // else the error
		msg        string // and what it says
	}{
		{spec: "HEAD^!", base: first, head: second},
		{spec: "HEAD~1^!", base: emptyTree, head: first}, // a root commit
		{spec: ":/first", base: emptyTree, head: first},
		{spec: ":/second^!", base: first, head: second},
		{spec: "HEAD^{tree}", err: ErrUnsupportedRevision, msg: "HEAD^{tree}: unsupported revision: it names a tree, not a commit; use A..B"},
		{spec: r.Rev("HEAD:a.txt"), err: ErrUnsupportedRevision, msg: "it names a blob, not a commit"},
		{spec: "HEAD^{tree}..HEAD", err: ErrUnsupportedRevision, msg: "it names a tree"},
		{spec: "HEAD^@", err: ErrUnsupportedRevision, msg: "HEAD^@: unsupported revision syntax: git reads it as a set of commits"},
		{spec: "HEAD^-", err: ErrUnsupportedRevision, msg: "unsupported revision syntax"},
		{spec: "no-such-branch", err: ErrUnknownRevision, msg: "no commit by that name"},
		{spec: "a.txt", err: ErrUnknownRevision, msg: "no commit by that name"}, // a file is not a revision
	} {
		t.Run(tt.spec, func(t *testing.T) {
			c, err := repo.SelectRange(t.Context(), tt.spec)
			if tt.err != nil {
				if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.msg) {
					t.Fatalf("SelectRange(%q) = %v; want %v saying %q", tt.spec, err, tt.err, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("SelectRange(%q): %v", tt.spec, err)
			}
			closeChange(t, c)
			if c.Source.Base != tt.base || c.Source.Head != tt.head || c.Source.Spec != tt.spec {
				t.Errorf("SelectRange(%q) = %+v; want base %s, head %s", tt.spec, c.Source, tt.base, tt.head)
			}
			if err := c.WaitCommits(); err != nil || len(c.Commits) != 1 || c.Commits[0].SHA != tt.head {
				t.Errorf("commits %+v, %v; want the one commit %s", c.Commits, err, tt.head)
			}
		})
	}
}

// TestOpenNoWorkTree: a repository's .git directory has no work tree,
// and is told from a directory outside any repository (both are
// ErrNotRepository, so that a patch can still be read).
func TestOpenNoWorkTree(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "a\n")
	r.Commit("first")
	for _, tt := range []struct {
		name, dir, msg string
	}{
		{"the .git directory", filepath.Join(r.Dir, ".git"), "inside a repository's .git directory, not its work tree (run gitctx from the work tree)"},
		{"under it", filepath.Join(r.Dir, ".git", "refs"), "inside a repository's .git directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			repo, err := Open(t.Context(), tt.dir)
			if !errors.Is(err, ErrNotRepository) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Open(%s) = %v, %v; want ErrNotRepository saying %q", tt.dir, repo, err, tt.msg)
			}
			if strings.Contains(err.Error(), "not a git repository") {
				t.Errorf("Open(%s): %q says it is not a git repository", tt.dir, err)
			}
		})
	}
}
