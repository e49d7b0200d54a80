package pack

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/gitctx/gittest"
	"github.com/gitctx/gitctx/secrets"
)

// This file holds the helpers the tests share: real git repositories made
// in a temporary directory with a fixed identity and fixed dates (so that
// commit ids are the same on every machine), and a pack built from them.

// gitRepo is a repository under construction.
type gitRepo struct{ *gittest.Repo }

// newRepo makes an empty repository named name (the name a pack falls back
// to as the project's name), with git isolated from the user's
// configuration.
func newRepo(tb testing.TB, name string) *gitRepo { return &gitRepo{gittest.New(tb, name)} }

// change selects a change of the repository: "--staged", "--worktree" or
// a revision range. It is closed when the test ends.
func (r *gitRepo) change(spec string) *gitctx.Change {
	r.TB.Helper()
	ctx := context.Background()
	repo, err := gitctx.Open(ctx, r.Dir)
	if err != nil {
		r.TB.Fatal(err)
	}
	r.TB.Cleanup(func() { _ = repo.Close() })
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
		r.TB.Fatalf("select %s: %v", spec, err)
	}
	r.TB.Cleanup(func() { _ = ch.Close() })
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
