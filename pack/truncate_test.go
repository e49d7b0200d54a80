package pack

import (
	"fmt"
	"strings"
	"testing"
)

// truncateBySplitting is truncateLines done line by line, as it was first
// written.
func truncateBySplitting(text string, head, tail int) string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) <= head+tail {
		return text
	}
	var b strings.Builder
	for _, l := range lines[:head] {
		b.WriteString(l)
	}
	fmt.Fprintf(&b, "... [gitctx: %d lines omitted here to fit the token budget] ...\n", len(lines)-head-tail)
	for _, l := range lines[len(lines)-tail:] {
		b.WriteString(l)
	}
	return b.String()
}

func TestTruncateLines(t *testing.T) {
	for _, c := range []struct {
		text       string
		head, tail int
		want       string
	}{
		{"a\nb\nc\nd\n", 1, 1, "a\n... [gitctx: 2 lines omitted here to fit the token budget] ...\nd\n"},
		{"a\nb\nc\nd", 1, 1, "a\n... [gitctx: 2 lines omitted here to fit the token budget] ...\nd"},
		{"a\nb\nc\n", 0, 1, "... [gitctx: 2 lines omitted here to fit the token budget] ...\nc\n"},
		{"a\nb\nc\n", 2, 0, "a\nb\n... [gitctx: 1 lines omitted here to fit the token budget] ...\n"},
		{"a\nb\n", 1, 1, "a\nb\n"},
		{"", 0, 0, ""},
		{"\n\n\n", 1, 1, "\n... [gitctx: 1 lines omitted here to fit the token budget] ...\n\n"},
	} {
		if got := truncateLines(c.text, c.head, c.tail); got != c.want {
			t.Errorf("truncateLines(%q, %d, %d) = %q, want %q", c.text, c.head, c.tail, got, c.want)
		}
	}
}

func FuzzTruncateLines(f *testing.F) {
	f.Add("a\nb\nc\nd\ne", uint8(1), uint8(2))
	f.Add("\n\nx\n", uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, text string, head, tail uint8) {
		h, tl := int(head%8), int(tail%8)
		if got, want := truncateLines(text, h, tl), truncateBySplitting(text, h, tl); got != want {
			t.Fatalf("truncateLines(%q, %d, %d) = %q, want %q", text, h, tl, got, want)
		}
	})
}
