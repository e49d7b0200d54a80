package pack

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/gitctx/gittest"
	"github.com/gitctx/gitctx/secrets"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenRepo is a small repository with fixed names, emails and dates, so
// that its commit ids, and so its packs, are the same on every machine.
func goldenRepo(t *testing.T) *gitRepo {
	t.Helper()
	r := newRepo(t, "golden")
	r.WriteAll(map[string]string{
		"go.mod":       "module example.com/golden\n\ngo 1.22\n\nrequire github.com/pkg/errors v0.9.1\n",
		"main.go":      "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(greet(\"world\"))\n}\n",
		"greet.go":     "package main\n\nfunc greet(name string) string {\n\treturn \"hello, \" + name\n}\n",
		"old.txt":      "this file goes away\n",
		"docs/use.md":  "# Use\n\nRun `golden`.\n",
		"docs/api.txt": "nothing changes here\n",
	})
	r.Commit("initial import")
	r.Git("rm", "-q", "old.txt")
	r.WriteAll(map[string]string{
		"greet.go":        "package main\n\nimport \"strings\"\n\n// greet says hello.\nfunc greet(name string) string {\n\treturn \"hello, \" + strings.TrimSpace(name)\n}\n",
		"docs/use.md":     "# Use\n\nRun `golden`, or ```golden -v``` for more.\n",
		"util/strings.go": "package util\n\n// Title upper-cases the first letter.\nfunc Title(s string) string { return s }\n",
		".env":            "NAME=value\n",
		"logo.png":        "not really a png\n",
	})
	r.Commit("greet: trim names\n\nAlso document the verbose flag and add util.Title.")
	return r
}

func TestGolden(t *testing.T) {
	ch := goldenRepo(t).change("HEAD~1..HEAD")
	c := counter(t)
	type golden struct {
		file   string
		format Format
		limit  int
		record bool
	}
	for _, g := range []golden{
		{"full.md", Markdown, 0, false},
		{"full.xml", XML, 0, false},
		{"full.json", JSON, 0, false},
		{"full.record.json", Markdown, 0, true},
		{"summary.md", Markdown, 750, false},
		{"summary.json", JSON, 750, false},
	} {
		t.Run(g.file, func(t *testing.T) {
			res := build(t, ch, options(c, g.format, g.limit))
			got := res.Text
			if g.record {
				b, err := json.MarshalIndent(res.Record, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				got = string(b) + "\n"
			}
			checkGolden(t, filepath.Join("testdata", "golden", g.file), got)
		})
	}
}

// checkGolden compares text with a golden file, or rewrites it with -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./pack -run Golden -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test ./pack -run Golden -update if the change is meant):\n%s", path, textDiff(got, string(want)))
	}
}

// TestDeterministic builds the same change twice, as two runs would (a new
// gate each, the clock running), and in a clone elsewhere on disk: the
// packs must be byte-identical and the records equal but for the time.
func TestDeterministic(t *testing.T) {
	r := goldenRepo(t)
	r.Write("config.py", "API_KEY = \"ab12cd34ef56ab12cd34ef56ab12cd34\"\nURL = \"https://example.com\"\n")
	r.Write("util/strings.go", "package util\n")
	r.Commit("more")
	clone := filepath.Join(t.TempDir(), "golden")
	r.Git("clone", "-q", r.Dir, clone)
	other := &gitRepo{&gittest.Repo{TB: t, Dir: clone, Date: gittest.DayDates}}
	c := counter(t)
	for _, f := range formats {
		for _, limit := range []int{0, 1500} {
			var results []*Result
			for _, ch := range []*gitctx.Change{r.change("HEAD~2..HEAD"), r.change("HEAD~2..HEAD"), other.change("HEAD~2..HEAD")} {
				gate, err := secrets.New(secrets.Options{})
				if err != nil {
					t.Fatal(err)
				}
				opts := options(c, f, limit)
				opts.Gate, opts.Now = gate, nil
				results = append(results, build(t, ch, opts))
			}
			first := results[0]
			if !strings.Contains(first.Text, "[REDACTED:") {
				t.Errorf("%s %d: the credential in config.py was not redacted", f, limit)
			}
			for i, res := range results[1:] {
				if res.Text != first.Text {
					t.Errorf("%s %d, build %d: the pack differs:\n%s", f, limit, i+2, textDiff(res.Text, first.Text))
				}
				a, b := *first.Record, *res.Record
				a.CreatedAt, b.CreatedAt = "", ""
				if !reflect.DeepEqual(a, b) {
					ja, _ := json.MarshalIndent(a, "", " ")
					jb, _ := json.MarshalIndent(b, "", " ")
					t.Errorf("%s %d, build %d: the record differs:\n%s", f, limit, i+2, textDiff(string(jb), string(ja)))
				}
			}
		}
	}
}
