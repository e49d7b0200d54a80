package pack

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/secrets"
)

// tallyCounter counts with a real counter and tallies the texts it counts.
type tallyCounter struct {
	Counter
	n atomic.Int64
}

func (c *tallyCounter) Count(s string) int {
	c.n.Add(1)
	return c.Counter.Count(s)
}

func openCounts(t *testing.T, dir string) *CountCache {
	t.Helper()
	c, err := OpenCountCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestCountCache(t *testing.T) {
	dir := t.TempDir()
	real := counter(t)
	texts := []string{"package main\n", strings.Repeat("func f() { return 1 }\n", 300), "# heading\n\nsome prose, a second line\n"}

	first := openCounts(t, dir)
	if !first.Fresh() {
		t.Error("a new table is not fresh")
	}
	tally := &tallyCounter{Counter: real}
	for _, s := range texts {
		if got, want := first.Count(tally, s), real.Count(s); got != want {
			t.Errorf("count %q = %d, want %d", s[:10], got, want)
		}
	}
	if tally.n.Load() != int64(len(texts)) {
		t.Errorf("a cold cache counted %d texts, want %d", tally.n.Load(), len(texts))
	}

	second := openCounts(t, dir)
	if second.Fresh() {
		t.Error("a table opened again is fresh")
	}
	tally.n.Store(0)
	for _, s := range texts {
		if got, want := second.Count(tally, s), real.Count(s); got != want {
			t.Errorf("cached count of %q = %d, want %d", s[:10], got, want)
		}
	}
	if n := tally.n.Load(); n != 0 {
		t.Errorf("a warm cache counted %d texts, want none", n)
	}

	// Another tokenizer, or another text, is not answered from the table.
	cl, err := NewCounter("cl100k_base", 1)
	if err != nil {
		t.Fatal(err)
	}
	other := &tallyCounter{Counter: cl}
	for _, s := range texts {
		if got, want := second.Count(other, s), cl.Count(s); got != want {
			t.Errorf("cl100k count of %q = %d, want %d", s[:10], got, want)
		}
	}
	if n := other.n.Load(); n != int64(len(texts)) {
		t.Errorf("another tokenizer was counted %d times, want %d", n, len(texts))
	}
	tally.n.Store(0)
	second.Count(tally, texts[0]+" ")
	if tally.n.Load() != 1 {
		t.Error("a text not counted before was answered from the table")
	}
}

// TestCountCacheDamaged: a slot that does not check out is a miss, never a
// wrong count.
func TestCountCacheDamaged(t *testing.T) {
	dir := t.TempDir()
	real := counter(t)
	text := strings.Repeat("x := y + z\n", 50)
	c := openCounts(t, dir)
	want := c.Count(real, text)
	k := c.key(real.Name(), text)
	at := int64(-1) // the slot the count took
	var slot [countSlotBytes]byte
	for i := range int64(countWays) {
		if _, err := c.f.ReadAt(slot[:], c.bucket(k)+i*countSlotBytes); err != nil {
			t.Fatal(err)
		}
		if string(slot[:20]) == string(k[:20]) {
			at = c.bucket(k) + i*countSlotBytes
			break
		}
	}
	if at < 0 {
		t.Fatal("the count took no slot of its key")
	}
	for _, b := range []int{0, 21, 24, 29} {
		damaged := slot
		damaged[b] ^= 0x40
		if _, err := c.f.WriteAt(damaged[:], at); err != nil {
			t.Fatal(err)
		}
		tally := &tallyCounter{Counter: real}
		if got := c.Count(tally, text); got != want || tally.n.Load() != 1 {
			t.Errorf("byte %d damaged: count %d after %d counts, want %d after 1", b, got, tally.n.Load(), want)
		}
	}
	// a table cut short is made whole again
	if err := os.Truncate(filepath.Join(dir, countTableName), 100); err != nil {
		t.Fatal(err)
	}
	again := openCounts(t, dir)
	if got := again.Count(real, text); got != want {
		t.Errorf("count after the table was cut: %d, want %d", got, want)
	}
}

// TestCountCacheConcurrent: goroutines counting through one table, and
// two tables open on one file, agree with the counter.
func TestCountCacheConcurrent(t *testing.T) {
	dir := t.TempDir()
	real := counter(t)
	a, b := openCounts(t, dir), openCounts(t, dir)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := a
			if g%2 == 1 {
				c = b
			}
			for i := range 50 {
				s := strings.Repeat("line of code\n", i+1)
				if got, want := c.Count(real, s), real.Count(s); got != want {
					t.Errorf("count of %d lines = %d, want %d", i+1, got, want)
				}
			}
		}()
	}
	wg.Wait()
}

// TestCountCacheSamePack: a pack counted from a warm table is the pack
// counted cold, byte for byte, and counts nothing.
func TestCountCacheSamePack(t *testing.T) {
	r := goldenRepo(t)
	dir := t.TempDir()
	for _, f := range formats {
		var packs []string
		for run := range 2 {
			tally := &tallyCounter{Counter: counter(t)}
			opts := options(tally, f, 0)
			opts.Counts = openCounts(t, dir)
			packs = append(packs, build(t, r.change("HEAD~1..HEAD"), opts).Text)
			if n := tally.n.Load(); (run == 0) != (n > 0) {
				t.Errorf("%s: run %d counted %d segments", f, run, n)
			}
		}
		if packs[0] != packs[1] {
			t.Errorf("%s: the warm pack differs from the cold one:\n%s", f, textDiff(packs[1], packs[0]))
		}
	}
}

// TestCountCacheFullBucket: keys sharing a bucket keep their counts until
// more of them come than it has slots.
func TestCountCacheFullBucket(t *testing.T) {
	c := openCounts(t, t.TempDir())
	c.slots = countWays // one bucket: every key shares it
	real := counter(t)
	texts := []string{"one\n", "two\n", "three\n", "four\n"}
	for _, s := range texts {
		c.Count(real, s)
	}
	tally := &tallyCounter{Counter: real}
	for _, s := range texts {
		if got, want := c.Count(tally, s), real.Count(s); got != want {
			t.Errorf("count of %q = %d, want %d", s, got, want)
		}
	}
	if n := tally.n.Load(); n != 0 {
		t.Errorf("%d of %d keys sharing a bucket were counted again", n, len(texts))
	}
	c.Count(real, "five\n") // takes the slot of one of them
	tally.n.Store(0)
	for _, s := range texts {
		c.Count(tally, s)
	}
	if n := tally.n.Load(); n < 1 {
		t.Error("a fifth key in a bucket of four took no slot")
	}
}

// TestCountCacheFacts: a side's facts are kept by the object it was read
// from and its length, and only for a side read from an object.
func TestCountCacheFacts(t *testing.T) {
	c := openCounts(t, t.TempDir())
	obj := secrets.Object{ID: strings.Repeat("ab", 20), Variant: imageVariant + KindText}
	if _, _, ok := c.facts(obj, 10); ok {
		t.Fatal("an empty table has facts")
	}
	c.putFacts(obj, 10, true, false)
	other := obj
	other.ID = strings.Repeat("cd", 20)
	c.putFacts(other, 10, false, true)
	if keys, context, ok := c.facts(obj, 10); !ok || !keys || context {
		t.Errorf("facts = %t %t %t, want the key marker and no context words", keys, context, ok)
	}
	if keys, context, ok := c.facts(other, 10); !ok || keys || !context {
		t.Errorf("facts of the other object = %t %t %t, want context words only", keys, context, ok)
	}
	if _, _, ok := c.facts(obj, 11); ok {
		t.Error("facts kept for a side of another length")
	}
	other.Variant = imageVariant + KindSymlink
	if _, _, ok := c.facts(other, 10); ok {
		t.Error("facts kept for a side decoded another way")
	}
	none := secrets.Object{}
	c.putFacts(none, 10, true, true)
	if _, _, ok := c.facts(none, 10); ok {
		t.Error("facts kept for a side of no object")
	}
	var nilCache *CountCache
	nilCache.putFacts(obj, 10, true, true)
	if _, _, ok := nilCache.facts(obj, 10); ok {
		t.Error("a nil cache has facts")
	}
}

// TestCountCacheFactsPack: a key rotated in place, whose hunk holds no
// BEGIN line, is redacted by a pack whose side facts come from the table
// as by the one that found them, and the table keeps them after the first.
func TestCountCacheFactsPack(t *testing.T) {
	r := newRepo(t, "rotated")
	common := keyBody(t, "common", 10)
	r.Write("deploy/tls.yaml", pemFile(common, keyBody(t, "before", 3)))
	r.Commit("base")
	after := keyBody(t, "after", 3)
	text := pemFile(common, after)
	r.Write("deploy/tls.yaml", text)
	r.Commit("rotate")
	dir := t.TempDir()
	obj := secrets.Object{ID: strings.TrimSpace(r.Git("rev-parse", "HEAD:deploy/tls.yaml")), Variant: imageVariant + KindText}
	for run := range 2 {
		opts := options(counter(t), Markdown, 0)
		opts.Counts = openCounts(t, dir)
		res := build(t, r.change("HEAD~1..HEAD"), opts)
		for _, l := range after {
			if strings.Contains(res.Text, l) {
				t.Errorf("run %d: the pack shows a line of the key: %q", run, l)
			}
		}
		if keys, _, ok := opts.Counts.facts(obj, len(text)); !ok || !keys {
			t.Errorf("run %d: facts of the new side %t %t, want kept with the key marker", run, keys, ok)
		}
	}
}

// TestRiskOrderCode: an order of risk kinds survives the count table's
// code, and a code no order makes is refused.
func TestRiskOrderCode(t *testing.T) {
	for _, order := range [][]int{nil, {0}, {3, 1}, {2, 0, 3, 1}} {
		got, ok := decodeRiskOrder(encodeRiskOrder(order))
		if !ok || !slices.Equal(got, order) {
			t.Errorf("%v came back as %v (%t)", order, got, ok)
		}
	}
	for _, code := range []int{7, 0o70, 0o11111} {
		if order, ok := decodeRiskOrder(code); ok {
			t.Errorf("code %o decoded to %v", code, order)
		}
	}
}

// TestRiskKindsKept: a Summary's hotspots are the same when their kinds
// come from the count table, which keeps them by the file's blobs after
// the first pack.
func TestRiskKindsKept(t *testing.T) {
	r := newRepo(t, "risk")
	r.Write("auth.go", "package auth\n\nfunc check() {}\n")
	r.Write("db.go", "package db\n\nfunc get() {}\n")
	r.Commit("base")
	r.Write("auth.go", "package auth\n\nfunc check() {\n\tverify(password)\n}\n")
	r.Write("db.go", "package db\n\nfunc get() {\n\tdb.Query(\"SELECT a FROM b\")\n\texec.Command(\"ls\")\n}\n")
	r.Commit("risky")
	dir := t.TempDir()
	var packs []string
	for run := range 2 {
		opts := options(counter(t), Markdown, 0)
		opts.Mode = "summary"
		opts.Counts = openCounts(t, dir)
		res := build(t, r.change("HEAD~1..HEAD"), opts)
		packs = append(packs, res.Text)
		newID := strings.TrimSpace(r.Git("rev-parse", "HEAD:db.go"))
		oldID := strings.TrimSpace(r.Git("rev-parse", "HEAD~1:db.go"))
		var added, deleted int
		fmt.Sscan(r.Git("diff", "--numstat", "HEAD~1", "HEAD", "--", "db.go"), &added, &deleted)
		h := sha256.New()
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00%d\x00", riskVariant, oldID, newID, added, deleted)
		var key countKey
		copy(key[:], h.Sum(nil))
		code, ok := opts.Counts.get(key, added+deleted)
		if order, _ := decodeRiskOrder(code); !ok || len(order) != 2 {
			t.Errorf("run %d: db.go's kinds kept: %v (%t), want sql and exec", run, order, ok)
		}
	}
	if !strings.Contains(packs[0], "sql") || !strings.Contains(packs[0], "exec") {
		t.Fatalf("the summary names no sql or exec hotspot:\n%s", packs[0])
	}
	if packs[0] != packs[1] {
		t.Errorf("the pack with kept kinds differs:\n%s", textDiff(packs[1], packs[0]))
	}
	// what the table says is what the pack says: kinds kept for db.go's
	// blobs that are not its own show in its place
	counts := openCounts(t, dir)
	b := &builder{ch: r.change("HEAD~1..HEAD"), opts: Options{Counts: counts}}
	err := b.ch.Patches(context.Background(), func(f *gitctx.File) bool { return f.Path == "db.go" }, 0, func(f *gitctx.File, p *gitctx.Patch) error {
		e := &entry{file: f, patch: p}
		key, changed, ok := b.riskKey(e)
		if !ok {
			t.Fatal("db.go's change has no key")
		}
		counts.put(key, changed, encodeRiskOrder([]int{0}))
		if got := b.riskKinds(e); !slices.Equal(got, []string{"auth"}) {
			t.Errorf("kinds from a doctored table: %q, want [auth]", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
