package gitctx

import (
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// settle makes the index's stat data settle every file: the times of the
// files not settled before are moved into the past and git rewrites the
// index after them, so that none is racily clean. (Git compares times to
// the second: had a settled file's change time moved within its second,
// git would leave its entry as it was, and unsureFiles would not.)
func (r *testRepo) settle() {
	r.TB.Helper()
	past := time.Unix(1_700_000_000, 0)
	err := filepath.WalkDir(r.Dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == ".git" {
			return err
		}
		if info, err := d.Info(); err == nil && d.Type().IsRegular() && !info.ModTime().Equal(past) {
			return os.Chtimes(p, past, past)
		}
		return err
	})
	if err != nil {
		r.TB.Fatal(err)
	}
	r.Git("update-index", "-q", "--refresh")
}

// gitDiffers is what `git diff-index <commit>` says differs.
func (r *testRepo) gitDiffers(commit string) []string {
	r.TB.Helper()
	var out []string
	for p := range strings.SplitSeq(r.Git("diff-index", "--name-only", "-z", "--no-renames", "--ignore-submodules=none", commit, "--"), "\x00") {
		if p != "" {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// TestWorktreeDiffersAsGit: reading the index's stat data, then asking
// git about the files it leaves open, finds what `git diff-index` finds,
// whatever was done to the work tree and the index; on a settled index
// git is asked about no file.
func TestWorktreeDiffersAsGit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the index's stat data is read on Linux only")
	}
	cases := []struct {
		name   string
		change func(r *testRepo)
		unsure []string // the files unsureFiles leaves to git, after the change
	}{
		{"nothing", func(*testRepo) {}, nil},
		{"edited", func(r *testRepo) { r.Write("a.txt", "alpha, edited\n") }, []string{"a.txt"}},
		{"edited in place, same size and time", func(r *testRepo) {
			p := filepath.Join(r.Dir, "a.txt")
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			r.Write("a.txt", "ALPHA\n")
			if err := os.Chtimes(p, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, []string{"a.txt"}},
		{"removed", func(r *testRepo) { os.Remove(filepath.Join(r.Dir, "b.txt")) }, []string{"b.txt"}},
		{"staged", func(r *testRepo) {
			r.Write("a.txt", "alpha, staged\n")
			r.Git("add", "a.txt")
			r.settle()
		}, nil},
		{"staged, then the work tree put back", func(r *testRepo) {
			r.Write("a.txt", "alpha, staged\n")
			r.Git("add", "a.txt")
			r.Write("a.txt", "alpha\n")
		}, []string{"a.txt"}},
		{"executable", func(r *testRepo) { os.Chmod(filepath.Join(r.Dir, "a.txt"), 0o755) }, []string{"a.txt"}},
		{"now a link", func(r *testRepo) { r.symlink("b.txt", "a.txt") }, []string{"a.txt"}},
		{"link retargeted", func(r *testRepo) { r.symlink("a.txt", "link") }, []string{"link"}},
		{"untracked", func(r *testRepo) { r.Write("new.txt", "new\n") }, nil},
		{"intent to add", func(r *testRepo) {
			r.Write("new.txt", "new\n")
			r.Git("add", "-N", "new.txt")
		}, []string{"new.txt"}},
		{"removed from the index", func(r *testRepo) { r.Git("rm", "-q", "--cached", "b.txt") }, nil},
		{"skip-worktree, edited", func(r *testRepo) {
			r.Git("update-index", "--skip-worktree", "dir/c.txt")
			r.Write("dir/c.txt", "gamma, edited\n")
		}, nil},
		{"racily clean", func(r *testRepo) {
			// every file written no earlier than the index: git must look
			past := time.Unix(1_600_000_000, 0) // before settle's
			if err := os.Chtimes(filepath.Join(r.Dir, ".git", "index"), past, past); err != nil {
				t.Fatal(err)
			}
		}, []string{"a.txt", "b.txt", "dir/c.txt", "empty.txt", "link"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRepo(t)
			r.WriteAll(map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "dir/c.txt": "gamma\n", "empty.txt": ""})
			r.symlink("b.txt", "link")
			head := r.Commit("one")
			r.settle()
			tc.change(r)
			repo := r.open()
			unsure, _, ok := repo.unsureFiles(head)
			slices.Sort(unsure)
			if !ok || !slices.Equal(unsure, tc.unsure) {
				t.Errorf("unsure files: %q, %v; want %q", unsure, ok, tc.unsure)
			}
			differ, ok := repo.worktreeDiffers(t.Context(), head)
			got := slices.Sorted(maps.Keys(differ))
			if want := r.gitDiffers(head); !ok || !slices.Equal(got, want) {
				t.Errorf("differ: %q, %v; git diff-index: %q", got, ok, want)
			}
		})
	}
}

// TestWorktreeDiffersUnmerged: a file in conflict differs, as git says.
func TestWorktreeDiffersUnmerged(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "base\n")
	r.Commit("base")
	r.Git("checkout", "-q", "-b", "other")
	r.Write("a.txt", "other\n")
	r.Commit("other")
	r.Git("checkout", "-q", "main")
	r.Write("a.txt", "main\n")
	head := r.Commit("main")
	if _, err := r.GitErr("merge", "-q", "other"); err == nil {
		t.Fatal("the merge did not conflict")
	}
	differ, ok := r.open().worktreeDiffers(t.Context(), head)
	if !ok || !differ["a.txt"] {
		t.Errorf("differ: %v, %v; want a.txt", differ, ok)
	}
}

// TestUnsureFilesOtherIndex: with GIT_INDEX_FILE (a hook's temporary
// index) or an index go-git cannot read, git compares the work tree.
func TestUnsureFilesOtherIndex(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "alpha\n")
	head := r.Commit("one")
	repo := r.open()
	t.Setenv("GIT_INDEX_FILE", filepath.Join(r.Dir, ".git", "index"))
	if _, _, ok := repo.unsureFiles(head); ok {
		t.Error("GIT_INDEX_FILE set: the index was read")
	}
	os.Unsetenv("GIT_INDEX_FILE")
	if err := os.WriteFile(filepath.Join(r.Dir, ".git", "index"), []byte("DIRC not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := repo.unsureFiles(head); ok {
		t.Error("a broken index was read")
	}
	if _, _, ok := repo.unsureFiles(strings.Repeat("a", 64)); ok {
		t.Error("a SHA-256 repository's index was read")
	}
}

// TestWorktreeDiffersSparse: a sparse checkout's work tree stands in only
// while it holds every file (no file is marked skip-worktree).
func TestWorktreeDiffersSparse(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"in/a.txt": "a\n", "out/b.txt": "b\n"})
	head := r.Commit("one")
	r.Git("config", "core.sparseCheckout", "true")
	if _, ok := r.open().worktreeDiffers(t.Context(), head); !ok {
		t.Error("sparse checkout of every file: the work tree does not stand in")
	}
	r.Git("sparse-checkout", "set", "in")
	if _, ok := r.open().worktreeDiffers(t.Context(), head); ok {
		t.Error("sparse checkout without out/: the work tree stands in")
	}
}
