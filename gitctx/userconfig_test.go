package gitctx

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// TestUserConfigChangesNothing checks that what a user's git configuration
// may set (colour, prefixes, quoting, rename detection, external diffs)
// changes nothing gitctx reads of a change: its files, their patches, the
// history of its files and what a search finds. A diff in colour parsed
// as no hunks at all, so a pack had no diff and the secrets check nothing
// to check.
func TestUserConfigChangesNothing(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"app.py": "import os\n\ndef main():\n    return 1\n", "old.txt": "a\nb\nc\nd\n", "gone.txt": "bye\n"})
	r.Commit("base")
	r.Write("app.py", "import os\n\ndef main():\n    return 2  # café\n")
	r.Git("mv", "old.txt", "new name.txt")
	r.remove("gone.txt")
	r.Git("add", "-A")
	r.Commit("change")
	r.Write("app.py", "import os\n\ndef main():\n    return 3\n")
	r.Git("add", "app.py")

	read := func() string {
		t.Helper()
		repo := openRepo(t, r.Dir)
		var out string
		for _, sel := range []func(context.Context) (*Change, error){
			func(ctx context.Context) (*Change, error) { return repo.SelectRange(ctx, "HEAD~1..HEAD") },
			repo.SelectStaged,
			repo.SelectWorktree,
		} {
			c, err := sel(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			closeChange(t, c)
			for _, f := range c.Files {
				out += fmt.Sprintf("%s %s %v %s %s\n", f.Path, f.OldPath, f.Status, f.OldID, f.NewID)
			}
			err = c.Patches(context.Background(), func(*File) bool { return true }, 1<<20, func(f *File, p *Patch) error {
				out += fmt.Sprintf("%s: %+v\n", f.Path, *p)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			h, err := c.History(context.Background(), []string{"app.py"}, 10, 0)
			if err != nil {
				t.Fatal(err)
			}
			out += fmt.Sprintf("history %+v\n", h)
			err = c.Grep(context.Background(), []string{"main"}, func(path string, text []byte) {
				out += fmt.Sprintf("grep %s %q\n", path, text)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	want := read()
	for _, kv := range [][2]string{
		{"color.ui", "always"}, {"color.diff", "always"}, {"color.grep", "always"},
		{"diff.noprefix", "true"}, {"diff.mnemonicPrefix", "true"}, {"diff.srcPrefix", "S/"}, {"diff.dstPrefix", "D/"},
		{"diff.external", "false"}, {"core.quotePath", "true"}, {"diff.renames", "copies"}, {"diff.algorithm", "patience"},
		{"diff.relative", "true"}, {"grep.lineNumber", "true"}, {"grep.column", "true"}, {"log.showSignature", "true"},
		{"format.pretty", "oneline"}, {"log.abbrevCommit", "true"},
	} {
		r.Git("config", kv[0], kv[1])
	}
	if got := read(); !reflect.DeepEqual(got, want) {
		t.Errorf("with a user's configuration gitctx reads\n%s\nwithout it\n%s", got, want)
	}
}
