package pack

import (
	"strings"
	"testing"
)

// TestLeftOutLineCounts: a changed file a rule leaves out (a dependency
// directory, a credential file) keeps its line counts in the record,
// though its patch is never read, renamed or not; a binary one has none.
func TestLeftOutLineCounts(t *testing.T) {
	r := newRepo(t, "leftout")
	body := strings.Repeat("// a line of the library\n", 20)
	r.WriteAll(map[string]string{"main.go": "package main\n", "vendor/lib/lib.go": "package lib\n\nfunc A() {}\n" + body, ".env": "A=1\n"})
	r.Commit("base")
	r.WriteAll(map[string]string{
		"main.go":           "package main\n\nfunc main() {}\n",
		"vendor/lib/lib.go": "package lib\n\nfunc B() {}\n\nfunc C() {}\n\n" + body,
		".env":              "A=2\nB=3\n",
		"vendor/lib/x.bin":  "\x00\x01\x02",
	})
	r.Git("mv", "vendor/lib/lib.go", "vendor/lib/moved.go")
	r.Commit("change")
	for _, spec := range []string{"HEAD~1..HEAD", "HEAD"} {
		res := build(t, r.change(spec), options(counter(t), JSON, 0))
		want := map[string][2]int{"vendor/lib/moved.go": {4, 1}, ".env": {2, 1}, "vendor/lib/x.bin": {0, 0}, "main.go": {2, 0}}
		for _, f := range res.Record.Files {
			w, ok := want[f.Path]
			if !ok {
				continue
			}
			delete(want, f.Path)
			if f.Additions != w[0] || f.Deletions != w[1] {
				t.Errorf("%s: %s +%d -%d (%s), want +%d -%d", spec, f.Path, f.Additions, f.Deletions, f.ExclusionReason, w[0], w[1])
			}
		}
		if len(want) > 0 {
			t.Errorf("%s: not in the record: %v", spec, want)
		}
		if strings.Contains(res.Text, "A=2") {
			t.Error("the credential file's content is in the pack")
		}
	}
}
