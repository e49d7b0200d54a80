package gitctx

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// TestListFiles lists tracked and untracked files, with what .gitignore
// excludes left out, under directories and over the whole tree.
func TestListFiles(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{
		".gitignore":       "*.log\nbuild/\n",
		"a.txt":            "a\n",
		"docs/guide.md":    "guide\n",
		"docs/deep/x.md":   "x\n",
		"docs/tracked.log": "tracked although ignored\n",
	})
	r.Git("add", "-f", "docs/tracked.log")
	r.Commit("first")
	r.WriteAll(map[string]string{
		"docs/new.md":    "untracked\n",
		"docs/debug.log": "ignored\n",
		"build/out.txt":  "ignored directory\n",
		"docsx/other.md": "a sibling whose name starts like docs\n",
	})
	repo := r.open()
	tests := []struct {
		name      string
		untracked bool
		paths     []string
		want      []string
	}{
		{"tracked, whole tree", false, nil,
			[]string{".gitignore", "a.txt", "docs/deep/x.md", "docs/guide.md", "docs/tracked.log"}},
		{"with untracked, whole tree", true, []string{"."},
			[]string{".gitignore", "a.txt", "docs/deep/x.md", "docs/guide.md", "docs/new.md", "docs/tracked.log", "docsx/other.md"}},
		{"with untracked, one directory", true, []string{"docs"},
			[]string{"docs/deep/x.md", "docs/guide.md", "docs/new.md", "docs/tracked.log"}},
		{"one file", true, []string{"docs/guide.md"}, []string{"docs/guide.md"}},
		{"an ignored file", true, []string{"docs/debug.log"}, nil},
		{"a missing path", true, []string{"nope"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := repo.ListFiles(context.Background(), tt.untracked, tt.paths...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ListFiles(%v, %q) = %q, want %q", tt.untracked, tt.paths, got, tt.want)
			}
		})
	}
	for _, p := range []string{"../x", "/etc", ".git"} {
		if _, err := repo.ListFiles(context.Background(), true, p); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("ListFiles(%q) error = %v, want ErrUnsafePath", p, err)
		}
	}
}

// TestReadWorktreeExported checks the size limit (checked before reading)
// and that a link reads as its target text.
func TestReadWorktreeExported(t *testing.T) {
	r := newTestRepo(t)
	r.Write("big.txt", "0123456789\n")
	r.Commit("first")
	r.symlink("big.txt", "link")
	repo := r.open()
	size, data, err := repo.ReadWorktree("big.txt", 5)
	if !errors.Is(err, ErrTooLarge) || size != 11 || data != nil {
		t.Errorf("ReadWorktree over the limit = %d, %q, %v; want 11, nil, ErrTooLarge", size, data, err)
	}
	if _, data, err = repo.ReadWorktree("link", -1); err != nil || string(data) != "big.txt" {
		t.Errorf("ReadWorktree(link) = %q, %v; want the target text", data, err)
	}
	if _, _, err = repo.ReadWorktree("../big.txt", -1); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("ReadWorktree(../big.txt) error = %v, want ErrUnsafePath", err)
	}
}
