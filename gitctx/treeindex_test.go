package gitctx

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTreeFromIndex: the index answers for a commit exactly when it holds
// that commit's tree, and then lists what `git ls-tree -r` lists, modes
// and ids and order alike; in every other state it does not answer.
func TestTreeFromIndex(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  func(r *testRepo) string // returns the commit asked about
		answer bool
	}{
		{"clean after a commit", func(r *testRepo) string { return r.Commit("two") }, true},
		{"files, links, executables, a gitlink, names that sort oddly", func(r *testRepo) string {
			r.WriteAll(map[string]string{"a-b": "x\n", "a/c": "y\n", "a.txt": "z\n", "bin/run": "#!/bin/sh\n", "ü/ñ.txt": "u\n"})
			r.Git("update-index", "--chmod=+x", "--add", "bin/run")
			r.symlink("a.txt", "link")
			r.Git("update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("1", 40)+",sub")
			return r.Commit("two")
		}, true},
		{"a staged change", func(r *testRepo) string {
			head := r.Commit("two")
			r.Write("f.txt", "staged\n")
			r.Git("add", "f.txt")
			return head
		}, false},
		{"another commit", func(r *testRepo) string {
			r.Commit("two")
			return r.Git("rev-parse", "HEAD~1")
		}, false},
		{"intent to add", func(r *testRepo) string {
			head := r.Commit("two")
			r.Write("new.txt", "new\n")
			r.Git("add", "-N", "new.txt")
			return head
		}, false},
		{"skip-worktree entries of a sparse checkout", func(r *testRepo) string {
			r.WriteAll(map[string]string{"in/a.txt": "a\n", "out/b.txt": "b\n"})
			head := r.Commit("two")
			r.Git("sparse-checkout", "set", "--no-cone", "/in/")
			return head
		}, true},
		{"unmerged", func(r *testRepo) string {
			r.Git("checkout", "-q", "-b", "other")
			r.Write("f.txt", "other\n")
			r.Commit("other")
			r.Git("checkout", "-q", "-")
			r.Write("f.txt", "mine\n")
			head := r.Commit("mine")
			if _, err := r.GitErr("merge", "-q", "other"); err == nil {
				r.TB.Fatal("the merge did not conflict")
			}
			return head
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRepo(t)
			r.Write("f.txt", "one\n")
			r.Commit("one")
			r.Write("f.txt", "two\n")
			commit := strings.TrimSpace(tc.setup(r))
			repo := r.open()
			got, ok := repo.treeFromIndex(t.Context(), commit)
			if ok != tc.answer {
				t.Fatalf("the index answered: %v, want %v", ok, tc.answer)
			}
			if !ok {
				return
			}
			want, err := repo.lsTree(t.Context(), commit)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("from the index:\n%v\nls-tree:\n%v", got, want)
			}
		})
	}
}

// TestTreeFromIndexRefuses: an index named by GIT_INDEX_FILE, a broken one
// and SHA-256 ids are not read.
func TestTreeFromIndexRefuses(t *testing.T) {
	r := newTestRepo(t)
	r.Write("f.txt", "one\n")
	head := strings.TrimSpace(r.Commit("one"))
	repo := r.open()
	if _, ok := repo.treeFromIndex(t.Context(), head); !ok {
		t.Fatal("a clean index did not answer")
	}
	if _, ok := repo.treeFromIndex(t.Context(), strings.Repeat("a", 64)); ok {
		t.Error("a SHA-256 id was answered")
	}
	t.Setenv("GIT_INDEX_FILE", filepath.Join(r.Dir, ".git", "index"))
	if _, ok := repo.treeFromIndex(t.Context(), head); ok {
		t.Error("GIT_INDEX_FILE set: the index was read")
	}
	os.Unsetenv("GIT_INDEX_FILE")
	if err := os.WriteFile(filepath.Join(r.Dir, ".git", "index"), []byte("DIRC not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := repo.treeFromIndex(t.Context(), head); ok {
		t.Error("a broken index was read")
	}
}

// TestTreeFromIndexWorktree: a linked work tree's own index answers for
// its own checkout.
func TestTreeFromIndexWorktree(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.txt": "a\n", "d/b.txt": "b\n"})
	r.Commit("one")
	r.Write("a.txt", "a2\n")
	r.Commit("two")
	dir := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", "--detach", dir, "HEAD~1")
	repo, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.TrimSpace(r.Git("rev-parse", "HEAD~1"))
	got, ok := repo.treeFromIndex(t.Context(), old)
	want, err := repo.lsTree(t.Context(), old)
	if !ok || err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("linked work tree: answered %v, %v\nfrom the index %v\nls-tree %v", ok, err, got, want)
	}
	if _, ok := repo.treeFromIndex(t.Context(), strings.TrimSpace(r.Git("rev-parse", "HEAD"))); ok {
		t.Error("the linked work tree's index answered for the main one's commit")
	}
}
