package gitctx

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// This file holds the helpers the tests share: real repositories built
// with the git CLI in a temporary directory, isolated from the user's and
// the system's configuration, with a fixed identity and fixed dates so
// that every run makes the same commits.
//
// go-cmp is not a requirement of the module (and go.mod is not ours to
// change), so values are compared with reflect.DeepEqual and printed with
// %+v.

// testRepo is a repository under construction.
type testRepo struct {
	t       testing.TB
	dir     string
	commits int
}

// isolateGit points git at an empty global configuration and no system
// one, for the test's git commands and gitctx's alike.
func isolateGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	home := t.TempDir()
	global := filepath.Join(home, "gitconfig")
	if err := os.WriteFile(global, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_INDEX_FILE", "")
	os.Unsetenv("GIT_INDEX_FILE")
}

// newTestRepo makes an empty repository on branch main.
func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	isolateGit(t)
	r := &testRepo{t: t, dir: filepath.Join(t.TempDir(), "repo")}
	if err := os.Mkdir(r.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("init", "-q", "-b", "main")
	configure(r)
	return r
}

// configure sets the identity and the settings that keep a test stable.
func configure(r *testRepo) {
	r.t.Helper()
	for _, kv := range [][2]string{
		{"user.name", "Ada Tester"}, {"user.email", "ada@example.com"},
		{"commit.gpgsign", "false"}, {"init.defaultBranch", "main"},
		{"core.autocrlf", "false"}, {"protocol.file.allow", "always"},
	} {
		r.git("config", kv[0], kv[1])
	}
}

// git runs git in the repository and returns its standard output.
func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	out, err := r.gitErr(args...)
	if err != nil {
		r.t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

func (r *testRepo) gitErr(args ...string) (string, error) {
	date := fmt.Sprintf("2024-01-%02dT12:00:00Z", 1+r.commits%28)
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=Ada Tester", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME=Ada Tester", "GIT_COMMITTER_EMAIL=ada@example.com", "GIT_COMMITTER_DATE="+date)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%w: %s", err, stderr.String())
	}
	return string(out), nil
}

// rev resolves a revision to a full id.
func (r *testRepo) rev(rev string) string {
	r.t.Helper()
	return strings.TrimSpace(r.git("rev-parse", "--verify", rev))
}

// write writes a file of the work tree, making its directories.
func (r *testRepo) write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// symlink replaces name with a symbolic link to target.
func (r *testRepo) symlink(target, name string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.RemoveAll(p); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		r.t.Fatal(err)
	}
}

// remove deletes a file of the work tree.
func (r *testRepo) remove(name string) {
	r.t.Helper()
	if err := os.Remove(filepath.Join(r.dir, filepath.FromSlash(name))); err != nil {
		r.t.Fatal(err)
	}
}

// commit stages everything and commits it, returning the new commit's id.
func (r *testRepo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	r.commits++
	return r.rev("HEAD")
}

// open opens the repository with gitctx and closes it after the test.
func (r *testRepo) open() *Repo {
	r.t.Helper()
	return openRepo(r.t, r.dir)
}

func openRepo(t testing.TB, dir string) *Repo {
	t.Helper()
	repo, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { _ = repo.Close() })
	return repo
}

// closeChange closes a change after the test.
func closeChange(t testing.TB, c *Change) *Change {
	t.Helper()
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

// fileSum is what a test checks of a File, by value.
type fileSum struct {
	Path, OldPath    string
	Status           Status
	OldMode, NewMode uint32
}

func summarize(files []*File) []fileSum {
	var out []fileSum
	for _, f := range files {
		out = append(out, fileSum{f.Path, f.OldPath, f.Status, f.OldMode, f.NewMode})
	}
	return out
}

// byPath finds a file of a change by its path.
func byPath(t testing.TB, c *Change, path string) *File {
	t.Helper()
	for _, f := range c.Files {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("no file %q among %+v", path, summarize(c.Files))
	return nil
}

// allPatches collects the patch of every file, by path.
func allPatches(t testing.TB, c *Change, maxBytes int64) map[string]*Patch {
	t.Helper()
	got := map[string]*Patch{}
	err := c.Patches(context.Background(), func(*File) bool { return true }, maxBytes, func(f *File, p *Patch) error {
		if _, dup := got[f.Path]; dup {
			t.Errorf("Patches: %q delivered twice", f.Path)
		}
		got[f.Path] = p
		return nil
	})
	if err != nil {
		t.Fatalf("Patches: %v", err)
	}
	return got
}

// lineTexts renders the lines of a patch as "+text", "-text", " text".
func lineTexts(p *Patch) []string {
	var out []string
	for _, h := range p.Hunks {
		for _, l := range h.Lines {
			out = append(out, string(l.Op)+l.Text)
		}
	}
	return out
}

// checkEqual reports a difference between got and want.
func checkEqual(t testing.TB, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got: %+v\nwant: %+v", what, got, want)
	}
}

// readFile reads a file and fails the test on an error.
func readFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
