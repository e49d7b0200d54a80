package pack

import (
	gobuild "go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/gitctx/gitctx/gitctx"
)

func TestExcludeReason(t *testing.T) {
	tests := []struct {
		path string
		want string
	}{
		// credentials, by file name, at any depth and in any case
		{".env", ReasonCredentials},
		{".env.production", ReasonCredentials},
		{"config/.ENV.local", ReasonCredentials},
		{"home/.ssh/id_rsa", ReasonCredentials},
		{"id_rsa.pub", ReasonCredentials},
		{"deploy/server.key", ReasonCredentials},
		{"certs/site.PEM", ReasonCredentials},
		{"x_token.txt", ReasonCredentials},
		{"db_secret.yaml", ReasonCredentials},
		{"credentials.json", ReasonCredentials},
		{".netrc", ReasonCredentials},
		{".npmrc", ReasonCredentials},
		// dependency directories at any depth
		{"node_modules/left-pad/index.js", ReasonDependencyDir},
		{"web/app/node_modules/x/y.js", ReasonDependencyDir},
		{"vendor/github.com/a/b.go", ReasonDependencyDir},
		{"svc/vendor/a.go", ReasonDependencyDir},
		{".venv/lib/site.py", ReasonDependencyDir},
		{"py/.venv/bin/activate", ReasonDependencyDir},
		{"Node_Modules/a.js", ReasonDependencyDir},
		// build output
		{"dist/app.js", ReasonBuildOutput},
		{"web/build/index.html", ReasonBuildOutput},
		{"target/debug/app", ReasonBuildOutput},
		// caches
		{"__pycache__/m.cpython-312.pyc", ReasonCache},
		{"pkg/__pycache__/x.py", ReasonCache},
		{"m.pyc", ReasonCache},
		{"a/b/c.PYC", ReasonCache},
		// binaries and media by extension
		{"logo.png", ReasonBinary},
		{"docs/img/Shot.PNG", ReasonBinary},
		{"lib.so", ReasonBinary},
		{"release.tar.gz", ReasonBinary},
		// patterns
		{"app.log", ReasonPatternMatch},
		{"logs/today.txt", ReasonPatternMatch},
		{"srv/logs/a/b.json", ReasonPatternMatch},
		{"dump.sql", ReasonPatternMatch},
		// packed
		{"main.go", ""},
		{"src/vendors/a.go", ""},
		{"distribution/a.go", ""},
		{"buildinfo.go", ""},
		{"node_modules.md", ""},
		{"docs/logs.md", ""},
		{"env.go", ""},
		{"tokenizer.go", ""},
		{"keys/README.md", ""},
		{"environment.md", ""},
	}
	r := DefaultRules()
	for _, tt := range tests {
		if got := r.ExcludeReason(tt.path, true); got != tt.want {
			t.Errorf("ExcludeReason(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestUserGlobs(t *testing.T) {
	tests := []struct {
		name             string
		include, exclude []string
		path             string
		want             string
	}{
		{"no globs", nil, nil, "a/b.go", ""},
		{"exclude by base name", nil, []string{"*.md"}, "docs/guide/a.md", ReasonPatternMatch},
		{"exclude by base name, other file", nil, []string{"*.md"}, "docs/a.go", ""},
		{"exclude a directory", nil, []string{"docs/"}, "docs/a/b.go", ReasonPatternMatch},
		{"exclude a directory, not its prefix", nil, []string{"docs/"}, "docsite/a.go", ""},
		{"exclude with **", nil, []string{"**/testdata/**"}, "pkg/x/testdata/in.txt", ReasonPatternMatch},
		{"exclude anchored path", nil, []string{"gen/*.go"}, "gen/a.go", ReasonPatternMatch},
		{"exclude anchored path, deeper", nil, []string{"gen/*.go"}, "x/gen/a.go", ""},
		{"include keeps matches", []string{"src/**"}, nil, "src/a/b.go", ""},
		{"include drops the rest", []string{"src/**"}, nil, "README.md", ReasonPatternMatch},
		{"include by base name", []string{"*.go"}, nil, "deep/dir/x.go", ""},
		{"exclude beats include", []string{"*.go"}, []string{"*_test.go"}, "a/b_test.go", ReasonPatternMatch},
		{"include cannot bring back credentials", []string{"**"}, nil, "cfg/.env", ReasonCredentials},
		{"include cannot bring back node_modules", []string{"**"}, nil, "node_modules/a.js", ReasonDependencyDir},
		{"brace alternatives", nil, []string{"*.{yml,yaml}"}, "ci/x.yaml", ReasonPatternMatch},
	}
	for _, tt := range tests {
		r := DefaultRules()
		r.Include, r.Exclude = tt.include, tt.exclude
		if err := r.Validate(); err != nil {
			t.Fatalf("%s: Validate: %v", tt.name, err)
		}
		if got := r.ExcludeReason(tt.path, true); got != tt.want {
			t.Errorf("%s: ExcludeReason(%q) = %q, want %q", tt.name, tt.path, got, tt.want)
		}
		// a file the user named explicitly is not subject to the user's globs
		defaults := DefaultRules()
		if got, want := r.ExcludeReason(tt.path, false), defaults.ExcludeReason(tt.path, true); got != want {
			t.Errorf("%s: ExcludeReason(%q, without globs) = %q, want %q", tt.name, tt.path, got, want)
		}
	}
}

// gitctx's own outputs are left out of every pack, before any other rule
// and whatever the user's globs say; a file of another name in the output
// directory, or of an output's name elsewhere, is not one.
func TestExcludeOwnOutputs(t *testing.T) {
	r := DefaultRules()
	r.Include = []string{"**"}
	r.Outputs = Outputs{Dirs: []string{".gitctx", "review/gx", "."}, Files: []string{"notes/mine.md", "secrets.txt"}}
	for _, tt := range []struct {
		path string
		want string
	}{
		{".gitctx/pack.md", ReasonOwnOutput},
		{".gitctx/pack-3.xml", ReasonOwnOutput},
		{".gitctx/record.json", ReasonOwnOutput},
		{"review/gx/review.md", ReasonOwnOutput},
		{"review/gx/findings.sarif", ReasonOwnOutput},
		{"review/gx/findings.rdjson", ReasonOwnOutput},
		{"review/gx/answer.md", ""},
		{"review/gx/pack.json", ReasonOwnOutput},
		{"pack.md", ReasonOwnOutput},
		{"notes/mine.md", ReasonOwnOutput},
		{"secrets.txt", ReasonOwnOutput},
		{"review/gx/notes.md", ""},
		{"review/gx/sub/pack.md", ""},
		{"review/pack.md", ""},
		{"docs/record.json", ""},
		{".gitctx/pack.md.bak", ""},
		{"notes/other.md", ""},
	} {
		for _, userGlobs := range []bool{true, false} {
			if got := r.ExcludeReason(tt.path, userGlobs); got != tt.want {
				t.Errorf("ExcludeReason(%q, %v) = %q, want %q", tt.path, userGlobs, got, tt.want)
			}
		}
	}
	if d := DefaultRules(); d.key() == r.key() {
		t.Error("the outputs are not part of the rules' key")
	}
}

func TestValidateRejectsBadGlobs(t *testing.T) {
	for _, g := range []string{"[", "a[b", "{a,b", "src/[z-a"} {
		for _, which := range []string{"include", "exclude"} {
			r := DefaultRules()
			if which == "include" {
				r.Include = []string{"ok/**", g}
			} else {
				r.Exclude = []string{g}
			}
			err := r.Validate()
			if err == nil {
				t.Errorf("Validate(%s %q) = nil, want an error", which, g)
				continue
			}
			if !strings.Contains(err.Error(), g) {
				t.Errorf("Validate(%s %q) = %q, want the glob named", which, g, err)
			}
		}
	}
	r := DefaultRules()
	r.Include, r.Exclude = []string{"**/*.go", "cmd/"}, []string{"*.{md,txt}"}
	if err := r.Validate(); err != nil {
		t.Errorf("Validate(good globs) = %v", err)
	}
}

// TestExcludedFilesListed checks, through Build, that an excluded file is
// listed in the record with its reason and never shown, and that a file
// renamed away from a credential name stays excluded.
func TestExcludedFilesListed(t *testing.T) {
	r := newRepo(t, "excluded")
	r.Write("id_rsa", "not really a key, but named like one\n")
	r.Write("keep.go", "package keep\n")
	r.Commit("base")
	r.Git("mv", "id_rsa", "innocent.txt")
	r.WriteAll(map[string]string{
		".env.production": "TOKEN_VALUE_MARKER=1\n", "web/node_modules/a/index.js": "DEP_MARKER\n",
		"dist/app.js": "BUILD_MARKER\n", "logo.png": "PNG_MARKER\n", "app.log": "LOG_MARKER\n",
		"keep.go": "package keep\n\nvar Shown = 1\n",
	})
	r.Commit("change")
	res := build(t, r.change("HEAD~1..HEAD"), options(counter(t), Markdown, 0))
	want := map[string]string{
		"innocent.txt": ReasonCredentials, ".env.production": ReasonCredentials, "web/node_modules/a/index.js": ReasonDependencyDir,
		"dist/app.js": ReasonBuildOutput, "logo.png": ReasonBinary, "app.log": ReasonPatternMatch, "keep.go": "",
	}
	got := map[string]string{}
	for _, f := range res.Record.Files {
		got[f.Path] = f.ExclusionReason
		if f.Included == (f.ExclusionReason != "") {
			t.Errorf("%s: included %t with exclusion reason %q", f.Path, f.Included, f.ExclusionReason)
		}
	}
	for path, reason := range want {
		if r, ok := got[path]; !ok || r != reason {
			t.Errorf("%s: exclusion reason %q (listed: %t), want %q", path, r, ok, reason)
		}
	}
	for _, marker := range []string{"not really a key", "TOKEN_VALUE_MARKER", "DEP_MARKER", "BUILD_MARKER", "PNG_MARKER", "LOG_MARKER"} {
		if strings.Contains(res.Text, marker) {
			t.Errorf("the pack shows excluded content %q", marker)
		}
	}
	if !strings.Contains(res.Text, "var Shown = 1") {
		t.Errorf("the pack does not show keep.go")
	}
	if n := res.Record.ExclusionsByReason[ReasonCredentials]; n != 2 {
		t.Errorf("exclusions_by_reason[credentials] = %d, want 2", n)
	}
}

// TestExcludeDirsAndExtensions adds exclusions as the configuration does:
// they add to the defaults, which stay.
func TestExcludeDirsAndExtensions(t *testing.T) {
	r := DefaultRules()
	r.ExcludeDirs("Generated/", "")
	r.ExcludeExtensions(".BIN", "lock", "x[1]", "")
	tests := []struct{ path, want string }{
		{"a/generated/x.go", ReasonPatternMatch},
		{"data/blob.bin", ReasonPatternMatch},
		{"yarn.lock", ReasonPatternMatch},
		{"odd.x[1]", ReasonPatternMatch},
		{"odd.x1", ""},
		{"node_modules/a.js", ReasonDependencyDir},
		{"pic.png", ReasonBinary},
		{"main.go", ""},
	}
	for _, tt := range tests {
		if got := r.ExcludeReason(tt.path, false); got != tt.want {
			t.Errorf("ExcludeReason(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestPackDirs: a directory name taken out of the exclusions packs its
// files, whatever their case, and the searches read it; the name rules,
// the other directories and credentials still apply.
func TestPackDirs(t *testing.T) {
	r := DefaultRules()
	if err := r.PackDirs("Logs/", "build"); err != nil {
		t.Fatalf("PackDirs: %v", err)
	}
	for _, tc := range []struct{ path, want string }{
		{"pkg/logs/level.go", ""},
		{"LOGS/x.go", ""},
		{"build/build.ts", ""},
		{"pkg/logs/run.log", ReasonPatternMatch},
		{"logs/.env", ReasonCredentials},
		{"logs/vendor/a.go", ReasonDependencyDir},
		{"out/a.go", ReasonBuildOutput},
	} {
		if got := r.ExcludeReason(tc.path, true); got != tc.want {
			t.Errorf("ExcludeReason(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	if names := r.dirNames(); slices.Contains(names, "logs") || slices.Contains(names, "build") {
		t.Errorf("dirNames() = %q still holds a packed directory", names)
	}
	for _, bad := range []string{"src", ".git", ".HG"} {
		r := DefaultRules()
		if err := r.PackDirs(bad); err == nil {
			t.Errorf("PackDirs(%q) = nil, want an error", bad)
		}
	}
}

// TestDirNamesNeverHideAChoice: the neighbours' searches pass over the
// directories dirNames lists, so a file under one must be a file the rules
// leave out; an excluded_directories entry holding a slash (which leaves
// nothing out) is not listed, since a pathspec would take it as a path.
func TestDirNamesNeverHideAChoice(t *testing.T) {
	r := DefaultRules()
	r.ExcludeDirs("Generated/", "a/b")
	names := r.dirNames()
	for _, want := range []string{"generated", "vendor", "node_modules", "target"} {
		if !slices.Contains(names, want) {
			t.Errorf("dirNames() = %q, want it to hold %q", names, want)
		}
	}
	if slices.Contains(names, "a/b") {
		t.Errorf("dirNames() = %q holds a name with a slash", names)
	}
	for _, p := range []string{"a/b/c.go", "x/Generated/y.go", "VENDOR/z.go", "src/vendor.go", "build", "lib/Target/t.rs", "main.go"} {
		if gitctx.InDirNamed(p, names) && r.ExcludeReason(p, true) == "" {
			t.Errorf("%s: under a directory the searches pass over, yet it may be packed", p)
		}
	}
}

// nameGlobs are the default rules' name globs and the shapes matchName
// hands to doublestar.
func nameGlobs() []string {
	r := DefaultRules()
	r.ExcludeExtensions("bin", "x*y", "{a}")
	globs := append([]string{"*", "**", "", "a*b", "*.{a,b}", "x?y", "*[ab]", `\*`, "*/x", "***", "*a**"}, r.Credentials...)
	for _, n := range r.Names {
		globs = append(globs, n.glob)
	}
	return globs
}

// TestMatchName checks matchName against doublestar on every base name of
// the Go toolchain's source and some odd ones.
func TestMatchName(t *testing.T) {
	names := []string{"", ".", ".env", ".env.local", "x.pem", "a_secret_b", "id_rsa.pub", "x.tar.gz", "*", "a/b", "ab", "a", "**"}
	root := filepath.Join(gobuild.Default.GOROOT, "src")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		names = append(names, strings.ToLower(d.Name()))
		return nil
	})
	matched := 0
	for _, g := range nameGlobs() {
		for _, n := range names {
			want, _ := doublestar.Match(g, n)
			if got := matchName(g, n, utf8.ValidString(n)); got != want {
				t.Errorf("matchName(%q, %q) = %v, doublestar says %v", g, n, got, want)
			}
			if want {
				matched++
			}
		}
	}
	if matched < 1000 {
		t.Errorf("only %d matches", matched)
	}
}

func FuzzMatchName(f *testing.F) {
	for _, g := range nameGlobs() {
		f.Add(g, "x.pem")
		f.Add(g, ".env")
	}
	f.Fuzz(func(t *testing.T, glob, name string) {
		want, err := doublestar.Match(glob, name)
		if err != nil {
			return // a bad glob: Rules.Validate refuses it
		}
		if got := matchName(glob, name, utf8.ValidString(name)); got != want {
			t.Fatalf("matchName(%q, %q) = %v, doublestar says %v", glob, name, got, want)
		}
	})
}
