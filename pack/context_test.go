package pack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// contextRepo is a repository with a one-line change and files to add as
// context: nested docs, a directory of 60 files, a binary, a file over
// 1 KiB, credentials, ignored and default-excluded files, and symbolic
// links into and out of the repository.
func contextRepo(t *testing.T) *gitRepo {
	t.Helper()
	r := newRepo(t, "ctx")
	r.WriteAll(map[string]string{
		"greet/greet.go":                  "package greet\n\nconst name = \"everyone\"\n",
		".gitignore":                      "*.tmp\nscratch/\n",
		"docs/top.md":                     "# Top\nTOPDOC\n",
		"docs/design/design.md":           "# Design\nDESIGNDOC\n",
		"docs/design/deep/deep.md":        "# Deep\nDEEPDOC\n",
		"docs/wide.txt":                   strings.Repeat("x", 3000) + "\n",
		"docs/api_token.txt":              "TOKENDOC\n",
		"docs/node_modules/dep/dep.js":    "DEPDOC\n",
		"docs/pic.png":                    "not really a png\n",
		"docs/utf16.txt":                  "\xff\xfeh\x00i\x00\n\x00",
		"media/blob.bin":                  "\x00\x01\x02BINCTX\x00",
		"enc/bad16.txt":                   "\xff\xfe\x00\x00A\x00",
		".env":                            "ENVDOC=1\n",
		"docs/salutations.md":             "# Salutations\nHow greetings and salutations are composed for every user.\n",
		"notes/greetings_secret.md":       "greetings and salutations, composed\n",
		"notes/salutations.bin":           "greetings\x00salutations composed\n",
		"docs/billing.md":                 "# Billing\nInvoices and payments.\n",
		"src/greeter/compose_greeting.go": "package greeter\n\n// ComposeGreeting composes the greeting for a user.\nfunc ComposeGreeting(user string) string { return \"hello \" + user }\n",
	})
	for i := 1; i <= 60; i++ {
		r.Write(fmt.Sprintf("many/f%02d.txt", i), fmt.Sprintf("file %d\n", i))
	}
	r.Commit("first")
	r.WriteAll(map[string]string{
		"docs/notes.tmp":    "IGNOREDDOC\n", // ignored by *.tmp
		"docs/scratch/a.md": "IGNOREDDIR\n", // ignored by scratch/
		"docs/untracked.md": "UNTRACKEDDOC\n",
		"greet/greet.go":    "package greet\n\nconst name = \"everybody\"\n",
	})
	outside := filepath.Join(t.TempDir(), "outside.md")
	if err := os.WriteFile(outside, []byte("OUTSIDEDOC\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.symlink(outside, "docs/out.md")
	r.symlink("top.md", "docs/link.md")
	r.Git("add", "greet/greet.go")
	r.Git("commit", "-q", "-m", "greet: everybody") // the rest stays untracked
	r.Commits++
	return r
}

func (r *gitRepo) symlink(target, name string) {
	r.TB.Helper()
	p := filepath.Join(r.Dir, filepath.FromSlash(name))
	if err := os.Symlink(target, p); err != nil {
		r.TB.Fatal(err)
	}
}

// buildContext packs HEAD~1..HEAD of the context repository, without
// neighbours, with the given context options.
func buildContext(t *testing.T, ch *gitctx.Change, c ContextOptions) (*Result, error) {
	t.Helper()
	opts := options(counter(t), Markdown, 0)
	opts.NoNeighbours = true
	opts.Context = c
	return Build(context.Background(), ch, opts)
}

// contextStates maps each context file of a record to "included" or its
// exclusion reason.
func contextStates(rec *Record) map[string]string {
	out := map[string]string{}
	for _, f := range rec.Files {
		if f.Role != RoleContext {
			continue
		}
		out[f.Path] = "included"
		if !f.Included {
			out[f.Path] = f.ExclusionReason
		}
	}
	return out
}

// TestContextPaths walks directories at each depth and names files
// directly: what is packed, what is recorded as left out, and what a walk
// never considers (ignored files, default-excluded directories).
func TestContextPaths(t *testing.T) {
	ch := contextRepo(t).change("HEAD~1..HEAD")
	docsTop := map[string]string{
		"docs/top.md": "included", "docs/wide.txt": "included", "docs/salutations.md": "included",
		"docs/billing.md": "included", "docs/untracked.md": "included", "docs/utf16.txt": "included",
		"docs/api_token.txt": "credentials", "docs/pic.png": "binary",
		"docs/out.md": "symlink", "docs/link.md": "symlink",
	}
	with := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range docsTop {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name  string
		paths []string
		depth int
		want  map[string]string
	}{
		{"depth 0", []string{"docs"}, 0, docsTop},
		{"depth 1", []string{"docs"}, 1, with(map[string]string{"docs/design/design.md": "included"})},
		{"unlimited", []string{"docs"}, RecurseUnlimited, with(map[string]string{
			"docs/design/design.md": "included", "docs/design/deep/deep.md": "included"})},
		{"unlimited, trailing slash and ./", []string{"./docs/"}, -1, with(map[string]string{
			"docs/design/design.md": "included", "docs/design/deep/deep.md": "included"})},
		{"files by name", []string{"docs/top.md", "docs/design/deep/deep.md"}, 0, map[string]string{
			"docs/top.md": "included", "docs/design/deep/deep.md": "included"}},
		{"an ignored file by name", []string{"docs/notes.tmp"}, 0, map[string]string{"docs/notes.tmp": "included"}},
		{"a default-excluded directory by name", []string{"docs/node_modules"}, -1, map[string]string{
			"docs/node_modules/dep/dep.js": "included"}},
		{"a link inside the repository, resolved", []string{"docs/link.md"}, 0, map[string]string{"docs/top.md": "included"}},
		{"a credential by name", []string{".env"}, 0, map[string]string{".env": "credentials"}},
		{"a changed file is not added twice", []string{"greet"}, -1, map[string]string{}},
		{"an empty path is not the root", []string{"", " "}, -1, map[string]string{}},
		{"the same file twice", []string{"docs/top.md", "docs/../docs/top.md"}, 0, map[string]string{"docs/top.md": "included"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := buildContext(t, ch, ContextOptions{Paths: tt.paths, RecurseDepth: tt.depth, ErrorMode: ErrorIgnore})
			if err != nil {
				t.Fatal(err)
			}
			if got := contextStates(res.Record); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("context files:\n got %v\nwant %v\nwarnings %v", got, tt.want, res.Record.Warnings)
			}
			never := []string{"IGNOREDDIR", "TOKENDOC", "ENVDOC", "OUTSIDEDOC", "BINCTX"}
			if _, asked := tt.want["docs/node_modules/dep/dep.js"]; !asked {
				never = append(never, "DEPDOC")
			}
			for _, marker := range never {
				if strings.Contains(res.Text, marker) {
					t.Errorf("the pack holds %s", marker)
				}
			}
			for _, f := range res.Record.Files {
				heading := regexp.MustCompile(`(?m)^### ` + regexp.QuoteMeta(f.Path) + ` \((.*; )?context\)$`)
				if f.Role == RoleContext && f.Included && !heading.MatchString(res.Text) {
					t.Errorf("%s is included but has no content heading", f.Path)
				}
			}
		})
	}
}

// TestContextDirLimit checks that a directory of 60 files gives its first
// 50 by name, records the other 10, and warns once, naming it.
func TestContextDirLimit(t *testing.T) {
	ch := contextRepo(t).change("HEAD~1..HEAD")
	res, err := buildContext(t, ch, ContextOptions{Paths: []string{"many"}, ErrorMode: ErrorIgnore})
	if err != nil {
		t.Fatal(err)
	}
	states := contextStates(res.Record)
	for i := 1; i <= 60; i++ {
		want := "included"
		if i > 50 {
			want = ReasonDirLimit
		}
		if p := fmt.Sprintf("many/f%02d.txt", i); states[p] != want {
			t.Errorf("%s: %q, want %q", p, states[p], want)
		}
	}
	want := []Problem{{Path: "many", Kind: ReasonDirLimit,
		Message: "60 files, over the limit of 50 per directory: the first 50 by name are packed, 10 left out"}}
	if !reflect.DeepEqual(res.Record.Warnings, want) {
		t.Errorf("warnings = %+v, want %+v", res.Record.Warnings, want)
	}
	res, err = buildContext(t, ch, ContextOptions{Paths: []string{"many"}, MaxFilesPerDir: 60, ErrorMode: ErrorStrict})
	if err != nil || len(res.Record.Warnings) != 0 {
		t.Errorf("with a limit of 60: %v, warnings %v", err, res.Record.Warnings)
	}
}

// TestContextCmdPaths checks the paths a context command printed: those
// inside the repository are packed, the others are problems.
func TestContextCmdPaths(t *testing.T) {
	r := contextRepo(t)
	ch := r.change("HEAD~1..HEAD")
	res, err := buildContext(t, ch, ContextOptions{ErrorMode: ErrorIgnore, CmdPaths: []string{
		"docs/design/design.md", filepath.Join(r.Dir, "docs", "top.md"), "../elsewhere.md", "/etc/hostname", "gone.md"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"docs/design/design.md": "included", "docs/top.md": "included"}
	if got := contextStates(res.Record); !reflect.DeepEqual(got, want) {
		t.Errorf("context files = %v, want %v", got, want)
	}
	for _, f := range res.Record.Files {
		if f.Role == RoleContext && f.Reason != "--context-cmd" {
			t.Errorf("%s: reason %q, want --context-cmd", f.Path, f.Reason)
		}
	}
	kinds := map[string]string{}
	for _, p := range res.Record.Warnings {
		kinds[p.Path] = p.Kind
	}
	wantKinds := map[string]string{"../elsewhere.md": ProblemOutside, "/etc/hostname": ProblemOutside, "gone.md": ProblemMissing}
	if !reflect.DeepEqual(kinds, wantKinds) {
		t.Errorf("problems = %v, want %v", kinds, wantKinds)
	}
}

// TestContextOptionErrors checks the error of context without a
// repository, and of a bad error mode.
func TestContextOptionErrors(t *testing.T) {
	ch := contextRepo(t).change("HEAD~1..HEAD")
	if _, err := buildContext(t, ch, ContextOptions{Paths: []string{"docs"}, ErrorMode: "lenient"}); err == nil || !strings.Contains(err.Error(), "lenient") {
		t.Errorf("a bad error mode: %v", err)
	}
	patch, err := gitctx.ReadPatch(context.Background(), nil, "p.diff", strings.NewReader("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := buildContext(t, patch, ContextOptions{Paths: []string{"docs"}}); err == nil || !strings.Contains(err.Error(), "repository") {
		t.Errorf("context without a repository: %v", err)
	}
	var cerr *ContextError
	if errors.As(err, &cerr) {
		t.Errorf("context without a repository is not a problem of the context: %v", err)
	}
}

// TestContextCredentialNamed checks that a credential file named as
// context is left out with a warning in every error mode (a strict pack
// does not fail over it), and that one met in a walk is only recorded.
func TestContextCredentialNamed(t *testing.T) {
	ch := contextRepo(t).change("HEAD~1..HEAD")
	for _, mode := range []ErrorMode{ErrorStrict, ErrorFlexible, ErrorIgnore} {
		res, err := buildContext(t, ch, ContextOptions{Paths: []string{".env", "docs"}, ErrorMode: mode})
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		var warned []string
		for _, w := range res.Record.Warnings {
			if w.Kind == ReasonCredentials {
				warned = append(warned, w.Path)
			}
		}
		if !reflect.DeepEqual(warned, []string{".env"}) {
			t.Errorf("%s: credential warnings for %v, want [.env] (docs/api_token.txt was met in a walk)", mode, warned)
		}
		if strings.Contains(res.Text, "ENVDOC") {
			t.Errorf("%s: the pack holds the credential file", mode)
		}
	}
}

// TestContextFormats checks that context files render in every format.
func TestContextFormats(t *testing.T) {
	ch := contextRepo(t).change("HEAD~1..HEAD")
	for _, f := range formats {
		opts := options(counter(t), f, 0)
		opts.Context = ContextOptions{Paths: []string{"docs/top.md", "docs/utf16.txt"}, ErrorMode: ErrorStrict}
		res := build(t, ch, opts)
		checkParses(t, f, res.Text)
		if !strings.Contains(res.Text, "TOPDOC") || !strings.Contains(res.Text, "docs/utf16.txt") {
			t.Errorf("%s: the context files are not in the pack", f)
		}
	}
}

func TestNaturalCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"f2.txt", "f10.txt", -1},
		{"f10.txt", "f9.txt", 1},
		{"f010.txt", "f10.txt", 0},
		{"f1.txt", "f1.txt", 0},
		{"a/f1", "b/f0", -1},
		{"f1a", "f1b", -1},
		{"f", "f1", -1},
		{"v1.10.2", "v1.9.9", 1},
	} {
		if got := naturalCompare(tc.a, tc.b); got != tc.want {
			t.Errorf("naturalCompare(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
