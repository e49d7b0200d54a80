package gitctx

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestTextPatches checks that a file git shows as binary because its
// attributes say so has its diff read as text, in a range, the index and
// the work tree, a renamed one with its old path; the files not asked for
// are left out.
func TestTextPatches(t *testing.T) {
	r := newTestRepo(t)
	lock := func(v string) string {
		return "# lock\n" + strings.Repeat("pkg a\n", 5) + "version " + v + "\n" + strings.Repeat("pkg z\n", 5)
	}
	r.WriteAll(map[string]string{
		".gitattributes": "*.lock -diff\nnotes.txt binary\n",
		"deps.lock":      lock("1.0"),
		"notes.txt":      "one\ntwo\n",
		"old.lock":       lock("1.0"),
		"main.go":        "package main\n",
	})
	r.Commit("base")
	r.WriteAll(map[string]string{"deps.lock": lock("1.1"), "notes.txt": "one\nTWO\n", "main.go": "package main\n\n"})
	r.Git("mv", "old.lock", "new.lock")
	r.Write("new.lock", lock("2.0"))
	r.Commit("change")
	want := map[string]string{
		"deps.lock": "-version 1.0\n+version 1.1\n",
		"notes.txt": "-two\n+TWO\n",
		"new.lock":  "-version 1.0\n+version 2.0\n",
	}
	repo := r.open()
	check := func(name string, c *Change) {
		t.Helper()
		var asked []*File
		binary := map[string]bool{}
		err := c.Patches(t.Context(), func(*File) bool { return true }, 0, func(f *File, p *Patch) error {
			binary[f.Path] = p.Binary
			if _, ok := want[f.Path]; ok && f.Path != "notes.txt" {
				asked = append(asked, f)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !binary["deps.lock"] || !binary["new.lock"] || !binary["notes.txt"] || binary["main.go"] {
			t.Fatalf("%s: git's binary files %v, want the two locks and notes.txt", name, binary)
		}
		got := textPatches(t, c, asked)
		if len(got) != 2 || got["deps.lock"] != want["deps.lock"] || got["new.lock"] != want["new.lock"] {
			t.Errorf("%s: text patches %q, want deps.lock's and new.lock's of %q", name, got, want)
		}
	}
	check("range", closeChange(t, mustSelect(t)(repo.SelectRange(t.Context(), "HEAD~1..HEAD"))))

	r.Write("notes.txt", "one\ntwo\n")
	r.Git("add", "notes.txt")
	r.Write("deps.lock", lock("1.0"))
	staged := closeChange(t, mustSelect(t)(repo.SelectStaged(t.Context())))
	if got := textPatches(t, staged, staged.Files); !reflect.DeepEqual(got, map[string]string{"notes.txt": "-TWO\n+two\n"}) {
		t.Errorf("staged: text patches %q, want notes.txt's", got)
	}
	wt := closeChange(t, mustSelect(t)(repo.SelectWorktree(t.Context())))
	if got := textPatches(t, wt, wt.Files); !reflect.DeepEqual(got, map[string]string{"deps.lock": "-version 1.1\n+version 1.0\n", "notes.txt": "-TWO\n+two\n"}) {
		t.Errorf("work tree: text patches %q, want deps.lock's and notes.txt's", got)
	}
}

// textPatches reads the text patches of files and returns each one's
// added and deleted lines.
func textPatches(t *testing.T, c *Change, files []*File) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := c.TextPatches(context.Background(), files, 0, func(f *File, p *Patch) error {
		if p.Binary || p.Oversize {
			t.Errorf("%s: binary %t, oversize %t", f.Path, p.Binary, p.Oversize)
		}
		var b strings.Builder
		for _, h := range p.Hunks {
			for _, l := range h.Lines {
				if l.Op != ' ' {
					b.WriteString(string(l.Op) + l.Text + "\n")
				}
			}
		}
		got[f.Path] = b.String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}
