package pack

import (
	"context"
	"encoding/base64"
	gobuild "go/build"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack/outline"
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

// BenchmarkCount counts o200k tokens of this package's own sources, the
// kind of text a pack holds: with a new counter each time, as a run does
// (nothing counted yet), and again with the same counter, as the later
// texts of a run are.
func BenchmarkCount(b *testing.B) {
	text := ownSources(b)
	newCounter := func() Counter {
		c, err := NewCounter("o200k_base", 1)
		if err != nil {
			b.Fatal(err)
		}
		return c
	}
	b.Run("new", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			newCounter().Count(text)
		}
	})
	b.Run("same", func(b *testing.B) {
		c := newCounter()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			c.Count(text)
		}
	})
}

// BenchmarkCountData counts text that repeats no word: base64 of random
// bytes, where every piece is new to the counter (the worst case for
// counting each distinct piece once).
func BenchmarkCountData(b *testing.B) {
	raw := make([]byte, 300<<10)
	_, _ = rand.NewChaCha8([32]byte{7}).Read(raw)
	text := base64.StdEncoding.EncodeToString(raw)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		c, err := NewCounter("o200k_base", 1)
		if err != nil {
			b.Fatal(err)
		}
		c.Count(text)
	}
}

// BenchmarkOutlineGo outlines this package's own Go files.
func BenchmarkOutlineGo(b *testing.B) {
	files := ownFiles(b)
	b.SetBytes(sizeOf(files))
	for b.Loop() {
		for _, f := range files {
			outline.Of(f.name, f.text)
		}
	}
}

type sourceFile struct{ name, text string }

func sizeOf(files []sourceFile) int64 {
	var n int64
	for _, f := range files {
		n += int64(len(f.text))
	}
	return n
}

func ownFiles(b *testing.B) []sourceFile {
	b.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil || len(names) == 0 {
		b.Fatal("no sources", err)
	}
	var out []sourceFile
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, sourceFile{n, string(data)})
	}
	return out
}

func ownSources(b *testing.B) string {
	var sb strings.Builder
	for _, f := range ownFiles(b) {
		sb.WriteString(f.text)
	}
	return sb.String()
}

// BenchmarkNeedsContext asks of this package's own Go files whether they
// hold what gitleaks' rules across lines look for, as every file shown is
// asked.
func BenchmarkNeedsContext(b *testing.B) {
	files := ownFiles(b)
	b.SetBytes(sizeOf(files))
	for b.Loop() {
		for _, f := range files {
			needsContext(f.text)
		}
	}
}

// BenchmarkExcludeReason asks the default rules of every path of Go's
// source, as every path a run looks at (each neighbour candidate too) is
// asked.
func BenchmarkExcludeReason(b *testing.B) {
	var paths []string
	root := filepath.Join(gobuild.Default.GOROOT, "src")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if rel, err := filepath.Rel(root, p); err == nil {
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	rules := DefaultRules()
	for b.Loop() {
		for _, p := range paths {
			rules.ExcludeReason(p, true)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)), "ns/path")
}

// BenchmarkRiskKinds reads this package's own Go files as changes that
// add every line, as a Summary's hotspots are read.
func BenchmarkRiskKinds(b *testing.B) {
	files := ownFiles(b)
	var entries []*entry
	for _, f := range files {
		var h gitctx.Hunk
		for _, l := range strings.Split(f.text, "\n") {
			h.Lines = append(h.Lines, gitctx.Line{Op: '+', Text: l})
		}
		entries = append(entries, &entry{patch: &gitctx.Patch{Hunks: []gitctx.Hunk{h}}})
	}
	b.SetBytes(sizeOf(files))
	for b.Loop() {
		for _, e := range entries {
			riskKindsOf(e)
		}
	}
}
