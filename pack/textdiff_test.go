package pack

import (
	"regexp"
	"strings"
	"testing"
)

// TestTextDiffOfBinaryByAttribute checks that a text file git shows as
// binary because .gitattributes says so (`-diff`, `binary`) shows its
// diff, computed as text and through the gate: a lock file its diff
// alone, digests shortened, other text files their diff and content. A
// file whose old side is binary still shows its content alone.
func TestTextDiffOfBinaryByAttribute(t *testing.T) {
	r := newRepo(t, "textdiff")
	r.WriteAll(map[string]string{
		".gitattributes": "uv.lock -diff\nconfig.txt binary\ndata.txt -diff\n",
		"uv.lock":        uvLockOf("4.12.1", 40, "files.pythonhosted.org"),
		"config.txt":     "mode = fast\ntoken = none\n",
		"data.txt":       "head\x00\x01\x02\n",
	})
	r.Commit("base")
	r.WriteAll(map[string]string{
		"uv.lock":    uvLockOf("4.13.0", 40, "files.pythonhosted.org"),
		"config.txt": "mode = slow\ntoken = " + fakeGitHub + "\n",
		"data.txt":   "head\nnow text\n",
	})
	r.Commit("change")
	p := buildPacked(t, r.change("HEAD~1..HEAD"), options(counter(t), JSON, 0))
	for path, want := range map[string]string{"uv.lock": RepDiff, "config.txt": RepFull, "data.txt": RepFull} {
		if got := p.rep[path]; got != want {
			t.Errorf("%s is shown as %q, want %q", path, got, want)
		}
	}
	for path, want := range map[string][]string{
		"uv.lock":    {`+version = "4.13.0"`, "sha256:"},
		"config.txt": {"-mode = fast", "+mode = slow", "+token = "},
	} {
		for _, w := range want {
			if !strings.Contains(p.diff[path], w) {
				t.Errorf("%s's diff lacks %q:\n%s", path, w, p.diff[path])
			}
		}
	}
	if len(p.redacted["config.txt"]) == 0 {
		t.Errorf("config.txt's credential was not redacted")
	}
	if regexp.MustCompile(`sha256:[0-9a-f]{64}`).MatchString(p.diff["uv.lock"]) || len(p.diff["uv.lock"]) > 4000 {
		t.Errorf("uv.lock's diff is not a lock's diff (digests shortened, like lines counted):\n%s", p.diff["uv.lock"])
	}
	if d, ok := p.diff["data.txt"]; ok {
		t.Errorf("data.txt, binary before, shows a diff:\n%q", d)
	}
	if got := strings.Join(p.content["data.txt"], "\n"); got != "head\nnow text" {
		t.Errorf("data.txt's content is %q", got)
	}
}
