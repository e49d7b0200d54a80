package neighbours

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// This file holds the helpers the tests share: real repositories built
// with the git CLI in a temporary directory, isolated from the user's and
// the system's configuration, with a fixed identity and fixed dates so
// that every run makes the same commits.

// testRepo is a repository under construction.
type testRepo struct {
	t       testing.TB
	dir     string
	commits int
}

// newTestRepo makes an empty repository on branch main, with git isolated
// from the user's and the system's configuration for the test's git
// commands and gitctx's alike.
func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	home := t.TempDir()
	global := filepath.Join(home, "gitconfig")
	if err := os.WriteFile(global, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"} {
		t.Setenv(v, "") // restored after the test
		os.Unsetenv(v)
	}
	r := &testRepo{t: t, dir: filepath.Join(t.TempDir(), "repo")}
	if err := os.Mkdir(r.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("init", "-q", "-b", "main")
	for _, kv := range [][2]string{
		{"user.name", "Ada Tester"}, {"user.email", "ada@example.com"},
		{"commit.gpgsign", "false"}, {"init.defaultBranch", "main"},
		{"core.autocrlf", "false"},
	} {
		r.git("config", kv[0], kv[1])
	}
	return r
}

// git runs git in the repository and returns its standard output.
func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	date := fmt.Sprintf("2024-01-01T%02d:%02d:00Z", r.commits/60%24, r.commits%60)
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=Ada Tester", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME=Ada Tester", "GIT_COMMITTER_EMAIL=ada@example.com", "GIT_COMMITTER_DATE="+date)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// rev resolves a revision to a full id.
func (r *testRepo) rev(rev string) string {
	r.t.Helper()
	return strings.TrimSpace(r.git("rev-parse", "--verify", rev))
}

// write writes files of the work tree, making their directories.
func (r *testRepo) write(files map[string]string) {
	r.t.Helper()
	for name, content := range files {
		p := filepath.Join(r.dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// commit stages everything and commits it, returning the new commit's id.
// Each commit is a minute after the one before.
func (r *testRepo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	r.commits++
	return r.rev("HEAD")
}

// commitEach writes and commits each file on its own, in path order, so
// that the files share no history: a commit of one file says nothing about
// co-change.
func (r *testRepo) commitEach(files map[string]string) {
	r.t.Helper()
	for _, name := range sortedKeys(files) {
		r.write(map[string]string{name: files[name]})
		r.commit("add " + name)
	}
}

// open opens the repository with gitctx and closes it after the test.
func (r *testRepo) open() *gitctx.Repo {
	r.t.Helper()
	repo, err := gitctx.Open(r.t.Context(), r.dir)
	if err != nil {
		r.t.Fatalf("Open(%s): %v", r.dir, err)
	}
	r.t.Cleanup(func() { _ = repo.Close() })
	return repo
}

// selectRange selects a revision range of the repository.
func (r *testRepo) selectRange(spec string) *gitctx.Change {
	r.t.Helper()
	ch, err := r.open().SelectRange(r.t.Context(), spec)
	if err != nil {
		r.t.Fatalf("SelectRange(%q): %v", spec, err)
	}
	r.t.Cleanup(func() { _ = ch.Close() })
	return ch
}

// selectWorktree selects the uncommitted changes of the repository.
func (r *testRepo) selectWorktree() *gitctx.Change {
	r.t.Helper()
	ch, err := r.open().SelectWorktree(r.t.Context())
	if err != nil {
		r.t.Fatalf("SelectWorktree: %v", err)
	}
	r.t.Cleanup(func() { _ = ch.Close() })
	return ch
}

// find runs Find and checks the invariants every answer keeps: each
// neighbour has reasons and a positive score, the list is sorted by score
// descending (then by path), no path is listed twice, no neighbour is a
// changed file, and no more than Max are returned.
func find(t testing.TB, ch *gitctx.Change, opts Options) ([]Neighbour, []Guide) {
	t.Helper()
	ns, guides, err := Find(t.Context(), ch, opts)
	if err != nil {
		t.Fatalf("Find: %v", err)
	}
	checkInvariants(t, ch, opts, ns, guides)
	return ns, guides
}

func checkInvariants(t testing.TB, ch *gitctx.Change, opts Options, ns []Neighbour, guides []Guide) {
	t.Helper()
	changed := map[string]bool{}
	for _, f := range ch.Files {
		changed[f.Path] = true
		if f.OldPath != "" {
			changed[f.OldPath] = true
		}
	}
	max := opts.Max
	if max <= 0 {
		max = DefaultMax
	}
	if len(ns) > max {
		t.Errorf("Find returned %d neighbours, want at most %d", len(ns), max)
	}
	seen := map[string]bool{}
	for i, n := range ns {
		if len(n.Reasons) == 0 {
			t.Errorf("neighbour %s has no reasons", n.Path)
		}
		for _, reason := range n.Reasons {
			if strings.TrimSpace(reason) == "" {
				t.Errorf("neighbour %s has an empty reason among %q", n.Path, n.Reasons)
			}
		}
		if !(n.Score > 0) {
			t.Errorf("neighbour %s has score %v, want > 0", n.Path, n.Score)
		}
		if i > 0 {
			prev := ns[i-1]
			if prev.Score < n.Score || prev.Score == n.Score && prev.Path > n.Path {
				t.Errorf("neighbours out of order: %s (%v) before %s (%v)", prev.Path, prev.Score, n.Path, n.Score)
			}
		}
		if seen[n.Path] {
			t.Errorf("neighbour %s listed twice", n.Path)
		}
		seen[n.Path] = true
		if changed[n.Path] {
			t.Errorf("changed file %s returned as a neighbour", n.Path)
		}
		if opts.Skip != nil && opts.Skip(n.Path) {
			t.Errorf("skipped file %s returned as a neighbour", n.Path)
		}
	}
	for _, g := range guides {
		if g.Reason == "" {
			t.Errorf("guide %s has no reason", g.Path)
		}
		if changed[g.Path] {
			t.Errorf("changed file %s returned as a guide", g.Path)
		}
		if opts.Skip != nil && opts.Skip(g.Path) {
			t.Errorf("skipped file %s returned as a guide", g.Path)
		}
	}
}

// neighbourPaths lists the paths of the neighbours, in rank order.
func neighbourPaths(ns []Neighbour) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Path)
	}
	return out
}

func guidePaths(gs []Guide) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.Path)
	}
	return out
}

// rank is the position of path among the neighbours, -1 when absent.
func rank(ns []Neighbour, path string) int {
	for i, n := range ns {
		if n.Path == path {
			return i
		}
	}
	return -1
}

// neighbour returns the neighbour with the path, failing the test when it
// is absent.
func neighbour(t testing.TB, ns []Neighbour, path string) Neighbour {
	t.Helper()
	if i := rank(ns, path); i >= 0 {
		return ns[i]
	}
	t.Fatalf("%s is not among the neighbours:\n%s", path, describe(ns))
	return Neighbour{}
}

// ranksAbove checks that a ranks strictly above b (b may be absent), by
// position and by score.
func ranksAbove(t testing.TB, ns []Neighbour, a, b string) {
	t.Helper()
	ia, ib := rank(ns, a), rank(ns, b)
	if ia < 0 {
		t.Errorf("%s is not among the neighbours:\n%s", a, describe(ns))
		return
	}
	if ib >= 0 && !(ia < ib && ns[ia].Score > ns[ib].Score) {
		t.Errorf("%s should rank above %s with a higher score:\n%s", a, b, describe(ns))
	}
}

// absent checks that none of the paths is a neighbour.
func absent(t testing.TB, ns []Neighbour, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if i := rank(ns, p); i >= 0 {
			t.Errorf("%s should not be a neighbour, got it with %v %q:\n%s", p, ns[i].Score, ns[i].Reasons, describe(ns))
		}
	}
}

// hasReason reports whether one of the neighbour's reasons contains s.
func hasReason(n Neighbour, s string) bool {
	for _, r := range n.Reasons {
		if strings.Contains(r, s) {
			return true
		}
	}
	return false
}

// describe renders neighbours for a failure message.
func describe(ns []Neighbour) string {
	var b strings.Builder
	for i, n := range ns {
		fmt.Fprintf(&b, "  %2d %-40s %6.3f %q\n", i, n.Path, n.Score, n.Reasons)
	}
	if len(ns) == 0 {
		b.WriteString("  (none)\n")
	}
	return b.String()
}

// sorted returns a sorted copy of list (nil for an empty one).
func sorted(list []string) []string {
	if len(list) == 0 {
		return nil
	}
	out := append([]string(nil), list...)
	sort.Strings(out)
	return out
}

// checkEqual reports a difference between got and want.
func checkEqual(t testing.TB, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got: %#v\nwant: %#v", what, got, want)
	}
}

// allPatches reads the patch of every file of the change.
func allPatches(t testing.TB, ch *gitctx.Change) map[*gitctx.File]*gitctx.Patch {
	t.Helper()
	out := map[*gitctx.File]*gitctx.Patch{}
	err := ch.Patches(t.Context(), func(*gitctx.File) bool { return true }, 1<<20, func(f *gitctx.File, p *gitctx.Patch) error {
		out[f] = p
		return nil
	})
	if err != nil {
		t.Fatalf("Patches: %v", err)
	}
	return out
}
