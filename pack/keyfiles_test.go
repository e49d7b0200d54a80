package pack

import (
	"fmt"
	"reflect"
	"testing"
)

// TestKeyFileContent checks KeyFiles.MaxContentPerFileBytes: a guide file
// larger than it shows its head and tail; the general truncation limit does
// not apply to guides, and no guide is read beyond Options.MaxFileBytes.
func TestKeyFileContent(t *testing.T) {
	ch := truncRepo(t)
	c := counter(t)
	readme := len(countedLines("readme", 300))
	for _, tc := range []struct {
		name   string
		opts   func(*Options)
		readme string // README.md's representation
		why    string // the marker's reason, when cut
		notes  string // notes.txt's representation
	}{
		{"defaults", func(*Options) {}, RepFull, "", RepFull},
		{"one byte under README.md", func(o *Options) { o.KeyFiles.MaxContentPerFileBytes = int64(readme - 1) },
			RepTruncated, fmt.Sprintf("over the %s-byte limit", thousands(readme-1)), RepFull},
		{"exactly README.md", func(o *Options) { o.KeyFiles.MaxContentPerFileBytes = int64(readme) }, RepFull, "", RepFull},
		{"the truncation limit is not the guides'", func(o *Options) { o.Truncation.MaxFileBytes = 1000 }, RepFull, "", RepTruncated},
		{"never read beyond MaxFileBytes", func(o *Options) { o.MaxFileBytes = int64(readme - 1) }, RepNameOnly, "", RepFull},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := options(c, JSON, 0)
			tc.opts(&opts)
			p := buildPacked(t, ch, opts)
			if got := p.rep["README.md"]; got != tc.readme {
				t.Errorf("README.md is %s, want %s", got, tc.readme)
			}
			if got := p.rep["notes.txt"]; got != tc.notes {
				t.Errorf("notes.txt is %s, want %s", got, tc.notes)
			}
			if tc.readme == RepTruncated {
				checkCut(t, p.content["README.md"], "readme", 300, 100, 50, tc.why)
			}
			if tc.readme == RepNameOnly {
				for _, f := range p.rec.Files {
					if f.Path == "README.md" && f.ExclusionReason != ReasonSizeLimit {
						t.Errorf("README.md left out for %q, want %s", f.ExclusionReason, ReasonSizeLimit)
					}
				}
			}
		})
	}
}

// TestKeyFileCounts checks that KeyFiles.MaxTotal and MaxPerCategory bound
// the guide files of a pack.
func TestKeyFileCounts(t *testing.T) {
	ch := truncRepo(t)
	c := counter(t)
	for _, tc := range []struct {
		name string
		kf   KeyFiles
		want []string
	}{
		{"defaults", KeyFiles{}, []string{"AGENTS.md", "CLAUDE.md", "README.md", "CONTRIBUTING.md", "go.mod", "package.json"}},
		{"2 in all", KeyFiles{MaxTotal: 2}, []string{"AGENTS.md", "CLAUDE.md"}},
		{"1 of each kind", KeyFiles{MaxPerCategory: 1}, []string{"AGENTS.md", "README.md", "CONTRIBUTING.md", "go.mod"}},
		{"1 of each kind, 3 in all", KeyFiles{MaxPerCategory: 1, MaxTotal: 3}, []string{"AGENTS.md", "README.md", "CONTRIBUTING.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := options(c, JSON, 0)
			opts.KeyFiles = tc.kf
			var got []string
			for _, f := range build(t, ch, opts).Record.Files {
				if f.Role == RoleGuide {
					got = append(got, f.Path)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("guides %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFocusKeyFiles checks that KeyFiles.MaxTotal and MaxPerCategory bound
// the key files a Summary lists in its review focus too, shallow paths
// first within a category.
func TestFocusKeyFiles(t *testing.T) {
	var entries []*entry
	for _, p := range []string{"cmd/x/main.go", "a/b/app.py", "app/index.js", "server.go", "manage.py", "main.go",
		"package.json", "go.mod", "auth/login.go", "notes.txt",
		"internal/cloud/testdata/plan/main.tf", "test/fixtures/app/package.json", "src/__mocks__/auth.js"} { // test data: never key files
		entries = append(entries, &entry{path: p, role: RoleChanged})
	}
	for _, tc := range []struct {
		name string
		kf   KeyFiles
		want []string
	}{
		{"defaults", KeyFiles{}, []string{"config go.mod", "config package.json",
			"entrypoint main.go", "entrypoint manage.py", "entrypoint server.go", "entrypoint app/index.js", "entrypoint a/b/app.py",
			"auth auth/login.go"}},
		{"1 of each category", KeyFiles{MaxPerCategory: 1}, []string{"config go.mod", "entrypoint main.go", "auth auth/login.go"}},
		{"3 in all", KeyFiles{MaxTotal: 3}, []string{"config go.mod", "config package.json", "entrypoint main.go"}},
		{"6 of each category", KeyFiles{MaxPerCategory: 6}, []string{"config go.mod", "config package.json",
			"entrypoint main.go", "entrypoint manage.py", "entrypoint server.go", "entrypoint app/index.js", "entrypoint a/b/app.py", "entrypoint cmd/x/main.go",
			"auth auth/login.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{KeyFiles: tc.kf}
			o.defaults()
			var got []string
			for _, k := range keyFiles(entries, o.KeyFiles) {
				got = append(got, fmt.Sprintf("%s %s", k.category, k.e.path))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("key files %q, want %q", got, tc.want)
			}
		})
	}
}
