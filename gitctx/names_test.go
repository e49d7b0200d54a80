package gitctx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// awkwardNames are file names git quotes in its "diff --git" headers, or
// that a careless program would take for options. Each must be listed
// exactly and get its patch: a header gitctx quotes differently from git
// silently loses the file's patch.
var awkwardNames = []string{
	"with space.txt",
	`quote"name.txt`,
	"tab\tname.txt",
	"new\nline.txt",
	`back\slash.txt`,
	"bell\a and \x01 and \x7f.txt",
	"ü-umlaut.txt",
	"日本語.txt",
	"-dash.txt",
	"--output=x.txt",
	"dir with space/inner \"q\".txt",
}

func TestAwkwardNamesRange(t *testing.T) {
	r := newTestRepo(t)
	for _, name := range awkwardNames {
		r.Write(name, "one\n")
	}
	r.Write("plain name.txt", strings.Repeat("this file is renamed to an awkward name\n", 10))
	base := r.Commit("first")
	for _, name := range awkwardNames {
		r.Write(name, "one\ntwo\n")
	}
	renamed := "re\"named\t.txt"
	if err := os.Rename(filepath.Join(r.Dir, "plain name.txt"), filepath.Join(r.Dir, renamed)); err != nil {
		t.Fatal(err)
	}
	r.Commit("second")

	c, err := r.open().SelectRange(context.Background(), base+"..HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	var want []fileSum
	for _, name := range awkwardNames {
		want = append(want, fileSum{name, "", Modified, ModeRegular, ModeRegular})
	}
	want = append(want, fileSum{renamed, "plain name.txt", Renamed, ModeRegular, ModeRegular})
	checkEqual(t, "Files", sortSums(summarize(c.Files)), sortSums(want))

	patches := allPatches(t, c, 0)
	for _, name := range awkwardNames {
		p := patches[name]
		if p == nil {
			t.Errorf("no patch for %q", name)
			continue
		}
		checkEqual(t, "patch of "+name, lineTexts(p), []string{" one", "+two"})
	}
	if p := patches[renamed]; p == nil || len(p.Hunks) != 0 {
		t.Errorf("patch of the pure rename %q = %+v, want one with no hunks", renamed, p)
	}
	checkNoOptionFile(t, r)
}

// TestAwkwardNamesWorktree adds the awkward names as untracked files, which
// gitctx passes to `git add --intent-to-add` on a temporary index.
func TestAwkwardNamesWorktree(t *testing.T) {
	r := newTestRepo(t)
	r.Write("README", "readme\n")
	r.Commit("first")
	for i, name := range awkwardNames {
		r.Write(name, fmt.Sprintf("content of file %d\n", i))
	}
	c := closeChange(t, mustWorktree(t, r.open()))
	var want []fileSum
	for _, name := range awkwardNames {
		want = append(want, fileSum{name, "", Added, 0, ModeRegular})
	}
	checkEqual(t, "Files", sortSums(summarize(c.Files)), sortSums(want))

	patches := allPatches(t, c, 0)
	for i, name := range awkwardNames {
		content := fmt.Sprintf("content of file %d", i)
		if p := patches[name]; p == nil || !reflect.DeepEqual(lineTexts(p), []string{"+" + content}) {
			t.Errorf("patch of %q = %+v, want one added line %q", name, p, content)
		}
		_, data, err := c.Read(context.Background(), byPath(t, c, name), New, -1)
		if err != nil || string(data) != content+"\n" {
			t.Errorf("Read(%q, New) = %q, %v", name, data, err)
		}
	}
	checkNoOptionFile(t, r)
}

func checkNoOptionFile(t *testing.T, r *testRepo) {
	t.Helper()
	for _, dir := range []string{r.Dir, filepath.Join(r.Dir, ".git")} {
		if _, err := os.Stat(filepath.Join(dir, "x.txt")); !os.IsNotExist(err) {
			t.Errorf("a file name was taken for an option: %s/x.txt exists (stat: %v)", dir, err)
		}
	}
}

func sortSums(s []fileSum) []fileSum {
	s = append([]fileSum(nil), s...)
	sort.Slice(s, func(i, j int) bool { return s[i].Path < s[j].Path })
	return s
}

// TestQuoteC pins quoteC to git's quote_c_style with core.quotePath=false.
func TestQuoteC(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a/plain.txt", "a/plain.txt"},
		{"a/with space.txt", "a/with space.txt"},
		{"a/ü.txt", "a/ü.txt"},
		{`a/q"uote`, `"a/q\"uote"`},
		{`a/back\slash`, `"a/back\\slash"`},
		{"a/t\tn\nr\rv\vf\fb\ba\a", `"a/t\tn\nr\rv\vf\fb\ba\a"`},
		{"a/\x01\x1f\x7f", `"a/\001\037\177"`},
		{"a/\x01ü", `"a/\001ü"`},
	}
	for _, tt := range tests {
		if got := quoteC(tt.in); got != tt.want {
			t.Errorf("quoteC(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
