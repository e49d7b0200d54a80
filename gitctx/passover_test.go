package gitctx

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestInDirNamed: a directory of the name at any depth and in any case;
// never the file's own name, never a name it merely starts with.
func TestInDirNamed(t *testing.T) {
	names := []string{"vendor", "node_modules"}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"vendor/a.go", true},
		{"Vendor/x/b.go", true},
		{"deep/node_modules/c.js", true},
		{"src/vendorish/d.go", false},
		{"vendor", false}, // a file named vendor
		{"src/vendor.go", false},
		{"a.go", false},
		{"", false},
	} {
		if got := InDirNamed(tc.path, names); got != tc.want {
			t.Errorf("InDirNamed(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	if InDirNamed("vendor/a.go", nil) {
		t.Error("InDirNamed with no names = true")
	}
}

// TestGrepPassOverDirs: once PrepareSearch names directories to pass over,
// every search of every kind of change leaves their files out, at any
// depth and in any case, and still finds the others: with the work tree
// standing in for a range's head or not, with suffixes or without, with
// fixed words or Perl-compatible patterns.
func TestGrepPassOverDirs(t *testing.T) {
	r := newTestRepo(t)
	files := map[string]string{
		"a.go":                   "Needle()\n",
		"src/vendorish/b.go":     "Needle()\n",
		"vendor/lib/c.go":        "Needle()\n",
		"Vendor/d.go":            "Needle()\n",
		"web/node_modules/e.go":  "Needle()\n",
		"docs/vendor":            "Needle\n", // a file, not a directory
		"notes[1]/f.go":          "Needle()\n",
		"changed/vendor/g.go":    "nothing\n",
		"changed/h.go":           "nothing\n",
		"more/vendor/deep/i.txt": "Needle\n",
	}
	r.WriteAll(files)
	r.Commit("one")
	r.WriteAll(map[string]string{"changed/vendor/g.go": "Needle()\n", "changed/h.go": "Needle()\n"})
	r.Commit("two")
	r.Git("add", "-A")
	want := []string{"a.go", "changed/h.go", "docs/vendor", "notes[1]/f.go", "src/vendorish/b.go"}
	wantGo := slices.DeleteFunc(slices.Clone(want), func(p string) bool { return p == "docs/vendor" })

	select_ := map[string]func(ctx context.Context) (*Change, error){
		"range":    func(ctx context.Context) (*Change, error) { return r.open().SelectRange(ctx, "HEAD~1..HEAD") },
		"staged":   func(ctx context.Context) (*Change, error) { return r.open().SelectStaged(ctx) },
		"worktree": func(ctx context.Context) (*Change, error) { return r.open().SelectWorktree(ctx) },
	}
	for _, kind := range []string{"range", "staged", "worktree"} {
		if kind == "range" {
			// the head's files differ from the work tree's: searched in the commit
			r.WriteAll(map[string]string{"changed/h.go": "edited\n", "changed/vendor/g.go": "edited\n"})
		} else {
			r.WriteAll(map[string]string{"changed/h.go": "Needle()\n", "changed/vendor/g.go": "Needle()\n"})
		}
		ch := closeChange(t, mustSelect(t)(select_[kind](t.Context())))
		ch.PrepareSearch(t.Context(), []string{"vendor", "node_modules"})
		for _, tc := range []struct {
			search string
			run    func(match func(string, []byte)) error
			want   []string
		}{
			{"Grep", func(m func(string, []byte)) error { return ch.Grep(t.Context(), []string{"Needle"}, m) }, want},
			{"GrepIn .go", func(m func(string, []byte)) error {
				return ch.GrepIn(t.Context(), []string{".go"}, []string{"Needle"}, m)
			}, wantGo},
			{"GrepPerl", func(m func(string, []byte)) error { return ch.GrepPerl(t.Context(), []string{`Needle`}, m) }, want},
		} {
			var got []string
			err := tc.run(func(p string, _ []byte) {
				if !slices.Contains(got, p) {
					got = append(got, p)
				}
			})
			if errors.Is(err, ErrNoPerl) {
				continue // git built without PCRE
			}
			if err != nil {
				t.Fatalf("%s %s: %v", kind, tc.search, err)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s %s found %q, want %q", kind, tc.search, got, tc.want)
			}
		}
	}
}
