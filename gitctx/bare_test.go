package gitctx

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBareRepository: a bare repository (a server's, where a pre-receive
// hook runs) opens, and a range of its commits is read from its objects
// alone, as in a clone with a work tree; what needs a work tree is
// refused saying so.
func TestBareRepository(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.go", "package a\n\nfunc A() int { return 1 }\n")
	r.Write("b.go", "package a\n\nfunc B() int { return A() }\n")
	r.Commit("first")
	r.Write("a.go", "package a\n\nfunc A() int { return 2 }\n")
	r.Commit("second")
	bare := filepath.Join(t.TempDir(), "srv.git")
	r.Git("clone", "-q", "--bare", r.Dir, bare)

	repo := openRepo(t, filepath.Join(bare, "refs")) // found from inside, as git finds it
	if !repo.Bare || repo.Root != "" {
		t.Fatalf("Open(%s): Bare %v, Root %q; want a bare repository with no root", bare, repo.Bare, repo.Root)
	}
	if got, want := realPath(t, repo.Top()), realPath(t, bare); got != want {
		t.Errorf("Top() = %s, want the repository's directory %s", got, want)
	}
	if got := repo.Name(); got != "srv" {
		t.Errorf("Name() = %q, want srv", got)
	}

	c := closeChange(t, mustSelect(t)(repo.SelectRange(t.Context(), "HEAD~1..HEAD")))
	checkEqual(t, "files", summarize(c.Files), []fileSum{{Path: "a.go", Status: Modified, OldMode: ModeRegular, NewMode: ModeRegular}})
	if got := lineTexts(allPatches(t, c, -1)["a.go"]); !slices.Contains(got, "+func A() int { return 2 }") {
		t.Errorf("patch of a.go: %q", got)
	}
	_, data, err := c.Read(t.Context(), c.Files[0], New, -1)
	if err != nil || !strings.Contains(string(data), "return 2") {
		t.Errorf("Read(a.go, New) = %q, %v; want the second commit's", data, err)
	}
	tree, err := c.Tree(t.Context())
	if err != nil || len(tree) != 2 {
		t.Fatalf("Tree() = %+v, %v; want a.go and b.go", tree, err)
	}
	var found []string
	err = c.Grep(t.Context(), []string{"A"}, func(path string, _ []byte) { found = append(found, path) })
	if slices.Sort(found); err != nil || !slices.Equal(found, []string{"a.go", "b.go"}) {
		t.Errorf("Grep(A) found %q, %v; want a.go and b.go", found, err)
	}

	for name, sel := range map[string]func() (*Change, error){
		"the work tree": func() (*Change, error) { return repo.SelectWorktree(t.Context()) },
		"the index":     func() (*Change, error) { return repo.SelectStaged(t.Context()) },
	} {
		if _, err := sel(); err == nil || !strings.Contains(err.Error(), "a bare repository, which has no work tree: pack a range") {
			t.Errorf("selecting %s: %v; want the bare repository's refusal", name, err)
		}
	}
	if _, _, err := repo.ReadWorktree("a.go", -1); err == nil {
		t.Error("ReadWorktree(a.go) in a bare repository: no error")
	}
	if dir, err := repo.HooksDir(t.Context()); err != nil || realPath(t, filepath.Dir(dir)) != realPath(t, bare) || filepath.Base(dir) != "hooks" {
		t.Errorf("HooksDir() = %s, %v; want the repository's hooks directory", dir, err)
	}
}

func realPath(t *testing.T, p string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return real
}
