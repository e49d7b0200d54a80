package pack

import (
	"strings"
	"testing"
)

// TestSideLines holds splitSide to what it replaced: strings.Split of the
// text without its final newline, line by line and run by run.
func TestSideLines(t *testing.T) {
	for _, text := range []string{"", "\n", "\n\n", "a", "a\n", "a\nb", "a\nb\n", "a\n\nb\n\n", "é\r\nx\n", strings.Repeat("line\n", 300)} {
		checkSideLines(t, text)
	}
}

func FuzzSideLines(f *testing.F) {
	for _, s := range []string{"", "a\nb\n", "\n\nx", "x\n\n\n"} {
		f.Add(s)
	}
	f.Fuzz(checkSideLines)
}

func checkSideLines(t *testing.T, text string) {
	want := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	s := splitSide(text)
	if s.count() != len(want) {
		t.Fatalf("%q: %d lines, want %d", text, s.count(), len(want))
	}
	for n := 1; n <= len(want); n++ {
		if got := s.line(n); got != want[n-1] {
			t.Fatalf("%q: line %d is %q, want %q", text, n, got, want[n-1])
		}
		for to := n; to <= len(want) && to < n+3; to++ {
			if got, w := s.run(n, to), strings.Join(want[n-1:to], "\n")+"\n"; got != w {
				t.Fatalf("%q: lines %d to %d are %q, want %q", text, n, to, got, w)
			}
		}
	}
}

// BenchmarkSplitSide splits 4 MB of lines of 0 to 80 bytes, as in source
// code.
func BenchmarkSplitSide(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 4<<20; i++ {
		sb.WriteString(strings.Repeat("x", i*37%81) + "\n")
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		splitSide(text)
	}
}
