package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gitctx/gitctx/secrets/secretstest"
)

// cachedGate builds a gate over the cache in dir.
func cachedGate(t *testing.T, dir string, opts Options) (*Gate, *Cache) {
	t.Helper()
	c, err := OpenCache(dir, 0)
	if err != nil {
		t.Fatalf("OpenCache: %v", err)
	}
	opts.Cache = c
	g, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g, c
}

// entries lists the cache's files of findings (less the table and the
// sweep's mark).
func entries(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "swept" || d.Name() == tableName {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// verdicts counts the clean verdicts in the cache's table.
func verdicts(t *testing.T, dir string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, tableName))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := 0; i+slotBytes <= len(data); i += slotBytes {
		if _, _, _, ok := slot(data[i : i+slotBytes]); ok {
			n++
		}
	}
	return n
}

func token(t *testing.T, template, label string) string {
	t.Helper()
	f, err := secretstest.Expand(template, label)
	if err != nil {
		t.Fatal(err)
	}
	return f.Token
}

// clean is a text the rules find nothing in, long enough to be cached.
var clean = strings.Repeat("func add(a, b int) int { return a + b }\n", 10)

// TestCacheCleanVerdict: a text the rules found nothing in is not scanned
// again; a text they found something in is never kept.
func TestCacheCleanVerdict(t *testing.T) {
	dir := t.TempDir()
	g, c := cachedGate(t, dir, Options{})
	secret := "aws_key = " + token(t, "AKIA{b32:16}", "cache") + "\n" + clean
	for _, text := range []string{clean, secret} {
		if _, err := g.Scan(t.Context(), text); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	if n, files := verdicts(t, dir), entries(t, dir); n != 1 || len(files) != 0 {
		t.Fatalf("after scanning a clean and a secret text: %d verdicts, %d files; want 1 (the clean text's), 0", n, len(files))
	}
	// Plant the clean verdict on the secret text's key: a second run must
	// take the verdict from the cache (and so shows it used it).
	g2, c2 := cachedGate(t, dir, Options{})
	defer c2.Close()
	c2.table.setClean(g2.textKey(secret), len(secret), time.Now())
	spans, err := g2.Scan(t.Context(), secret)
	if err != nil {
		t.Fatal(err)
	}
	if len(spans) != 0 {
		t.Errorf("Scan of a text with a planted clean verdict found %d spans: the cache was not used", len(spans))
	}
}

// TestCacheOwnTokens: nothing is kept for a text holding an own token,
// and a verdict kept without own tokens still finds them.
func TestCacheOwnTokens(t *testing.T) {
	dir := t.TempDir()
	own := token(t, "run{lalnum:5}.{letters:9}", "cache-own")
	text := clean + "token: " + own + "\n"
	g, c := cachedGate(t, dir, Options{OwnTokens: []string{own}})
	if spans, err := g.Scan(t.Context(), text); err != nil || len(spans) != 1 {
		t.Fatalf("Scan with the own token = %v, %v; want one span", spans, err)
	}
	c.Close()
	if n := verdicts(t, dir); n != 0 {
		t.Fatalf("a text holding an own token left %d verdicts", n)
	}
	g2, c2 := cachedGate(t, dir, Options{}) // no own token: the text is clean
	if _, err := g2.Scan(t.Context(), text); err != nil {
		t.Fatal(err)
	}
	c2.Close()
	if n := verdicts(t, dir); n != 1 {
		t.Fatalf("the text without the own token left %d verdicts, want 1", n)
	}
	g3, c3 := cachedGate(t, dir, Options{OwnTokens: []string{own}})
	defer c3.Close()
	red, _, err := g3.RedactString(t.Context(), text)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(red.String(), own) {
		t.Error("a cached verdict let the run's own token through")
	}
}

func hexSHA(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestCacheObject: what the rules found in an object is kept as positions
// and rule ids, never the secret; a later run redacts the same way, with
// the same placeholders, without scanning.
func TestCacheObject(t *testing.T) {
	dir := t.TempDir()
	aws := token(t, "AKIA{b32:16}", "object")
	gh := token(t, "ghp_{alnum:36}", "object")
	text := clean + "aws = " + aws + "\nghp = \"" + gh + "\"\nagain = " + aws + "\n"
	obj := Object{ID: strings.Repeat("ab", 20), Variant: "test"}
	g, c := cachedGate(t, dir, Options{})
	cold, coldHits, err := g.RedactObject(t.Context(), obj, text)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	got := entries(t, dir)
	if len(got) == 0 {
		t.Fatal("no entry was kept for the object")
	}
	for _, data := range got { // the object's entry, and the clean verdict on the redacted text
		for _, s := range []string{aws, gh, hexSHA(aws), hexSHA(gh), aws[4:12], gh[4:12]} {
			if strings.Contains(string(data), s) {
				t.Fatalf("the entry holds %q, part of a secret or its digest:\n%s", s, data)
			}
		}
	}
	g2, c2 := cachedGate(t, dir, Options{})
	defer c2.Close()
	warm, warmHits, err := g2.RedactObject(t.Context(), obj, text)
	if err != nil {
		t.Fatal(err)
	}
	if warm.String() != cold.String() || len(warmHits) != len(coldHits) {
		t.Errorf("warm redaction differs from cold:\n%s\nwant\n%s", warm, cold)
	}
	if strings.Contains(warm.String(), aws) || strings.Contains(warm.String(), gh) {
		t.Error("a cached object let a secret through")
	}
	// The same object id with another text length is not trusted.
	if spans, err := g2.ScanObject(t.Context(), obj, text+"x"); err != nil || len(spans) != 3 {
		t.Errorf("ScanObject of a changed text = %d spans, %v; want a fresh scan (3)", len(spans), err)
	}
}

// TestCacheRuleSet: a repository's rules are part of the key.
func TestCacheRuleSet(t *testing.T) {
	dir := t.TempDir()
	acme := token(t, "acme_{lalnum:24}", "ruleset")
	text := clean + "// see " + acme + "\n"
	g, c := cachedGate(t, dir, Options{})
	if spans, _ := g.Scan(t.Context(), text); len(spans) != 0 {
		t.Fatalf("default rules found %d spans, want none", len(spans))
	}
	c.Close()
	rule := []byte("[[rules]]\nid = \"acme\"\nregex = '''acme_[a-z0-9]{24}'''\nkeywords = [\"acme_\"]\n")
	g2, c2 := cachedGate(t, dir, Options{RepoConfig: rule})
	defer c2.Close()
	if spans, _ := g2.Scan(t.Context(), text); len(spans) != 1 {
		t.Errorf("with the repository's rule, Scan found %d spans, want 1 (not the default rules' verdict)", len(spans))
	}
}

// TestCacheBadEntries: a torn or foreign entry is a miss.
func TestCacheBadEntries(t *testing.T) {
	dir := t.TempDir()
	aws := token(t, "AKIA{b32:16}", "torn")
	text := clean + "aws = " + aws + "\n"
	obj := Object{ID: strings.Repeat("cd", 20), Variant: "test"}
	g, c := cachedGate(t, dir, Options{})
	defer c.Close()
	good := encodeEntry(len(text), nil)
	for name, data := range map[string][]byte{
		"torn":      good[:len(good)-5],
		"empty":     nil,
		"checksum":  append([]byte(cacheFormat+"\n"), good[len(cacheFormat)+1:len(good)-2]...),
		"length":    encodeEntry(len(text)+1, nil),
		"positions": encodeEntry(len(text), []finding{{start: 5, end: len(text) + 9, rule: "x", kind: kindEmpty}}),
	} {
		if err := c.write(c.path(g.objectKey(obj)), data); err != nil {
			t.Fatal(err)
		}
		if spans, err := g.ScanObject(t.Context(), obj, text); err != nil || len(spans) != 1 {
			t.Errorf("%s entry: ScanObject = %d spans, %v; want a fresh scan (1)", name, len(spans), err)
		}
	}
	// A slot of the table written halfway, or for a text of another length.
	k := g.textKey(text)
	c.table.setClean(k, len(text), time.Now())
	var half [slotBytes / 2]byte
	if _, err := c.table.f.WriteAt(half[:], c.table.offset(k)); err != nil {
		t.Fatal(err)
	}
	c.table.setClean(g.textKey(text), len(text)+1, time.Now())
	if spans, err := g.Scan(t.Context(), text); err != nil || len(spans) != 1 {
		t.Errorf("torn slot: Scan = %d spans, %v; want a fresh scan (1)", len(spans), err)
	}
}

// TestCacheTableFull: a full pair of slots loses its older verdict.
func TestCacheTableFull(t *testing.T) {
	tb, err := openTable(filepath.Join(t.TempDir(), "t"), 2) // one pair
	if err != nil {
		t.Fatal(err)
	}
	defer tb.close()
	now := time.Now()
	keys := make([]cacheKey, 3)
	for i := range keys {
		keys[i][0] = byte(i + 1)
		tb.setClean(keys[i], 300, now.Add(time.Duration(i)*time.Hour))
	}
	for i, want := range []bool{false, true, true} {
		if got := tb.clean(keys[i], 300, now); got != want {
			t.Errorf("verdict %d kept = %v, want %v", i, got, want)
		}
	}
}

// TestCacheConcurrent: runs sharing a cache see whole entries only and
// agree with an uncached gate.
func TestCacheConcurrent(t *testing.T) {
	dir := t.TempDir()
	plain, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for i := range 40 {
		text := clean + strings.Repeat("x", i) + "\n"
		if i%5 == 0 {
			text += "aws = " + token(t, "AKIA{b32:16}", "conc"+string(rune('a'+i))) + "\n"
		}
		texts = append(texts, text)
	}
	var wg sync.WaitGroup
	for range 4 {
		g, c := cachedGate(t, dir, Options{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			for round := range 3 {
				for i, text := range texts {
					got, err := g.Scan(t.Context(), text)
					want, _ := plain.Scan(t.Context(), text)
					if err != nil || len(got) != len(want) {
						t.Errorf("round %d, text %d: %d spans, %v; want %d", round, i, len(got), err, len(want))
					}
				}
			}
		}()
	}
	wg.Wait()
	for p := range entries(t, dir) {
		if strings.HasPrefix(filepath.Base(p), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
	}
}

// TestCacheSweep: over its size, the cache loses its oldest entries and
// the temporary files crashed runs left.
func TestCacheSweep(t *testing.T) {
	dir := t.TempDir()
	c, err := OpenCache(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	var paths []string
	for i := range 10 {
		var k cacheKey
		k[0], k[1] = byte(i), 7
		p := c.path(k)
		if err := c.write(p, encodeEntry(300, nil)); err != nil {
			t.Fatal(err)
		}
		old := now.Add(-time.Duration(10-i) * time.Hour)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	stale := filepath.Join(filepath.Dir(paths[0]), ".tmp-123")
	if err := os.WriteFile(stale, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := now.Add(-2 * time.Hour)
	_ = os.Chtimes(stale, old, old)
	sweep(dir, 4*blockBytes, now)
	for i, p := range paths {
		_, err := os.Stat(p)
		if kept := err == nil; kept != (i >= 6) {
			t.Errorf("entry %d (age %dh): kept = %v, want %v", i, 10-i, kept, i >= 6)
		}
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale temporary file was kept")
	}
}

// TestCacheBuildsNoRules: a run whose every text is in the cache never
// builds the rules (the defaults are about 20 ms of CPU); the first text
// the cache lacks builds them.
func TestCacheBuildsNoRules(t *testing.T) {
	dir := t.TempDir()
	g, c := cachedGate(t, dir, Options{})
	if _, err := g.Scan(t.Context(), clean); err != nil {
		t.Fatal(err)
	}
	c.Close()
	built := 0
	defaults := &Defaults{get: func() (ruleSet, error) {
		built++
		return buildDefaults()
	}}
	g2, c2 := cachedGate(t, dir, Options{Defaults: defaults})
	defer c2.Close()
	if _, err := g2.Scan(t.Context(), clean); err != nil {
		t.Fatal(err)
	}
	if built != 0 {
		t.Fatalf("a scan the cache answered built the rules %d times", built)
	}
	secret := "aws_key = " + token(t, "AKIA{b32:16}", "lazy") + "\n"
	if spans, err := g2.Scan(t.Context(), secret); err != nil || len(spans) != 1 {
		t.Fatalf("Scan of a new text: %d spans, %v; want 1", len(spans), err)
	}
	if built != 1 {
		t.Fatalf("a scan the cache could not answer built the rules %d times, want 1", built)
	}
}
