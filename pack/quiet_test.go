package pack

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestQuietChangedFile: a changed binary fixture is listed by name, with
// its reason, and still leads to the test that names it and the code that
// changes with it.
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

	for reason, want := range map[string]bool{ReasonBinary: true, ReasonBuildOutput: true, ReasonCredentials: true,
		ReasonDependencyDir: false, ReasonCache: false, ReasonPatternMatch: false, "": false} {
		if quietReason(reason) != want {
			t.Errorf("quietReason(%q) = %v, want %v", reason, !want, want)
		}
	}
}

// TestQuietCredentialFile: a changed file named as a credential
// (secrets_hook.go) is listed by name, and its text never packed, yet it
// leads to the code that changes with it, by its history.
func TestQuietCredentialFile(t *testing.T) {
	r := newRepo(t, "quietcred")
	r.Write("other/other.go", "package other\n")
	r.Commit("add other")
	r.WriteAll(map[string]string{
		"runner/secrets_hook.go": "package runner\n\nconst hook = \"secrets\"\n",
		"runner/hooks.go":        "package runner\n\nvar hooks = []string{hook}\n",
	})
	r.Commit("add the secrets hook")
	for i := range 2 {
		r.WriteAll(map[string]string{
			"runner/secrets_hook.go": fmt.Sprintf("package runner\n\nconst hook = \"secrets%d\"\n", i),
			"runner/hooks.go":        fmt.Sprintf("package runner\n\nvar hooks = []string{hook, \"%d\"}\n", i),
		})
		r.Commit("rename the hook")
	}
	r.Write("runner/secrets_hook.go", "package runner\n\nconst hook = \"SECRET-TEXT-NEVER-PACKED\"\n")
	r.Commit("the hook's last name")

	res := build(t, r.change("HEAD~1..HEAD"), options(counter(t), JSON, 0))
	ns := res.Record.Neighbours
	i := slices.IndexFunc(ns, func(n Neighbour) bool { return n.Path == "runner/hooks.go" })
	if i < 0 || !slices.ContainsFunc(ns[i].Reasons, func(s string) bool { return strings.Contains(s, "in 3 earlier commits") }) {
		t.Errorf("neighbours %+v: want runner/hooks.go, for its history with the changed file", ns)
	}
	if slices.ContainsFunc(ns, func(n Neighbour) bool { return n.Path == "other/other.go" }) {
		t.Errorf("neighbours %+v: other/other.go never changed with it", ns)
	}
	if j := slices.IndexFunc(res.Record.Files, func(f FileRecord) bool { return f.Path == "runner/secrets_hook.go" }); j < 0 ||
		res.Record.Files[j].ExclusionReason != ReasonCredentials {
		t.Errorf("secrets_hook.go: want it listed as left out for credentials; files %+v", res.Record.Files)
	}
	if strings.Contains(res.Text, "SECRET-TEXT-NEVER-PACKED") || strings.Contains(res.Text, "secrets1") {
		t.Error("the credential file's text is in the pack")
	}
}
