package pack

import (
	"slices"
	"testing"
)

// TestQuietChangedFile: a changed binary fixture is listed by name, with
// its reason, and still leads to the test that names it and the code that
// changes with it; a changed credential file leads nowhere.
func TestQuietChangedFile(t *testing.T) {
	r := newRepo(t, "quiet")
	for _, f := range [][2]string{ // one commit each: no history in common
		{"view/view.go", "package view\n\nfunc Show() {}\n"},
		{"view/view_test.go", "package view\n\nvar log = \"fixtures/run_log.zip\"\n"},
		{"view/fixtures/run_log.zip", "PK\x03\x04\x00"},
		{"other/other.go", "package other\n"},
	} {
		r.Write(f[0], f[1])
		r.Commit("add " + f[0])
	}
	r.WriteAll(map[string]string{"view/view.go": "package view\n\nfunc Show() { _ = 1 }\n", "view/fixtures/run_log.zip": "PK\x03\x04\x01"})
	r.Commit("new log format")
	r.WriteAll(map[string]string{"view/view.go": "package view\n\nfunc Show() { _ = 2 }\n", "view/fixtures/run_log.zip": "PK\x03\x04\x02"})
	r.Commit("newer log format")
	r.Write("view/fixtures/run_log.zip", "PK\x03\x04\x03")
	r.Commit("log of a failed run")

	p := buildPacked(t, r.change("HEAD~1..HEAD"), options(counter(t), JSON, 0))
	var got []string
	for _, n := range p.rec.Neighbours {
		got = append(got, n.Path)
	}
	if !slices.Equal(got, []string{"view/view_test.go", "view/view.go"}) {
		t.Errorf("neighbours %q, want the fixture's test, then the code changed with it", got)
	}
	if i := slices.IndexFunc(p.rec.Files, func(f FileRecord) bool { return f.Path == "view/fixtures/run_log.zip" }); i < 0 ||
		p.rec.Files[i].ExclusionReason != ReasonBinary || p.rec.Files[i].Role != RoleChanged {
		t.Errorf("run_log.zip: want it listed as a changed file left out as binary; files %+v", p.rec.Files)
	}

	for reason, want := range map[string]bool{ReasonBinary: true, ReasonBuildOutput: true, ReasonCredentials: false,
		ReasonDependencyDir: false, ReasonCache: false, ReasonPatternMatch: false, "": false} {
		if quietReason(reason) != want {
			t.Errorf("quietReason(%q) = %v, want %v", reason, !want, want)
		}
	}
}
