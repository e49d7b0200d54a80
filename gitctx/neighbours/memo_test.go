package neighbours

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gitctx/gitctx/gitctx"
)

// memoEntries lists the entries in a memo's directory.
func memoEntries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range des {
		out = append(out, d.Name())
	}
	return out
}

// memoShop commits a change to the shop and opens a memo for it.
func memoShop(t *testing.T) (r *testRepo, ch *gitctx.Change, dir string, memo *Memo) {
	t.Helper()
	r = newShop(t)
	r.WriteAll(map[string]string{"price/price.go": priceChange})
	r.Commit("discounted totals")
	dir = t.TempDir()
	memo, err := OpenMemo(dir, "test build")
	if err != nil {
		t.Fatal(err)
	}
	return r, r.selectRange("HEAD~1..HEAD"), dir, memo
}

// plant overwrites every entry of a memo with one neighbour no search
// finds: a Find that returns it read the memo.
func plant(t *testing.T, dir string) {
	t.Helper()
	data, _ := json.Marshal(memoEntry{Neighbours: []Neighbour{{Path: "planted.go", Score: 9, Reasons: []string{"planted"}}}})
	for _, name := range memoEntries(t, dir) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMemo: a range's neighbours are kept, and found again only for the
// same commits, files, options and build.
func TestMemo(t *testing.T) {
	r, ch, dir, memo := memoShop(t)
	skip := func(p string) bool { return strings.HasPrefix(p, "report/") }
	opts := Options{Max: 50, Memo: memo, Skip: skip, MemoKey: "no report"}
	want, wantGuides := find(t, ch, opts)
	if n := len(memoEntries(t, dir)); n != 1 {
		t.Fatalf("%d entries after one search, want 1", n)
	}
	got, gotGuides := find(t, ch, opts)
	checkEqual(t, "neighbours from the memo", got, want)
	checkEqual(t, "guides from the memo", gotGuides, wantGuides)

	plant(t, dir)
	if ns, _ := find(t, ch, opts); len(ns) != 1 || ns[0].Path != "planted.go" {
		t.Fatalf("the same search again did not read the memo:\n%s", describe(ns))
	}
	other, _ := OpenMemo(dir, "another build")
	for name, o := range map[string]Options{
		"another Max":     {Max: 49, Memo: memo, Skip: skip, MemoKey: "no report"},
		"another depth":   {Max: 50, HistoryDepth: 5, Memo: memo, Skip: skip, MemoKey: "no report"},
		"another MemoKey": {Max: 50, Memo: memo, Skip: func(string) bool { return false }, MemoKey: "all"},
		"no MemoKey":      {Max: 50, Memo: memo, Skip: skip},
		"another build":   {Max: 50, Memo: other, Skip: skip, MemoKey: "no report"},
		"guides only":     {Max: 50, Memo: memo, Skip: skip, MemoKey: "no report", GuidesOnly: true},
	} {
		if ns, _ := find(t, ch, o); len(ns) > 0 && ns[0].Path == "planted.go" {
			t.Errorf("%s: the memo answered", name)
		}
	}
	if n := len(memoEntries(t, dir)); n != 5 {
		t.Errorf("%d entries, want 5: the first, and one for each other Max, depth, MemoKey and build", n)
	}

	r.WriteAll(map[string]string{"cart/cart.go": "package cart\n"})
	r.Commit("a later commit")
	later := r.selectRange("HEAD~2..HEAD")
	if ns, _ := find(t, later, opts); len(ns) > 0 && ns[0].Path == "planted.go" {
		t.Errorf("another range: the memo answered")
	}
}

// TestMemoOnlyRanges: a change of the work tree is searched every time,
// and a memo of a build that cannot name itself is none.
func TestMemoOnlyRanges(t *testing.T) {
	r := newShop(t)
	r.WriteAll(map[string]string{"price/price.go": priceChange})
	dir := t.TempDir()
	memo, _ := OpenMemo(dir, "test build")
	find(t, r.selectWorktree(), Options{Memo: memo})
	if es := memoEntries(t, dir); len(es) != 0 {
		t.Errorf("a work tree's neighbours were kept: %q", es)
	}
	if m, err := OpenMemo(t.TempDir(), ""); m != nil || err != nil {
		t.Errorf("OpenMemo with no build = %v, %v; want none", m, err)
	}
}

// TestMemoBadEntry: an entry that is not whole is searched again, and
// written again whole.
func TestMemoBadEntry(t *testing.T) {
	_, ch, dir, memo := memoShop(t)
	want, _ := find(t, ch, Options{Memo: memo})
	name := memoEntries(t, dir)[0]
	data, _ := os.ReadFile(filepath.Join(dir, name))
	if err := os.WriteFile(filepath.Join(dir, name), data[:len(data)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := find(t, ch, Options{Memo: memo})
	checkEqual(t, "neighbours with a torn entry", got, want)
	if again, _ := os.ReadFile(filepath.Join(dir, name)); string(again) != string(data) {
		t.Errorf("the torn entry was not written again")
	}
}

// TestMemoTrim: past maxMemoEntries, the oldest half go, and old
// temporary files with them.
func TestMemoTrim(t *testing.T) {
	dir := t.TempDir()
	memo, _ := OpenMemo(dir, "test build")
	old := time.Now().Add(-2 * time.Hour)
	for i := range maxMemoEntries {
		name := filepath.Join(dir, fmt.Sprintf("%064d", i))
		if i == 0 {
			name = filepath.Join(dir, ".tmp-crashed")
		}
		if err := os.WriteFile(name, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
		mod := old.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(name, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	memo.put(strings.Repeat("f", 64), memoEntry{})
	es := memoEntries(t, dir)
	if len(es) != (maxMemoEntries+1)-(maxMemoEntries+1)/2 {
		t.Errorf("%d entries after the trim, want %d", len(es), (maxMemoEntries+1)-(maxMemoEntries+1)/2)
	}
	for _, want := range []string{strings.Repeat("f", 64), fmt.Sprintf("%064d", maxMemoEntries-1)} {
		if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
			t.Errorf("the newest entries must stay: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".tmp-crashed")); err == nil {
		t.Errorf("an old temporary file stayed")
	}
}
