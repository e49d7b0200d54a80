package gitctx

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gitctx/gitctx/gitctx/gittest"
)

func TestSelectStagedUnborn(t *testing.T) {
	r := newTestRepo(t)
	r.Write("first.txt", "hello\n")
	r.Write("untracked.txt", "not staged\n")
	r.Git("add", "first.txt")

	c, err := r.open().SelectStaged(context.Background())
	if err != nil {
		t.Fatalf("SelectStaged on an unborn branch: %v", err)
	}
	checkEqual(t, "Source", c.Source, Source{Kind: KindStaged, Spec: "--staged"})
	checkEqual(t, "Files", summarize(c.Files), []fileSum{{"first.txt", "", Added, 0, ModeRegular}})
	_, data, err := c.Read(context.Background(), c.Files[0], New, -1)
	if err != nil || string(data) != "hello\n" {
		t.Errorf("Read(first.txt, New) = %q, %v; want %q", data, err, "hello\n")
	}
	if _, _, err := c.Read(context.Background(), c.Files[0], Old, -1); err == nil {
		t.Errorf("Read(first.txt, Old) of an added file: no error")
	}
}

func TestSelectStaged(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "one\n")
	r.Write("b.txt", "bee\n")
	head := r.Commit("first")
	r.Write("a.txt", "one, staged\n")
	r.Git("add", "a.txt")
	r.Write("a.txt", "one, staged, then edited again\n") // not staged
	r.Write("b.txt", "unstaged only\n")
	r.Write("new.txt", "staged new file\n")
	r.Git("add", "new.txt")

	c, err := r.open().SelectStaged(context.Background())
	if err != nil {
		t.Fatalf("SelectStaged: %v", err)
	}
	checkEqual(t, "Source", c.Source, Source{Kind: KindStaged, Spec: "--staged", Base: head})
	checkEqual(t, "Files", summarize(c.Files), []fileSum{
		{"a.txt", "", Modified, ModeRegular, ModeRegular},
		{"new.txt", "", Added, 0, ModeRegular},
	})
	_, data, err := c.Read(context.Background(), c.Files[0], New, -1)
	if err != nil || string(data) != "one, staged\n" {
		t.Errorf("Read(a.txt, New) = %q, %v; want the staged version", data, err)
	}
	p := allPatches(t, c, 0)["a.txt"]
	if p == nil {
		t.Fatal("no patch for a.txt")
	}
	checkEqual(t, "a.txt patch lines", lineTexts(p), []string{"-one", "+one, staged"})
}

// TestSelectStagedIndexFile checks that GIT_INDEX_FILE names the index, as
// it does for git commit (a pre-commit hook of `git commit -a` runs so).
func TestSelectStagedIndexFile(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "one\n")
	r.Commit("first")
	r.Write("real.txt", "in the real index\n")
	r.Git("add", "real.txt")
	r.Write("other.txt", "in the other index\n")

	index := filepath.Join(t.TempDir(), "other-index")
	t.Setenv("GIT_INDEX_FILE", index)
	r.Git("read-tree", "HEAD")
	r.Git("update-index", "--add", "other.txt")

	c, err := r.open().SelectStaged(context.Background())
	if err != nil {
		t.Fatalf("SelectStaged: %v", err)
	}
	checkEqual(t, "Files", summarize(c.Files), []fileSum{{"other.txt", "", Added, 0, ModeRegular}})
	tree, err := c.Tree(context.Background())
	if err != nil {
		t.Fatalf("Tree: %v", err)
	}
	var paths []string
	for _, e := range tree {
		paths = append(paths, e.Path)
	}
	checkEqual(t, "Tree paths", paths, []string{"a.txt", "other.txt"})
}

// worktreeRepo has a staged, an unstaged, an untracked and an ignored change.
func worktreeRepo(t *testing.T) *testRepo {
	t.Helper()
	r := newTestRepo(t)
	r.Write(".gitignore", "*.log\n")
	r.Write("staged.txt", "one\n")
	r.Write("unstaged.txt", "one\n")
	r.Commit("first")
	r.Write("staged.txt", "two\n")
	r.Git("add", "staged.txt")
	r.Write("unstaged.txt", "two\n")
	r.Write("untracked dir/new.txt", "brand new\n")
	r.Write("debug.log", "ignored\n")
	return r
}

func TestSelectWorktree(t *testing.T) {
	r := worktreeRepo(t)
	index := filepath.Join(r.Dir, ".git", "index")
	before := readFile(t, index)

	c, err := r.open().SelectWorktree(context.Background())
	if err != nil {
		t.Fatalf("SelectWorktree: %v", err)
	}
	checkEqual(t, "Files", summarize(c.Files), []fileSum{
		{"staged.txt", "", Modified, ModeRegular, ModeRegular},
		{"unstaged.txt", "", Modified, ModeRegular, ModeRegular},
		{"untracked dir/new.txt", "", Added, 0, ModeRegular},
	})
	if c.Source.Kind != KindWorktree || c.Source.Base != r.Rev("HEAD") {
		t.Errorf("Source = %+v, want kind worktree and base HEAD", c.Source)
	}
	for path, want := range map[string]string{"staged.txt": "two\n", "unstaged.txt": "two\n", "untracked dir/new.txt": "brand new\n"} {
		_, data, err := c.Read(context.Background(), byPath(t, c, path), New, -1)
		if err != nil || string(data) != want {
			t.Errorf("Read(%s, New) = %q, %v; want %q", path, data, err, want)
		}
	}
	patches := allPatches(t, c, 0)
	checkEqual(t, "new.txt patch", lineTexts(patches["untracked dir/new.txt"]), []string{"+brand new"})
	checkEqual(t, "patched files", len(patches), 3)
	if !bytes.Equal(readFile(t, index), before) {
		t.Errorf("the real index changed during SelectWorktree and Patches")
	}

	tmp := tempIndex(t, c)
	if _, err := os.Stat(tmp); err != nil {
		t.Fatalf("temporary index %s: %v", tmp, err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("Close left the temporary index %s behind (stat: %v)", tmp, err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if !bytes.Equal(readFile(t, index), before) {
		t.Errorf("the real index changed after Close")
	}
	if out := r.Git("status", "--porcelain", "--", "untracked dir"); !strings.HasPrefix(out, "??") {
		t.Errorf("git status of the untracked file = %q, want it still untracked", out)
	}
}

// tempIndex is the temporary index a work-tree change made.
func tempIndex(t *testing.T, c *Change) string {
	t.Helper()
	for _, kv := range c.diffEnv {
		if name, ok := strings.CutPrefix(kv, "GIT_INDEX_FILE="); ok {
			return name
		}
	}
	t.Fatalf("no temporary index in %q", c.diffEnv)
	return ""
}

// TestSelectWorktreeLeavesStaleIndex checks the promise that the real
// index is never touched when there is no untracked file, and so no
// temporary index: a tracked file whose timestamp changed (a checkout, a
// build tool, an editor saving without changes) leaves the index stale, and
// `git diff <commit>` refreshes a stale index and writes it back.
func TestSelectWorktreeLeavesStaleIndex(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "one\n")
	r.Write("b.txt", "bee\n")
	r.Commit("first")
	r.Write("a.txt", "two\n")
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(r.Dir, "b.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(r.Dir, ".git", "index")
	before := readFile(t, index)

	c := closeChange(t, mustWorktree(t, r.open()))
	checkEqual(t, "Files", summarize(c.Files), []fileSum{{"a.txt", "", Modified, ModeRegular, ModeRegular}})
	if !bytes.Equal(readFile(t, index), before) {
		t.Errorf("SelectWorktree rewrote the real index (git diff refreshed its stat data); the index must never be touched")
		before = readFile(t, index)
	}
	allPatches(t, c, 0)
	if !bytes.Equal(readFile(t, index), before) {
		t.Errorf("Patches rewrote the real index (git diff refreshed its stat data); the index must never be touched")
	}
}

// TestSelectWorktreeRacyClean: a file changed within the same second as
// the index was written, keeping its size, is found changed. Git trusts an
// entry's stat data only when the file is older than the index and checks
// the content of the rest; the private copy of the index must keep the
// index's time for that check to happen (a copy stamped now hid such a
// change: a version bump written right after a checkout).
func TestSelectWorktreeRacyClean(t *testing.T) {
	r := newTestRepo(t)
	r.Git("config", "core.trustctime", "false") // ctime cannot be set back; compare the rest
	then := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	r.Write("v.txt", "version 1.0\n")
	if err := os.Chtimes(filepath.Join(r.Dir, "v.txt"), then, then); err != nil {
		t.Fatal(err)
	}
	r.Commit("first")
	r.Write("v.txt", "version 1.1\n") // same size
	for _, name := range []string{"v.txt", filepath.Join(".git", "index")} {
		if err := os.Chtimes(filepath.Join(r.Dir, name), then, then); err != nil {
			t.Fatal(err)
		}
	}
	if out := r.Git("--no-optional-locks", "diff", "--name-only", "HEAD", "--"); out != "v.txt\n" {
		t.Fatalf("git diff on the real index lists %q; the test no longer sets up a racily clean entry", out)
	}
	c := closeChange(t, mustWorktree(t, r.open()))
	checkEqual(t, "Files", summarize(c.Files), []fileSum{{"v.txt", "", Modified, ModeRegular, ModeRegular}})
}

func mustWorktree(t *testing.T, repo *Repo) *Change {
	t.Helper()
	c, err := repo.SelectWorktree(context.Background())
	if err != nil {
		t.Fatalf("SelectWorktree: %v", err)
	}
	return c
}

func TestSelectWorktreeUnborn(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "untracked on an unborn branch\n")
	c := closeChange(t, mustWorktree(t, r.open()))
	if c.Source.Base != "" {
		t.Errorf("Source.Base = %q, want empty on an unborn branch", c.Source.Base)
	}
	checkEqual(t, "Files", summarize(c.Files), []fileSum{{"a.txt", "", Added, 0, ModeRegular}})
}

func TestSelectWorktreeLinked(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "one\n")
	r.Commit("first")
	wt := filepath.Join(t.TempDir(), "linked")
	r.Git("worktree", "add", "-q", "-b", "side", wt)
	w := &testRepo{&gittest.Repo{TB: t, Dir: wt, Date: gittest.DayDates}}
	w.Write("a.txt", "changed in the linked worktree\n")
	w.Write("extra.txt", "untracked in the linked worktree\n")
	index := strings.TrimSpace(w.Git("rev-parse", "--path-format=absolute", "--git-path", "index"))
	before := readFile(t, index)

	repo := openRepo(t, wt)
	if repo.GitDir == repo.CommonDir {
		t.Errorf("GitDir = CommonDir = %s in a linked worktree", repo.GitDir)
	}
	c := closeChange(t, mustWorktree(t, repo))
	checkEqual(t, "Files", summarize(c.Files), []fileSum{
		{"a.txt", "", Modified, ModeRegular, ModeRegular},
		{"extra.txt", "", Added, 0, ModeRegular},
	})
	_, data, err := c.Read(context.Background(), byPath(t, c, "a.txt"), Old, -1)
	if err != nil || string(data) != "one\n" {
		t.Errorf("Read(a.txt, Old) = %q, %v; want %q", data, err, "one\n")
	}
	_, data, err = c.Read(context.Background(), byPath(t, c, "extra.txt"), New, -1)
	if err != nil || string(data) != "untracked in the linked worktree\n" {
		t.Errorf("Read(extra.txt, New) = %q, %v", data, err)
	}
	if !bytes.Equal(readFile(t, index), before) {
		t.Errorf("the linked worktree's index changed")
	}
	if out := r.Git("status", "--porcelain"); out != "" {
		t.Errorf("the main worktree changed: %q", out)
	}
}

// TestSelectWorktreeDiffFails: git failing to diff the work tree (here a
// required clean filter that fails) is an error that names git's
// complaint, not a panic, and the private index is removed.
func TestSelectWorktreeDiffFails(t *testing.T) {
	r := newTestRepo(t)
	r.Write(".gitattributes", "*.x filter=bad\n")
	r.Write("f.x", "a\n")
	r.Commit("first")
	r.Git("config", "filter.bad.clean", "false")
	r.Git("config", "filter.bad.required", "true")
	r.Write("f.x", "a\nb\n")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)

	c, err := r.open().SelectWorktree(context.Background())
	if err == nil {
		_ = c.Close()
		t.Fatal("SelectWorktree with a failing required filter: no error")
	}
	if !strings.Contains(err.Error(), "filter") {
		t.Errorf("error %q does not say git's filter failed", err)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "gitctx-index-*")); len(left) > 0 {
		t.Errorf("private index left behind: %v", left)
	}
}

// TestSelectWorktreeNestedRepoWithoutCommits: an untracked repository in
// the work tree with no commit yet (git cannot mark it intent-to-add) is
// left out, as `git diff` leaves it; the change around it is packed.
func TestSelectWorktreeNestedRepoWithoutCommits(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "one\n")
	r.Commit("first")
	r.Write("a.txt", "one\ntwo\n")
	r.Write("new.txt", "new\n")
	r.Git("init", "-q", "tools")

	c, err := r.open().SelectWorktree(context.Background())
	if err != nil {
		t.Fatalf("SelectWorktree beside a nested repository with no commits: %v", err)
	}
	defer c.Close()
	checkEqual(t, "Files", summarize(c.Files), []fileSum{
		{"a.txt", "", Modified, ModeRegular, ModeRegular},
		{"new.txt", "", Added, 0, ModeRegular},
	})
}

// TestSelectWorktreeFilteredFiles: a file with a filter attribute is read
// as git holds it, not as the smudge filter wrote it to the disk: one the
// change leaves as it is from its blob, a changed one not at all (its diff
// is of the cleaned text); a file without the attribute from the disk.
func TestSelectWorktreeFilteredFiles(t *testing.T) {
	r := newTestRepo(t)
	r.Git("config", "filter.inj.clean", "sed s/INJECTEDVALUE/PLACEHOLDER/")
	r.Git("config", "filter.inj.smudge", "sed s/PLACEHOLDER/INJECTEDVALUE/")
	r.Write(".gitattributes", "*.cfg filter=inj\n")
	r.Write("app.cfg", "key=PLACEHOLDER\n")
	r.Write("other.cfg", "key=PLACEHOLDER\n")
	r.Write("plain.txt", "plain\n")
	r.Commit("first")
	for _, p := range []string{"app.cfg", "other.cfg"} { // smudged, as a checkout leaves them
		if err := os.Remove(filepath.Join(r.Dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	r.Git("checkout", "--", "app.cfg", "other.cfg")
	r.Write("app.cfg", "key=INJECTEDVALUE\ny=3\n")
	r.Write("plain.txt", "plain, changed\n")
	ctx := context.Background()

	c, err := r.open().SelectWorktree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, f := range c.Files {
		_, data, err := c.Read(ctx, f, New, -1)
		switch f.Path {
		case "app.cfg":
			var ff *filteredFile
			if !errors.As(err, &ff) {
				t.Errorf("Read(app.cfg, New) = %q, %v; want a filteredFile error", data, err)
			}
		case "plain.txt":
			if err != nil || string(data) != "plain, changed\n" {
				t.Errorf("Read(plain.txt, New) = %q, %v", data, err)
			}
		}
	}
	tree, err := c.Tree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var others []TreeEntry
	for _, e := range tree {
		if e.Path == "other.cfg" || e.Path == "plain.txt" {
			others = append(others, e)
		}
	}
	want := map[string]string{"other.cfg": "key=PLACEHOLDER\n", "plain.txt": "plain, changed\n"}
	err = c.ReadTreeEach(ctx, others, -1, func(e TreeEntry, data []byte, err error) error {
		if err != nil || string(data) != want[e.Path] {
			t.Errorf("ReadTreeEach(%s) = %q, %v; want %q", e.Path, data, err, want[e.Path])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range others {
		if _, data, err := c.ReadTree(ctx, e, -1); err != nil || string(data) != want[e.Path] {
			t.Errorf("ReadTree(%s) = %q, %v; want %q", e.Path, data, err, want[e.Path])
		}
	}
}

// TestSelectWorktreeSkipWorktreeStaged: a file outside a sparse checkout,
// changed in the index and so not on disk, is read as the index has it,
// as git diffs it.
func TestSelectWorktreeSkipWorktreeStaged(t *testing.T) {
	r := newTestRepo(t)
	r.Write("src/a", "s\n")
	r.Write("other/b", "o\n")
	r.Commit("first")
	r.Git("sparse-checkout", "set", "--no-cone", "/src/")
	out, err := r.GitInput("new\n", "hash-object", "-w", "--stdin")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(out)
	r.Git("update-index", "--cacheinfo", "100644,"+id+",other/b")
	r.Git("update-index", "--skip-worktree", "other/b")
	ctx := context.Background()

	c, err := r.open().SelectWorktree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if len(c.Files) != 1 || c.Files[0].Path != "other/b" {
		t.Fatalf("Files = %v, want other/b", summarize(c.Files))
	}
	if _, data, err := c.Read(ctx, c.Files[0], New, -1); err != nil || string(data) != "new\n" {
		t.Errorf("Read(other/b, New) = %q, %v; want the index's %q", data, err, "new\n")
	}
}

// TestStagedTreeIntentToAddByGit: an intent-to-add file is no file of a
// staged change's tree, also where gitctx cannot decode the index (a
// split index, a SHA-256 repository) and asks git; a staged empty file is.
func TestStagedTreeIntentToAddByGit(t *testing.T) {
	for _, setup := range []struct {
		name string
		init func(r *testRepo)
	}{
		{"split index", func(r *testRepo) { r.Git("config", "core.splitIndex", "true") }},
		{"sha256", func(r *testRepo) {
			if err := os.RemoveAll(filepath.Join(r.Dir, ".git")); err != nil {
				t.Fatal(err)
			}
			r.Git("init", "-q", "--object-format=sha256")
		}},
		{"plain", func(r *testRepo) {}},
	} {
		t.Run(setup.name, func(t *testing.T) {
			r := newTestRepo(t)
			setup.init(r)
			r.Write("a", "a\n")
			r.Commit("first")
			r.Write("empty", "")
			r.Git("add", "empty")
			r.Write("ita", "content\n")
			r.Git("add", "-N", "ita")
			ctx := context.Background()
			c, err := r.open().SelectStaged(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			tree, err := c.Tree(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, e := range tree {
				paths = append(paths, e.Path)
			}
			if !slices.Equal(paths, []string{"a", "empty"}) {
				t.Errorf("Tree = %v, want [a empty]", paths)
			}
		})
	}
}

// TestOpenFromGitDirWithCoreWorktree: gitctx run inside a git directory
// whose core.worktree names the work tree (git works there) packs the work
// tree, telling git where the repository is.
func TestOpenFromGitDirWithCoreWorktree(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "a\n")
	r.Commit("first")
	gitDir := filepath.Join(t.TempDir(), "g")
	if err := os.Rename(filepath.Join(r.Dir, ".git"), gitDir); err != nil {
		t.Fatal(err)
	}
	r.Git("--git-dir="+gitDir, "config", "core.worktree", r.Dir)
	r.Write("a.txt", "a\nb\n")
	t.Chdir(gitDir)

	repo, err := Open(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	c, err := repo.SelectWorktree(context.Background())
	if err != nil {
		t.Fatalf("SelectWorktree from the git directory: %v", err)
	}
	defer c.Close()
	checkEqual(t, "Files", summarize(c.Files), []fileSum{{"a.txt", "", Modified, ModeRegular, ModeRegular}})
}
