package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkPackRealRepo runs `gitctx pack` on a range of a real repository
// named by GITCTX_BENCH_REPO and GITCTX_BENCH_RANGE (skipped without them),
// the whole command as the binary runs it, scan cache and all:
//
//	GITCTX_BENCH_REPO=/tmp/bench/terraform GITCTX_BENCH_RANGE=HEAD~10..HEAD \
//	  go test ./cmd/gitctx -run '^$' -bench PackRealRepo -cpuprofile cpu.out
func BenchmarkPackRealRepo(b *testing.B) {
	dir, spec := os.Getenv("GITCTX_BENCH_REPO"), os.Getenv("GITCTX_BENCH_RANGE")
	if dir == "" || spec == "" {
		b.Skip("set GITCTX_BENCH_REPO and GITCTX_BENCH_RANGE")
	}
	b.Chdir(dir)
	out := filepath.Join(b.TempDir(), "out")
	args := append([]string{"pack", "--out", out}, strings.Fields(spec)...)
	for b.Loop() {
		if code := run(context.Background(), args, strings.NewReader(""), io.Discard, io.Discard, os.Getenv); code != 0 {
			b.Fatalf("gitctx %s: exit %d", strings.Join(args, " "), code)
		}
	}
}
