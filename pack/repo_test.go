package pack

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/secrets"
)

// This file holds the helpers the tests share: real git repositories made
// in a temporary directory with a fixed identity and fixed dates (so that
// commit ids are the same on every machine), and a pack built from them.

// gitRepo is a repository under construction.
type gitRepo struct {
	tb      testing.TB
	dir     string
	commits int
}

// newRepo makes an empty repository named name (the name a pack falls back
// to as the project's name) and isolates git from the user's configuration,
// for the git commands of the test and of gitctx alike.
func newRepo(tb testing.TB, name string) *gitRepo {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git is not on PATH")
	}
	home := tb.TempDir()
	global := filepath.Join(home, "gitconfig")
	if err := os.WriteFile(global, nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Setenv("GIT_CONFIG_GLOBAL", global)
	tb.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	tb.Setenv("HOME", home)
	tb.Setenv("XDG_CONFIG_HOME", home)
	r := &gitRepo{tb: tb, dir: filepath.Join(tb.TempDir(), name)}
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	r.git("init", "-q", "-b", "main")
	for _, kv := range [][2]string{
		{"user.name", "Ada Tester"}, {"user.email", "ada@example.com"}, {"commit.gpgsign", "false"},
		{"init.defaultBranch", "main"}, {"core.autocrlf", "false"}, {"core.quotePath", "false"},
	} {
		r.git("config", kv[0], kv[1])
	}
	return r
}

// git runs git in the repository and returns its standard output.
func (r *gitRepo) git(args ...string) string {
	r.tb.Helper()
	out, err := r.gitErr(args...)
	if err != nil {
		r.tb.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

func (r *gitRepo) gitErr(args ...string) (string, error) {
	date := fmt.Sprintf("2024-01-%02dT12:00:00Z", 1+r.commits%28)
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=Ada Tester", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME=Ada Tester", "GIT_COMMITTER_EMAIL=ada@example.com", "GIT_COMMITTER_DATE="+date)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%w: %s", err, stderr.String())
	}
	return string(out), nil
}

// write writes a file of the work tree, making its directories.
func (r *gitRepo) write(name, content string) {
	r.tb.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.tb.Fatal(err)
	}
}

// writeAll writes several files.
func (r *gitRepo) writeAll(files map[string]string) {
	r.tb.Helper()
	for name, content := range files {
		r.write(name, content)
	}
}

// commit stages everything and commits it; it returns the commit id.
func (r *gitRepo) commit(msg string) string {
	r.tb.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	r.commits++
	return strings.TrimSpace(r.git("rev-parse", "HEAD"))
}

// change selects a change of the repository: "--staged", "--worktree" or
// a revision range. It is closed when the test ends.
func (r *gitRepo) change(spec string) *gitctx.Change {
	r.tb.Helper()
	ctx := context.Background()
	repo, err := gitctx.Open(ctx, r.dir)
	if err != nil {
		r.tb.Fatal(err)
	}
	r.tb.Cleanup(func() { _ = repo.Close() })
	var ch *gitctx.Change
	switch spec {
	case "--staged":
		ch, err = repo.SelectStaged(ctx)
	case "--worktree":
		ch, err = repo.SelectWorktree(ctx)
	default:
		ch, err = repo.SelectRange(ctx, spec)
	}
	if err != nil {
		r.tb.Fatalf("select %s: %v", spec, err)
	}
	r.tb.Cleanup(func() { _ = ch.Close() })
	return ch
}

// counter is the o200k_base counter every test uses.
func counter(tb testing.TB) Counter {
	tb.Helper()
	c, err := NewCounter("o200k_base", 1)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// fixedNow is the creation time of every record the tests make.
func fixedNow() time.Time { return time.Date(2024, 2, 3, 4, 5, 6, 0, time.UTC) }

// testGate is the secrets gate of the tests, built once: building one
// compiles every gitleaks rule.
var testGate = sync.OnceValue(func() *secrets.Gate {
	g, err := secrets.New(secrets.Options{})
	if err != nil {
		panic(err)
	}
	return g
})

// options are the options of a test pack in a format with a budget (0: the
// default).
func options(c Counter, f Format, limit int) Options {
	return Options{
		Format: f, Rules: DefaultRules(), Counter: c, Gate: testGate(), Now: fixedNow,
		Tool:   Tool{Name: "gitctx", Version: "test"},
		Budget: Budget{Limit: limit},
	}
}

// build builds a pack and fails the test on an error.
func build(tb testing.TB, ch *gitctx.Change, opts Options) *Result {
	tb.Helper()
	res, err := Build(context.Background(), ch, opts)
	if err != nil {
		tb.Fatalf("Build(%s, limit %d): %v", opts.Format, opts.Budget.Limit, err)
	}
	return res
}

var formats = []Format{Markdown, XML, JSON}

// textDiff shows where two texts part, line by line, for failure messages
// (go-cmp is not a direct requirement of the module).
func textDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("first difference at line %d:\n got: %q\nwant: %q\n(got %d lines, want %d)", i+1, gl, wl, len(g), len(w))
		}
	}
	return ""
}

// shapeSegments runs Build's steps up to the shaped segments, which Build
// does not return, so that tests can check each segment. The caller checks
// that their text is Build's pack.
func shapeSegments(tb testing.TB, ch *gitctx.Change, opts Options) ([]*segment, error) {
	tb.Helper()
	ctx := context.Background()
	opts.defaults()
	_, s, err := newBuilder(ch, opts).prepare(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	return s.shape(ctx)
}
