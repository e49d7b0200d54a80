package gitctx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Bad and hostile input for change selection (docs/robustness.md maps each
// case of reliability-anchors §5 to its tests).

// TestReadPatchNotAPatch: text without a single file header is the wrong
// file, not an empty change; an empty patch (git diff of nothing) is an
// empty change.
func TestReadPatchNotAPatch(t *testing.T) {
	for _, text := range []string{"just some notes\n", "From 1234 Mon Sep 17 00:00:00 2001\nSubject: x\n\nno diff here\n"} {
		_, err := ReadPatch(context.Background(), nil, "notes.txt", strings.NewReader(text))
		if !errors.Is(err, ErrBadPatch) || !strings.Contains(err.Error(), "notes.txt") || !strings.Contains(err.Error(), "git diff") {
			t.Errorf("ReadPatch(%q) = %v; want ErrBadPatch naming the file and what to give", text, err)
		}
	}
	for _, text := range []string{"", "\n", "  \n\n"} {
		c, err := ReadPatch(context.Background(), nil, "empty.diff", strings.NewReader(text))
		if err != nil || len(c.Files) != 0 {
			t.Errorf("ReadPatch(%q) = %v, %v; want an empty change", text, c, err)
		}
	}
}

// TestDetachedHead: a pull request's checkout is a detached HEAD; every
// kind of change selects there as on a branch, with full commit ids
// (§5 case 16).
func TestDetachedHead(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "1\n")
	r.Commit("first")
	r.Write("a.txt", "2\n")
	head := r.Commit("second")
	r.Git("checkout", "-q", "--detach", "HEAD")
	repo := r.open()
	c, err := repo.SelectRange(context.Background(), "HEAD~1..HEAD")
	if err != nil || len(c.Files) != 1 || c.Source.Head != head || len(c.Source.Base) != 40 {
		t.Fatalf("SelectRange on a detached HEAD = %+v, %v", c, err)
	}
	closeChange(t, c)
	r.Write("b.txt", "staged\n")
	r.Git("add", "b.txt")
	r.Write("c.txt", "untracked\n")
	staged, err := repo.SelectStaged(context.Background())
	if err != nil || len(staged.Files) != 1 || staged.Files[0].Path != "b.txt" {
		t.Fatalf("SelectStaged on a detached HEAD = %+v, %v", staged, err)
	}
	closeChange(t, staged)
	wt := closeChange(t, mustWorktree(t, repo))
	if len(wt.Files) != 2 {
		t.Errorf("SelectWorktree on a detached HEAD: %d files, want b.txt and c.txt", len(wt.Files))
	}
}

// TestHostileRefNames: branch names and commit subjects that a shell would
// run are only data: they select the change, show as they are, and run
// nothing (§5 case 18).
func TestHostileRefNames(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "1\n")
	r.Commit("first")
	pwned := filepath.Join(t.TempDir(), "pwned")
	names := []string{
		"$(touch${IFS}" + pwned + ")",
		"`touch${IFS}" + pwned + "`",
		`zzz";touch${IFS}` + pwned + `;#`,
		"x|touch${IFS}" + pwned,
	}
	subject := "$(touch " + pwned + ") `touch " + pwned + "` \"; touch " + pwned + "; #"
	for _, name := range names {
		r.Git("checkout", "-q", "-b", name, "main")
		r.Write("b.txt", name+"\n")
		r.Commit(subject)
	}
	repo := r.open()
	for _, name := range names {
		for _, spec := range []string{name, "main.." + name, "main..." + name} {
			c, err := repo.SelectRange(context.Background(), spec)
			if err != nil {
				t.Errorf("SelectRange(%q): %v", spec, err)
				continue
			}
			if c.Source.Spec != spec || len(c.Files) != 1 {
				t.Errorf("SelectRange(%q) = spec %q, %d files", spec, c.Source.Spec, len(c.Files))
			}
			if err := c.WaitCommits(); err != nil {
				t.Errorf("SelectRange(%q): commits: %v", spec, err)
			}
			if spec != name && (len(c.Commits) != 1 || c.Commits[0].Subject != subject) {
				t.Errorf("SelectRange(%q): commits %+v, want the subject as it is", spec, c.Commits)
			}
			closeChange(t, c)
		}
	}
	if _, err := os.Stat(pwned); !os.IsNotExist(err) {
		t.Errorf("a branch name or subject was run: %s exists", pwned)
	}
}

// TestSymlinkLoopsAndDirectories: links that loop, point at a directory,
// up out of the repository or at a system file read as their target text,
// through every door, without following and without hanging (§5 case 9).
func TestSymlinkLoopsAndDirectories(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "a\n")
	r.Commit("first")
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte(marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{"loop1": "loop2", "loop2": "loop1", "self": "self", "up": "..", "outdir": outside, "passwd": "/etc/passwd", "dir/deep": "../../.."}
	for name, target := range links {
		if err := os.MkdirAll(filepath.Join(r.Dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		r.symlink(target, name)
	}
	r.Commit("links")
	for name, target := range links {
		r.symlink(target, "untracked-"+strings.ReplaceAll(name, "/", "-"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	repo := r.open()
	rng, err := repo.SelectRange(ctx, "HEAD~1..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	closeChange(t, rng)
	wt, err := repo.SelectWorktree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	closeChange(t, wt)
	for _, c := range []*Change{rng, wt} {
		for _, f := range c.Files {
			if f.NewMode != ModeSymlink {
				t.Errorf("%s: mode %o, want a symlink", f.Path, f.NewMode)
				continue
			}
			_, data, err := c.Read(ctx, f, New, 1<<20)
			name := strings.TrimPrefix(f.Path, "untracked-")
			if name == "dir-deep" {
				name = "dir/deep"
			}
			if err != nil || string(data) != links[name] {
				t.Errorf("Read(%s) = %q, %v; want the link text %q", f.Path, data, err, links[name])
			}
		}
	}
	if len(rng.Files) != len(links) || len(wt.Files) != len(links) {
		t.Errorf("%d files in the range, %d in the work tree; want %d each", len(rng.Files), len(wt.Files), len(links))
	}
	tree, err := rng.Tree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range tree {
		if _, data, err := rng.ReadTree(ctx, e, 1<<20); err == nil && strings.Contains(string(data), marker) {
			t.Errorf("ReadTree(%s) read through the link", e.Path)
		}
	}
	if ctx.Err() != nil {
		t.Fatal("reading the links did not finish in a minute")
	}
}

// TestEmptyRepository: a repository with no commit and nothing staged has
// an empty change to stage or take from the work tree, and no HEAD to
// name (§5 cases 14 and 16).
func TestEmptyRepository(t *testing.T) {
	r := newTestRepo(t)
	repo := r.open()
	staged, err := repo.SelectStaged(context.Background())
	if err != nil || len(staged.Files) != 0 {
		t.Fatalf("SelectStaged in an empty repository = %+v, %v", staged, err)
	}
	closeChange(t, staged)
	wt, err := repo.SelectWorktree(context.Background())
	if err != nil || len(wt.Files) != 0 {
		t.Fatalf("SelectWorktree in an empty repository = %+v, %v", wt, err)
	}
	closeChange(t, wt)
	for _, spec := range []string{"HEAD", "HEAD~1..HEAD", "@~3"} {
		_, err := repo.SelectRange(context.Background(), spec)
		if !errors.Is(err, ErrUnknownRevision) || !strings.Contains(err.Error(), "has no commits yet") || !strings.Contains(err.Error(), "--staged") {
			t.Errorf("SelectRange(%s) with no commit: %v; want ErrUnknownRevision saying the branch has no commits yet", spec, err)
		}
	}
	if _, err := repo.SelectRange(context.Background(), "main~1"); err == nil || strings.Contains(err.Error(), "no commits yet") {
		t.Errorf("SelectRange(main~1) with no commit: %v; want an unknown revision, not HEAD's branch", err)
	}
}
