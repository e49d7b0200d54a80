package pack

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// denyRead is a work-tree reader that finds one file unreadable, as a file
// without read permission is (chmod cannot make one when the tests run as
// root).
func denyRead(ch interface {
	ReadWorktree(string, int64) (int64, []byte, error)
}, denied string) func(string, int64) (int64, []byte, error) {
	return func(name string, limit int64) (int64, []byte, error) {
		if name == denied {
			return 0, nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		}
		return ch.ReadWorktree(name, limit)
	}
}

// TestContextProblems runs each kind of problem in each error mode: strict
// fails listing it, flexible asks Confirm (and goes on without one), ignore
// goes on; whoever goes on packs the valid file beside it and records the
// problem as a warning.
func TestContextProblems(t *testing.T) {
	r := contextRepo(t)
	ch := r.change("HEAD~1..HEAD")
	kinds := []struct {
		name     string
		opts     ContextOptions
		want     Problem // the message is checked for a word only
		word     string
		excluded string // the file's exclusion reason in the record, if it has an entry
	}{
		{"missing", ContextOptions{Paths: []string{"nope.txt"}}, Problem{Path: "nope.txt", Kind: ProblemMissing}, "no such file", ""},
		{"permission denied", ContextOptions{Paths: []string{"docs/top.md"}, read: denyRead(ch.Repo(), "docs/top.md")},
			Problem{Path: "docs/top.md", Kind: ProblemPermission}, "permission", ReasonUnreadable},
		{"too large", ContextOptions{Paths: []string{"docs/wide.txt"}, MaxFileBytes: 1024},
			Problem{Path: "docs/wide.txt", Kind: ReasonSizeLimit}, "3,001 bytes", ReasonSizeLimit},
		{"directory over its limit", ContextOptions{Paths: []string{"many"}},
			Problem{Path: "many", Kind: ReasonDirLimit}, "60 files", ""},
		{"binary", ContextOptions{Paths: []string{"media/blob.bin"}},
			Problem{Path: "media/blob.bin", Kind: ReasonBinary}, "binary", ReasonBinary},
		{"undecodable", ContextOptions{Paths: []string{"enc/bad16.txt"}},
			Problem{Path: "enc/bad16.txt", Kind: ReasonEncoding}, "UTF-16", ReasonEncoding},
		{"outside the repository", ContextOptions{Paths: []string{"../elsewhere.md"}},
			Problem{Path: "../elsewhere.md", Kind: ProblemOutside}, "outside", ""},
		{"a link out of the repository", ContextOptions{Paths: []string{"docs/out.md"}},
			Problem{Path: "docs/out.md", Kind: ProblemOutside}, "outside", ""},
		{"inside .git", ContextOptions{Paths: []string{".git/config"}},
			Problem{Path: ".git/config", Kind: ProblemOutside}, ".git", ""},
	}
	modes := []struct {
		name    string
		mode    ErrorMode
		confirm *bool // nil: no Confirm
		fails   bool
	}{
		{"strict", ErrorStrict, nil, true},
		{"flexible without a terminal", ErrorFlexible, nil, false},
		{"flexible, confirmed", ErrorFlexible, ptr(true), false},
		{"flexible, declined", ErrorFlexible, ptr(false), true},
		{"default mode (flexible)", "", nil, false},
		{"ignore", ErrorIgnore, nil, false},
	}
	for _, k := range kinds {
		for _, m := range modes {
			t.Run(k.name+"/"+m.name, func(t *testing.T) {
				opts := k.opts
				opts.Paths = append(append([]string{}, opts.Paths...), "docs/salutations.md")
				opts.ErrorMode = m.mode
				var asked []Problem
				if m.confirm != nil {
					opts.Confirm = func(p []Problem) bool { asked = p; return *m.confirm }
				}
				res, err := buildContext(t, ch, opts)
				checkProblem(t, res, err, k.want, k.word, m.fails)
				if m.confirm != nil && (len(asked) != 1 || asked[0].Path != k.want.Path) {
					t.Errorf("Confirm was asked about %+v, want the one problem", asked)
				}
				if m.fails {
					var cerr *ContextError
					if errors.As(err, &cerr) && cerr.Declined != (m.confirm != nil) {
						t.Errorf("Declined = %v", cerr.Declined)
					}
					return
				}
				if !strings.Contains(res.Text, "How greetings and salutations") {
					t.Error("the valid context file is not packed")
				}
				if got := contextStates(res.Record)[k.want.Path]; got != k.excluded && (k.excluded != "" || got != "") {
					t.Errorf("%s in the record: %q, want %q", k.want.Path, got, k.excluded)
				}
			})
		}
	}
}

func ptr[T any](v T) *T { return &v }

// checkProblem checks that a build met exactly one problem, like want, and
// failed with it or went on with it as a warning.
func checkProblem(t *testing.T, res *Result, err error, want Problem, word string, fails bool) {
	t.Helper()
	if res == nil {
		t.Fatalf("no result: %v", err)
	}
	list := res.Record.Warnings
	if fails {
		var cerr *ContextError
		if !errors.As(err, &cerr) {
			t.Fatalf("error %v, want a *ContextError", err)
		}
		if !reflect.DeepEqual(cerr.Problems, res.Record.Errors) || len(res.Record.Warnings) != 0 || res.Text != "" {
			t.Errorf("a failed pack: errors %+v, warnings %+v, pack of %d bytes; want the error's problems as errors, and nothing else",
				res.Record.Errors, res.Record.Warnings, len(res.Text))
		}
		if !strings.Contains(err.Error(), want.Path) {
			t.Errorf("the error %q does not name %s", err, want.Path)
		}
		list = cerr.Problems
	} else if err != nil {
		t.Fatalf("error %v, want none", err)
	}
	if len(list) != 1 || list[0].Path != want.Path || list[0].Kind != want.Kind || !strings.Contains(list[0].Message, word) {
		t.Errorf("problems %+v, want one like %+v with %q", list, want, word)
	}
}

// TestContextPermissionDenied makes a file unreadable for real, where the
// tests do not run as root.
func TestContextPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	r := contextRepo(t)
	ch := r.change("HEAD~1..HEAD")
	p := filepath.Join(r.Dir, "docs", "top.md")
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(p, 0o644)
	res, err := buildContext(t, ch, ContextOptions{Paths: []string{"docs/top.md"}, ErrorMode: ErrorStrict})
	checkProblem(t, res, err, Problem{Path: "docs/top.md", Kind: ProblemPermission}, "permission", true)
}

// TestContextWalkProblemsQuiet checks that a binary or too large file met
// in a walk is recorded, not a problem, and never read: the reader fails
// the test if it is asked for one.
func TestContextWalkProblemsQuiet(t *testing.T) {
	ch := contextRepo(t).change("HEAD~1..HEAD")
	read := func(name string, limit int64) (int64, []byte, error) {
		if strings.HasSuffix(name, ".png") || name == "docs/wide.txt" || name == "docs/api_token.txt" {
			t.Errorf("%s was read", name)
		}
		return ch.Repo().ReadWorktree(name, limit)
	}
	res, err := buildContext(t, ch, ContextOptions{Paths: []string{"docs", "media"}, RecurseDepth: 0, MaxFileBytes: 1024,
		ErrorMode: ErrorStrict, read: read})
	if err != nil {
		t.Fatalf("a walk with binary and large files: %v", err)
	}
	states := contextStates(res.Record)
	for p, want := range map[string]string{"media/blob.bin": ReasonBinary, "docs/wide.txt": ReasonSizeLimit, "docs/pic.png": ReasonBinary} {
		if states[p] != want {
			t.Errorf("%s: %q, want %q", p, states[p], want)
		}
	}
}
