package pack

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/secrets"
)

// cachedOptions are options whose gate keeps what it finds in the cache in
// dir: a new gate, as a new run builds.
func cachedOptions(t *testing.T, dir string, f Format) (Options, *secrets.Cache) {
	t.Helper()
	c, err := secrets.OpenCache(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := secrets.New(secrets.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	opts := options(counter(t), f, 0)
	opts.Gate = g
	return opts, c
}

// TestScanCacheSamePack: a run over a warm scan cache makes the pack and
// record a cold one makes, byte for byte, and the cache holds no
// credential.
func TestScanCacheSamePack(t *testing.T) {
	r := secretRepo(t)
	raw := []string{fakeAWS, fakeGitHub, fakeGeneric, "MIIEowIBAAKCAQEA", "old" + fakeGeneric[3:]}
	for _, f := range formats {
		dir := t.TempDir()
		var packs, records []string
		for range 2 {
			opts, c := cachedOptions(t, dir, f)
			res := build(t, r.change("HEAD~1..HEAD"), opts)
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			rec, _ := json.Marshal(res.Record)
			packs, records = append(packs, res.Text), append(records, string(rec))
		}
		if packs[0] != packs[1] {
			t.Errorf("%s: the warm pack differs from the cold one:\n%s", f, textDiff(packs[1], packs[0]))
		}
		if records[0] != records[1] {
			t.Errorf("%s: the warm record differs from the cold one", f)
		}
		plain, err := secrets.New(secrets.Options{})
		if err != nil {
			t.Fatal(err)
		}
		opts := options(counter(t), f, 0)
		opts.Gate = plain // new, as in a run: the shared gate numbers placeholders on
		uncached := build(t, r.change("HEAD~1..HEAD"), opts)
		if packs[1] != uncached.Text {
			t.Errorf("%s: the cached pack differs from an uncached one:\n%s", f, textDiff(packs[1], uncached.Text))
		}
		n := 0
		err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			for _, s := range raw {
				if strings.Contains(string(data), s) {
					t.Errorf("%s: cache entry %s holds a credential", f, p)
				}
			}
			n++
			return err
		})
		if err != nil || n < 2 {
			t.Errorf("%s: %d cache files, %v; want entries", f, n, err)
		}
	}
}
