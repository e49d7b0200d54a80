package gitctx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHooksDir checks where git runs hooks from: the common hooks
// directory, also from a subdirectory and from a linked worktree, and
// core.hooksPath (relative to the top level) when it is set.
func TestHooksDir(t *testing.T) {
	r := newTestRepo(t)
	r.Write("sub/x.txt", "x\n")
	r.Commit("first")
	ctx := context.Background()
	common := filepath.Join(r.Dir, ".git", "hooks")

	hooksDir := func(dir string) string {
		t.Helper()
		got, err := openRepo(t, dir).HooksDir(ctx)
		if err != nil {
			t.Fatalf("HooksDir(%s): %v", dir, err)
		}
		return got
	}
	checkEqual(t, "plain", hooksDir(r.Dir), common)
	checkEqual(t, "from a subdirectory", hooksDir(filepath.Join(r.Dir, "sub")), common)

	wt := filepath.Join(t.TempDir(), "linked")
	r.Git("worktree", "add", "-q", wt, "-b", "side")
	checkEqual(t, "linked worktree", hooksDir(wt), common)

	r.Git("config", "core.hooksPath", ".githooks")
	checkEqual(t, "core.hooksPath", hooksDir(filepath.Join(r.Dir, "sub")), filepath.Join(r.Dir, ".githooks"))
	checkEqual(t, "core.hooksPath, linked worktree", hooksDir(wt), filepath.Join(wt, ".githooks"))
	abs := filepath.Join(t.TempDir(), "shared-hooks")
	r.Git("config", "core.hooksPath", abs)
	checkEqual(t, "absolute core.hooksPath", hooksDir(r.Dir), abs)
}

// TestSelectIndex checks that a temporary index, as `git commit -a` makes
// one, is what is selected, not the repository's index nor the work tree;
// on an unborn branch too.
func TestSelectIndex(t *testing.T) {
	r := newTestRepo(t)
	ctx := context.Background()
	r.Write("a.txt", "one\n")
	r.Git("add", "a.txt")
	// a temporary index holding a second file, as git commit -a would build
	tmp := filepath.Join(t.TempDir(), "next-index")
	index := readFile(t, filepath.Join(r.Dir, ".git", "index"))
	if err := os.WriteFile(tmp, index, 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write("b.txt", "two\n")
	blob := strings.TrimSpace(r.Git("hash-object", "-w", "b.txt"))
	withIndex(t, r, tmp, "update-index", "--add", "--cacheinfo", "100644,"+blob+",b.txt")
	r.Write("a.txt", "work tree only\n")

	repo := r.open()
	c := closeChange(t, mustSelect(t)(repo.SelectIndex(ctx, tmp)))
	checkEqual(t, "unborn, temporary index", summarize(c.Files), []fileSum{
		{"a.txt", "", Added, 0, ModeRegular},
		{"b.txt", "", Added, 0, ModeRegular},
	})
	checkEqual(t, "unborn base", c.Source.Base, "")
	got := allPatches(t, c, 0)
	checkEqual(t, "a.txt added lines", lineTexts(got["a.txt"]), []string{"+one"})
	checkEqual(t, "b.txt added lines", lineTexts(got["b.txt"]), []string{"+two"})

	own := closeChange(t, mustSelect(t)(repo.SelectIndex(ctx, "")))
	checkEqual(t, "own index", summarize(own.Files), []fileSum{{"a.txt", "", Added, 0, ModeRegular}})
}

// TestOutgoing checks the commits a push sends: those no remote-tracking
// branch holds and the remote's tip does not reach, merges included, and
// refuses a tag of a blob.
func TestOutgoing(t *testing.T) {
	r := newTestRepo(t)
	ctx := context.Background()
	r.Write("a.txt", "a\n")
	first := r.Commit("first")
	r.Git("update-ref", "refs/remotes/origin/main", first)
	r.Write("a.txt", "b\n")
	second := r.Commit("second")
	r.Git("checkout", "-q", "-b", "topic")
	r.Write("t.txt", "t\n")
	topic := r.Commit("topic")
	r.Git("checkout", "-q", "main")
	r.Write("m.txt", "m\n")
	third := r.Commit("third")
	r.Git("merge", "-q", "--no-ff", "-m", "merge topic", "topic")
	r.Commits++
	merge := r.Rev("HEAD")
	repo := r.open()

	outgoing := func(local, remote string) []string {
		t.Helper()
		got, err := repo.Outgoing(ctx, local, remote)
		if err != nil {
			t.Fatalf("Outgoing(%s, %s): %v", local, remote, err)
		}
		return got
	}
	zero := strings.Repeat("0", 40)
	checkEqual(t, "new branch", len(outgoing(merge, zero)), 4)
	checkEqual(t, "new branch, set", sorted(outgoing(merge, zero)), sorted([]string{second, topic, third, merge}))
	checkEqual(t, "over the remote tip", sorted(outgoing(merge, second)), sorted([]string{topic, third, merge}))
	checkEqual(t, "remote tip unknown here", len(outgoing(merge, strings.Repeat("ab", 20))), 4)
	parents, err := repo.Parents(ctx, merge)
	if err != nil {
		t.Fatal(err)
	}
	checkEqual(t, "the merge's parents", parents, []string{third, topic})
	if parents, err := repo.Parents(ctx, first); err != nil || len(parents) != 0 {
		t.Errorf("Parents(root) = %v, %v; want none", parents, err)
	}
	blob := strings.TrimSpace(r.Git("hash-object", "-w", "a.txt"))
	r.Git("tag", "-a", "-m", "a blob", "blobtag", blob)
	var nc *NotCommitError
	if _, err := repo.Outgoing(ctx, r.Rev("blobtag"), zero); !errors.As(err, &nc) || nc.Kind != "blob" {
		t.Errorf("Outgoing(a tag of a blob) = %v; want a NotCommitError of a blob", err)
	}
	checkEqual(t, "deletion", len(outgoing(zero, merge)), 0)
	checkEqual(t, "nothing new", len(outgoing(first, zero)), 0)
	if _, err := repo.Outgoing(ctx, "--all", zero); err == nil {
		t.Errorf("Outgoing(--all): no error")
	}
}

func mustSelect(t *testing.T) func(*Change, error) *Change {
	return func(c *Change, err error) *Change {
		t.Helper()
		if err != nil {
			t.Fatalf("select: %v", err)
		}
		return c
	}
}

// withIndex runs git in the repository with GIT_INDEX_FILE set to index.
func withIndex(t *testing.T, r *testRepo, index string, args ...string) {
	t.Helper()
	t.Setenv("GIT_INDEX_FILE", index) // restored after the test
	r.Git(args...)
	os.Unsetenv("GIT_INDEX_FILE")
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// TestIncoming checks the commits a push to a bare repository brings, as a
// pre-receive hook sees them: its objects are there, and no ref of the
// repository holds them yet.
func TestIncoming(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "a\n")
	first := r.Commit("first")
	bare := filepath.Join(t.TempDir(), "srv.git")
	r.Git("clone", "-q", "--bare", r.Dir, bare)
	r.Write("a.txt", "b\n")
	second := r.Commit("second")
	r.Git("checkout", "-q", "-b", "topic", first)
	r.Write("t.txt", "t\n")
	topic := r.Commit("topic")
	r.Git("-C", bare, "fetch", "-q", r.Dir, "main", "topic") // the objects, in FETCH_HEAD only
	repo := openRepo(t, bare)

	incoming := func(id string) []string {
		t.Helper()
		got, err := repo.Incoming(t.Context(), id)
		if err != nil {
			t.Fatalf("Incoming(%s): %v", id, err)
		}
		return got
	}
	checkEqual(t, "an update of main", incoming(second), []string{second})
	checkEqual(t, "a new branch", incoming(topic), []string{topic})
	checkEqual(t, "a branch at a commit the repository holds", len(incoming(first)), 0)
	checkEqual(t, "a deletion", len(incoming(strings.Repeat("0", 40))), 0)
	if _, err := repo.Incoming(t.Context(), "main"); !errors.Is(err, ErrUnknownRevision) {
		t.Errorf("Incoming(main) = %v; want ErrUnknownRevision (a full object id is wanted)", err)
	}
}
