package neighbours

import (
	"cmp"
	"fmt"
	"path"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/gitctx/gittest"
)

// This file holds the helpers the tests share: real repositories built
// with the git CLI in a temporary directory, isolated from the user's and
// the system's configuration, with a fixed identity and fixed dates so
// that every run makes the same commits.

// testRepo is a repository under construction. Its commits are a minute
// apart, so that a history of hundreds of commits keeps its order.
type testRepo struct{ *gittest.Repo }

// newTestRepo makes an empty repository on branch main, with git isolated
// from the user's and the system's configuration.
func newTestRepo(t testing.TB) *testRepo {
	r := &testRepo{gittest.New(t, "repo")}
	r.Date = gittest.MinuteDates
	return r
}

// commitEach writes and commits each file on its own, in path order, so
// that the files share no history: a commit of one file says nothing about
// co-change.
func (r *testRepo) commitEach(files map[string]string) {
	r.TB.Helper()
	for _, name := range sortedKeys(files) {
		r.WriteAll(map[string]string{name: files[name]})
		r.Commit("add " + name)
	}
}

// open opens the repository with gitctx and closes it after the test.
func (r *testRepo) open() *gitctx.Repo {
	r.TB.Helper()
	repo, err := gitctx.Open(r.TB.Context(), r.Dir)
	if err != nil {
		r.TB.Fatalf("Open(%s): %v", r.Dir, err)
	}
	r.TB.Cleanup(func() { _ = repo.Close() })
	return repo
}

// selectRange selects a revision range of the repository.
func (r *testRepo) selectRange(spec string) *gitctx.Change {
	r.TB.Helper()
	ch, err := r.open().SelectRange(r.TB.Context(), spec)
	if err != nil {
		r.TB.Fatalf("SelectRange(%q): %v", spec, err)
	}
	r.TB.Cleanup(func() { _ = ch.Close() })
	return ch
}

// selectWorktree selects the uncommitted changes of the repository.
func (r *testRepo) selectWorktree() *gitctx.Change {
	r.TB.Helper()
	ch, err := r.open().SelectWorktree(r.TB.Context())
	if err != nil {
		r.TB.Fatalf("SelectWorktree: %v", err)
	}
	r.TB.Cleanup(func() { _ = ch.Close() })
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
	maxGuides, perKind := cmp.Or(opts.MaxGuides, DefaultMaxGuides), cmp.Or(opts.MaxGuidesPerKind, DefaultMaxGuidesPerKind)
	if len(guides) > maxGuides {
		t.Errorf("Find returned %d guides, want at most %d", len(guides), maxGuides)
	}
	kinds := map[string]int{}
	for _, g := range guides {
		k := guideKind(path.Base(g.Path))
		if kinds[k]++; kinds[k] == perKind+1 {
			t.Errorf("Find returned more than %d guides of the kind %s: %q", perKind, k, guidePaths(guides))
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

// wantReasons checks that each path is a neighbour with a reason that
// contains the text given for it.
func wantReasons(t *testing.T, ns []Neighbour, want map[string]string) {
	t.Helper()
	for _, p := range sortedKeys(want) {
		if n := neighbour(t, ns, p); !hasReason(n, want[p]) {
			t.Errorf("%s reasons %q, want one with %q", p, n.Reasons, want[p])
		}
	}
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
