package secrets

import (
	"fmt"
	"strings"
	"testing"
)

// benchTexts are n distinct texts of about size bytes of ordinary code.
func benchTexts(n, size int) []string {
	line := "\tif err := run(ctx, opts); err != nil { return fmt.Errorf(\"run: %w\", err) }\n"
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("// text %d\n", i) + strings.Repeat(line, max(1, size/len(line)))
	}
	return out
}

// BenchmarkScan scans texts of several sizes without a cache, with a cold
// cache (every text new: scanned and kept) and with a warm one (every text
// kept before: looked up only).
func BenchmarkScan(b *testing.B) {
	for _, size := range []int{200, 2000, 20000} {
		texts := benchTexts(256, size)
		plain, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("nocache/%dB", size), func(b *testing.B) {
			b.SetBytes(int64(len(texts[0])))
			i := 0
			for b.Loop() {
				if _, err := plain.Scan(b.Context(), texts[i%len(texts)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(fmt.Sprintf("cold/%dB", size), func(b *testing.B) {
			b.SetBytes(int64(len(texts[0])))
			i := 0
			for b.Loop() {
				if i%len(texts) == 0 {
					b.StopTimer()
					c, err := OpenCache(b.TempDir(), 0)
					if err != nil {
						b.Fatal(err)
					}
					plain.cache, plain.version = c, ruleSetVersion(nil)
					b.StartTimer()
				}
				if _, err := plain.Scan(b.Context(), texts[i%len(texts)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			plain.cache = nil
		})
		b.Run(fmt.Sprintf("warm/%dB", size), func(b *testing.B) {
			c, err := OpenCache(b.TempDir(), 0)
			if err != nil {
				b.Fatal(err)
			}
			g, err := New(Options{Cache: c})
			if err != nil {
				b.Fatal(err)
			}
			for _, t := range texts {
				if _, err := g.Scan(b.Context(), t); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(len(texts[0])))
			i := 0
			for b.Loop() {
				if _, err := g.Scan(b.Context(), texts[i%len(texts)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
