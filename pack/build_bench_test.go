package pack

import (
	"fmt"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/gitctx/gittest"
	"github.com/gitctx/gitctx/secrets"
)

// BenchmarkBuild packs a change of about 200 Go files of a synthetic
// project (see gittest.Synthetic) with the default pipeline: neighbours,
// the gate, a budget that forces a Summary. Each run builds a new gate,
// as a run of gitctx does: without a scan cache, with an empty one (the
// run fills it) and with a full one (every text scanned before).
func BenchmarkBuild(b *testing.B) {
	r := gittest.Synthetic(b, gittest.Shape{Packages: 40, Files: 15, History: 200, Change: 20})
	repo, err := gitctx.Open(b.Context(), r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	c := counter(b)
	build := func(b *testing.B, f Format, cache *secrets.Cache) {
		b.Helper()
		gate, err := secrets.New(secrets.Options{Cache: cache})
		if err != nil {
			b.Fatal(err)
		}
		ch, err := repo.SelectRange(b.Context(), "HEAD~20..HEAD")
		if err != nil {
			b.Fatal(err)
		}
		opts := Options{Format: f, Rules: DefaultRules(), Counter: c, Gate: gate, Now: fixedNow, Budget: Budget{Limit: 60000}}
		if _, err := Build(b.Context(), ch, opts); err != nil {
			b.Fatal(err)
		}
	}
	for _, f := range formats {
		b.Run(fmt.Sprintf("%s/nocache", f), func(b *testing.B) {
			for b.Loop() {
				build(b, f, nil)
			}
		})
		b.Run(fmt.Sprintf("%s/cold", f), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				cache, err := secrets.OpenCache(b.TempDir(), 0)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				build(b, f, cache)
			}
		})
		b.Run(fmt.Sprintf("%s/warm", f), func(b *testing.B) {
			cache, err := secrets.OpenCache(b.TempDir(), 0)
			if err != nil {
				b.Fatal(err)
			}
			build(b, f, cache)
			for b.Loop() {
				build(b, f, cache)
			}
		})
	}
}
