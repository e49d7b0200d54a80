package gitctx

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTreeRange(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "a\n")
	r.Write("dir/b.txt", "b\n")
	r.Commit("first")
	r.Write("a.txt", "a, changed\n")
	r.symlink("a.txt", "link")
	head := r.Commit("second")
	r.Write("a.txt", "uncommitted, not in the range\n")
	r.Write("untracked.txt", "not in the range\n")

	c, err := r.open().SelectRange(context.Background(), "HEAD~1..HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	tree, err := c.Tree(context.Background())
	if err != nil {
		t.Fatalf("Tree: %v", err)
	}
	checkEqual(t, "Tree", tree, []TreeEntry{
		{Path: "a.txt", Mode: ModeRegular, ID: r.Rev(head + ":a.txt")},
		{Path: "dir/b.txt", Mode: ModeRegular, ID: r.Rev(head + ":dir/b.txt")},
		{Path: "link", Mode: ModeSymlink, ID: r.Rev(head + ":link")},
	})
	want := map[string]string{"a.txt": "a, changed\n", "dir/b.txt": "b\n", "link": "a.txt"}
	for _, e := range tree {
		_, data, err := c.ReadTree(context.Background(), e, -1)
		if err != nil || string(data) != want[e.Path] {
			t.Errorf("ReadTree(%s) = %q, %v; want %q", e.Path, data, err, want[e.Path])
		}
	}
	size, data, err := c.ReadTree(context.Background(), tree[0], 2)
	if !errors.Is(err, ErrTooLarge) || size != int64(len(want["a.txt"])) || data != nil {
		t.Errorf("ReadTree(a.txt, limit 2) = %d, %q, %v; want the size, no data, ErrTooLarge", size, data, err)
	}
}

// TestTreeWorktree: a work-tree change's tree is the index and the
// untracked files its selection saw (listed once: a file written after the
// selection is not in it, as it is not in the change).
func TestTreeWorktree(t *testing.T) {
	r := worktreeRepo(t)
	c := closeChange(t, mustWorktree(t, r.open()))
	r.Write("later.txt", "written after the selection\n")
	tree, err := c.Tree(context.Background())
	if err != nil {
		t.Fatalf("Tree: %v", err)
	}
	got := map[string]string{}
	for _, e := range tree {
		_, data, err := c.ReadTree(context.Background(), e, -1)
		if err != nil {
			t.Errorf("ReadTree(%s): %v", e.Path, err)
		}
		got[e.Path] = string(data)
	}
	checkEqual(t, "work tree", got, map[string]string{
		".gitignore": "*.log\n", "staged.txt": "two\n", "unstaged.txt": "two\n", "untracked dir/new.txt": "brand new\n",
	})

	size, data, err := c.ReadTree(context.Background(), TreeEntry{Path: "untracked dir/new.txt", Mode: ModeRegular}, 3)
	if !errors.Is(err, ErrTooLarge) || size != int64(len("brand new\n")) || data != nil {
		t.Errorf("ReadTree(new.txt, limit 3) = %d, %q, %v; want the size, no data, ErrTooLarge", size, data, err)
	}
	size, data, err = c.Read(context.Background(), byPath(t, c, "unstaged.txt"), New, 0)
	if !errors.Is(err, ErrTooLarge) || size != int64(len("two\n")) || data != nil {
		t.Errorf("Read(unstaged.txt, New, limit 0) = %d, %q, %v; want the size, no data, ErrTooLarge", size, data, err)
	}
}

// TestTreeStagedIntentToAdd: a staged change's tree leaves out a file
// added with `git add -N` (the index holds the empty blob for it, nothing
// staged), but keeps an empty file that is staged, also from an index
// named by GIT_INDEX_FILE relative to the root (as git commit hands a
// hook one), whatever .git/index holds.
func TestTreeStagedIntentToAdd(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "a\n")
	r.Commit("first")
	r.Write("a.txt", "a, staged\n")
	r.Write("empty.txt", "")
	r.Git("add", "a.txt", "empty.txt")
	r.Write("later.txt", "not staged yet\n")
	r.Git("add", "-N", "later.txt")
	want := []string{"a.txt", "empty.txt"}
	for _, indexFile := range []string{"", "private-index"} {
		if indexFile != "" {
			data, err := os.ReadFile(filepath.Join(r.Dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(r.Dir, indexFile), data, 0o644); err != nil {
				t.Fatal(err)
			}
			r.Git("add", "later.txt") // staged in .git/index, not in the one named
			t.Setenv("GIT_INDEX_FILE", indexFile)
		}
		c := closeChange(t, mustSelect(t)(r.open().SelectStaged(t.Context())))
		tree, err := c.Tree(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range tree {
			got = append(got, e.Path)
		}
		checkEqual(t, "staged tree (index "+indexFile+")", got, want)
	}
}

func TestReadBaseFile(t *testing.T) {
	r := newTestRepo(t)
	r.Write("config.toml", "base = true\n")
	r.Commit("first")
	r.Write("config.toml", "base = false # rewritten by the change\n")
	r.Commit("second")
	c, err := r.open().SelectRange(context.Background(), "HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	data, ok, err := c.ReadBaseFile(context.Background(), "config.toml", -1)
	if err != nil || !ok || string(data) != "base = true\n" {
		t.Errorf("ReadBaseFile(config.toml) = %q, %v, %v; want the base's version", data, ok, err)
	}
	if data, ok, err := c.ReadBaseFile(context.Background(), "missing.toml", -1); err != nil || ok || data != nil {
		t.Errorf("ReadBaseFile(missing.toml) = %q, %v, %v; want not ok", data, ok, err)
	}
	if _, _, err := c.ReadBaseFile(context.Background(), "config.toml", 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadBaseFile(limit 4) = %v, want ErrTooLarge", err)
	}
	for _, p := range []string{"../x", "/etc/passwd", ".git/config"} {
		if _, _, err := c.ReadBaseFile(context.Background(), p, -1); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("ReadBaseFile(%q) = %v, want ErrUnsafePath", p, err)
		}
	}
}

// TestReadTreeToSearch: where the work tree stands in for a range's head
// commit, the files it holds as the commit does are read from disk (a file
// checked out with CRLF line ends shows them), and the others from the
// commit (an edited file reads as committed); every file is read once.
func TestReadTreeToSearch(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{".gitattributes": "*.txt text eol=crlf\n", "a.go": "A\n", "b.go": "B\n", "c.txt": "C\n"})
	r.Commit("one")
	r.Write("a.go", "A2\n")
	r.Commit("two")
	r.remove("c.txt")
	r.Git("checkout", "--", "c.txt") // checked out again, with CRLF
	r.Write("b.go", "edited\n")

	ch := closeChange(t, mustSelect(t)(r.open().SelectRange(t.Context(), "HEAD~1..HEAD")))
	tree, err := ch.Tree(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	read := func(how func(context.Context, []TreeEntry, int64, func(TreeEntry, []byte, error) error) error) map[string]string {
		kept := map[string][]byte{} // the data handed over is the caller's to keep
		err := how(t.Context(), tree, 1<<20, func(e TreeEntry, data []byte, err error) error {
			if err != nil {
				t.Errorf("%s: %v", e.Path, err)
			}
			if _, ok := kept[e.Path]; ok {
				t.Errorf("%s read twice", e.Path)
			}
			kept[e.Path] = data
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for p, data := range kept {
			got[p] = string(data)
		}
		return got
	}
	want := map[string]string{".gitattributes": "*.txt text eol=crlf\n", "a.go": "A2\n", "b.go": "B\n", "c.txt": "C\n"}
	if got := read(ch.ReadTreeEach); !maps.Equal(got, want) {
		t.Errorf("ReadTreeEach: %q, want %q", got, want)
	}
	want["c.txt"] = "C\r\n"
	if got := read(ch.ReadTreeToSearch); !maps.Equal(got, want) {
		t.Errorf("ReadTreeToSearch: %q, want %q", got, want)
	}
	// a file git is told to leave alone, then removed: diff-index does not
	// report it, so it is read from the commit when the work tree lacks it
	r.Git("update-index", "--skip-worktree", "a.go")
	r.remove("a.go")
	if got := read(ch.ReadTreeToSearch); !maps.Equal(got, want) {
		t.Errorf("ReadTreeToSearch, a.go skip-worktree and gone: %q, want %q", got, want)
	}
}

// TestReadTreeToSearchListsNoWorkTree: reading a range's files from the
// work tree to search them lists no work tree (its untracked files cost a
// walk of every directory): what is only searched is not checked for
// filters (see filtered).
func TestReadTreeToSearchListsNoWorkTree(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{".gitattributes": "*.cfg filter=x\n", "a.go": "A\n", "b.cfg": "B\n"})
	r.Commit("one")
	r.Write("a.go", "A2\n")
	r.Commit("two")
	ch := closeChange(t, mustSelect(t)(r.open().SelectRange(t.Context(), "HEAD~1..HEAD")))
	tree, err := ch.Tree(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(t.TempDir(), "trace")
	t.Setenv("GIT_TRACE", trace)
	err = ch.ReadTreeToSearch(t.Context(), tree, 1<<20, func(TreeEntry, []byte, error) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(trace)
	if strings.Contains(string(data), "ls-files") {
		t.Errorf("ReadTreeToSearch listed the work tree:\n%s", data)
	}
}
