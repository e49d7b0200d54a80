package pack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// BenchmarkContextWalk walks a directory of 10,000 files, 200
// subdirectories of 50: 70% images (left out by name, never opened), 20%
// text over the 1 KiB size limit (left out after lstat, never read) and
// 10% small docs, the only ones read. It fails if a skipped file is read.
//
//	go test ./pack -run '^$' -bench ContextWalk -benchmem
func BenchmarkContextWalk(b *testing.B) {
	r := newRepo(b, "walk")
	r.Write("main.go", "package main\n")
	r.Commit("base")
	r.Write("main.go", "package main\n\nfunc main() {}\n")
	r.Commit("main")
	big := strings.Repeat("large text line\n", 128) // 2 KiB
	for d := range 200 {
		dir := filepath.Join(r.Dir, "tree", fmt.Sprintf("d%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 50 {
			name, content := fmt.Sprintf("img%02d.png", f), "\x89PNG"
			switch {
			case f >= 45:
				name, content = fmt.Sprintf("doc%02d.md", f), "# a small doc\n"
			case f >= 35:
				name, content = fmt.Sprintf("log%02d.txt", f), big
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	ch := r.change("HEAD~1..HEAD")
	var reads atomic.Int64
	read := func(name string, limit int64) (int64, []byte, error) {
		if !strings.HasSuffix(name, ".md") {
			b.Errorf("%s was read", name)
		}
		reads.Add(1)
		return ch.Repo().ReadWorktree(name, limit)
	}
	opts := options(counter(b), Markdown, 0)
	opts.Context = ContextOptions{Paths: []string{"tree"}, RecurseDepth: RecurseUnlimited, MaxFileBytes: 1024, ErrorMode: ErrorStrict, read: read}
	opts.defaults()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		bl := newBuilder(ch, opts)
		if err := bl.gatherContext(ctx); err != nil {
			b.Fatal(err)
		}
		if len(bl.context) != 10_000 {
			b.Fatalf("%d entries, want 10,000", len(bl.context))
		}
	}
	b.ReportMetric(float64(reads.Load())/float64(b.N), "reads/op")
}
