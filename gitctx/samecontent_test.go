package gitctx

import (
	"strings"
	"testing"
)

// TestReadPatchSameContent: git writes no index line, so no blob id, for a
// rename or copy of 100% similarity or a change of mode alone. The file's
// content is the same on both sides, and is read from the repository: at
// the old path (the patch not applied yet), else at the new one (applied,
// or committed). Where neither holds it, the error says why, naming the
// file once.
func TestReadPatchSameContent(t *testing.T) {
	const content = "one\ntwo\n"
	for _, tt := range []struct {
		name  string
		setup func(r *testRepo) string // makes the patch, and leaves the repository as the test reads it
		path  string
		want  string // the content on both sides; "" for an error
	}{
		{"a rename, committed", func(r *testRepo) string {
			r.Git("mv", "f.txt", "g.txt")
			r.Commit("rename")
			return r.Git("diff", "-M", "HEAD~1", "HEAD")
		}, "g.txt", content},
		{"a rename, not applied", func(r *testRepo) string {
			r.Git("mv", "f.txt", "g.txt")
			patch := r.Git("diff", "--cached", "-M")
			r.Git("reset", "-q", "--hard")
			return patch
		}, "g.txt", content},
		{"a copy", func(r *testRepo) string {
			r.Write("d.txt", content)
			r.Commit("copy")
			return r.Git("diff", "-C", "--find-copies-harder", "HEAD~1", "HEAD")
		}, "d.txt", content},
		{"a mode change", func(r *testRepo) string {
			r.Git("update-index", "--chmod=+x", "f.txt")
			return r.Git("diff", "--cached")
		}, "f.txt", content},
		{"a rename of a file the repository does not have", func(r *testRepo) string {
			return "diff --git a/x.txt b/y.txt\nsimilarity index 100%\nrename from x.txt\nrename to y.txt\n"
		}, "y.txt", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestRepo(t)
			r.Write("f.txt", content)
			r.Commit("first")
			patch := tt.setup(r)
			if strings.Contains(patch, "\nindex ") {
				t.Fatalf("the patch has an index line:\n%s", patch)
			}
			c := readPatch(t, r.open(), patch)
			f := byPath(t, c, tt.path)
			for _, side := range []Side{Old, New} {
				_, data, err := c.Read(t.Context(), f, side, -1)
				switch {
				case tt.want == "" && err == nil:
					t.Errorf("Read(%s, %s) = %q; want an error", f.Path, sideName(side), data)
				case tt.want == "" && side == New:
					msg := err.Error()
					if !strings.Contains(msg, "names no blob") || !strings.Contains(msg, "no file at x.txt or y.txt") || strings.Count(msg, "y.txt") != 2 {
						t.Errorf("Read(%s, new): %q; want it to say the patch names no blob and the repository has neither name", f.Path, msg)
					}
				case tt.want != "" && (err != nil || string(data) != tt.want):
					t.Errorf("Read(%s, %s) = %q, %v; want %q", f.Path, sideName(side), data, err, tt.want)
				}
			}
		})
	}
}
