package secrets

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"sync"
	"testing"
)

// BenchmarkGateRealFiles redacts real files, each as one text, on every
// core, as a pack does: the files are listed one per line in the file
// GITCTX_BENCH_FILES (skipped without it).
//
//	git -C /path/to/repo diff --name-only --diff-filter=d HEAD~100 | sed 's|^|/path/to/repo/|' > /tmp/files
//	GITCTX_BENCH_FILES=/tmp/files go test ./secrets -run '^$' -bench GateRealFiles
func BenchmarkGateRealFiles(b *testing.B) {
	list := os.Getenv("GITCTX_BENCH_FILES")
	if list == "" {
		b.Skip("set GITCTX_BENCH_FILES")
	}
	f, err := os.Open(list)
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	var total int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		data, err := os.ReadFile(sc.Text())
		if err == nil {
			texts = append(texts, string(data))
			total += int64(len(data))
		}
	}
	f.Close()
	g, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(total)
	for b.Loop() {
		next := make(chan string)
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for t := range next {
					if _, _, err := g.RedactString(context.Background(), t); err != nil {
						b.Error(err)
					}
				}
			}()
		}
		for _, t := range texts {
			next <- t
		}
		close(next)
		wg.Wait()
	}
}
