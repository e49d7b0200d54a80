package secrets

import (
	"sync"
	"testing"

	"github.com/gitctx/gitctx/secrets/secretstest"
)

// TestDefaultsShared: gates built from one Defaults, some with a
// repository's rules and some without, at the same time, each find what
// their own rules say: one repository's rules never reach another gate.
func TestDefaultsShared(t *testing.T) {
	d := LoadDefaults(nil)
	acme, err := secretstest.Expand("acme_{lalnum:24}", "shared")
	if err != nil {
		t.Fatal(err)
	}
	pat := fake(t, "github-pat", "shared")
	text := "a: " + acme.Token + "\nc: " + pat.Token + "\n"
	repo := []byte("[[rules]]\nid = \"acme-internal-token\"\nregex = '''acme_[a-z0-9]{24}'''\nkeywords = [\"acme_\"]\n")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			opts := Options{Defaults: d}
			if i%2 == 0 {
				opts.RepoConfig = repo
			}
			g, err := New(opts)
			if err != nil {
				t.Error(err)
				return
			}
			out, _ := redactAll(t, g, text)
			want := "a: " + acme.Token + "\nc: [REDACTED:github-pat#1]\n"
			if i%2 == 0 {
				want = "a: [REDACTED:acme-internal-token#1]\nc: [REDACTED:github-pat#1]\n"
			}
			if out != want {
				t.Errorf("gate %d (repository rules: %v) redacted:\n%s\nwant:\n%s", i, i%2 == 0, out, want)
			}
		})
	}
	wg.Wait()
}
