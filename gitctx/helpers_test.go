package gitctx

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gitctx/gitctx/gitctx/gittest"
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
type testRepo struct{ *gittest.Repo }

// newTestRepo makes an empty repository on branch main.
func newTestRepo(t testing.TB) *testRepo { return &testRepo{gittest.New(t, "repo")} }

// symlink replaces name with a symbolic link to target.
func (r *testRepo) symlink(target, name string) {
	r.TB.Helper()
	p := filepath.Join(r.Dir, filepath.FromSlash(name))
	if err := os.RemoveAll(p); err != nil {
		r.TB.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		r.TB.Fatal(err)
	}
}

// remove deletes a file of the work tree.
func (r *testRepo) remove(name string) {
	r.TB.Helper()
	if err := os.Remove(filepath.Join(r.Dir, filepath.FromSlash(name))); err != nil {
		r.TB.Fatal(err)
	}
}

// open opens the repository with gitctx and closes it after the test.
func (r *testRepo) open() *Repo {
	r.TB.Helper()
	return openRepo(r.TB, r.Dir)
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
