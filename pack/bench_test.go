package pack

import (
	"context"
	"os"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/secrets"
)

// BenchmarkBuildRealRepo packs a range of a real repository named by
// GITCTX_BENCH_REPO and GITCTX_BENCH_RANGE (skipped without them):
//
//	GITCTX_BENCH_REPO=/tmp/bench/terraform GITCTX_BENCH_RANGE=HEAD~100..HEAD \
//	  go test ./pack -run '^$' -bench BuildRealRepo -cpuprofile cpu.out
func BenchmarkBuildRealRepo(b *testing.B) {
	dir, spec := os.Getenv("GITCTX_BENCH_REPO"), os.Getenv("GITCTX_BENCH_RANGE")
	if dir == "" || spec == "" {
		b.Skip("set GITCTX_BENCH_REPO and GITCTX_BENCH_RANGE")
	}
	ctx := context.Background()
	counter, err := NewCounter("o200k_base", 1)
	if err != nil {
		b.Fatal(err)
	}
	gate, err := secrets.New(secrets.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		repo, err := gitctx.Open(ctx, dir)
		if err != nil {
			b.Fatal(err)
		}
		ch, err := repo.SelectRange(ctx, spec)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Build(ctx, ch, Options{Rules: DefaultRules(), Counter: counter, Gate: gate}); err != nil {
			b.Fatal(err)
		}
		_ = ch.Close()
		_ = repo.Close()
	}
}
