package pack

import (
	"strings"
	"testing"
)

// Long runs of white space (whose exact count takes quadratic time) are
// counted high; everything else is counted exactly.
func TestCountWhitespaceRuns(t *testing.T) {
	c := counter(t)
	codec := c.(*tiktoken).codec()
	for _, s := range []string{
		"func x() {\n\treturn\n}\n",
		"a" + strings.Repeat(" ", maxWhitespaceRun) + "b\n",
		strings.Repeat("\t", maxWhitespaceRun) + "x",
	} {
		exact, _ := codec.Count(s)
		if got := c.Count(s); got != exact {
			t.Errorf("Count(%q) = %d, want the exact %d", s[:min(len(s), 20)], got, exact)
		}
	}
	for _, s := range []string{
		"x" + strings.Repeat(" ", 5000) + "y\n",
		strings.Repeat(" \n", 3000) + "}\n",
		"}\n" + strings.Repeat("\n", 700) + "  word" + strings.Repeat("\r\n \t", 400),
	} {
		exact, _ := codec.Count(s)
		if got := c.Count(s); got < exact {
			t.Errorf("Count of %d bytes with a long blank run = %d, below the exact %d", len(s), got, exact)
		}
	}
}

// The counter's name is known before its vocabulary is built, and both
// encodings count as their codec does.
func TestCounterNames(t *testing.T) {
	for _, tt := range []struct {
		encoding string
		factor   float64
		name     string
	}{
		{"", 1, "o200k_base"},
		{"o200k_base", 0, "o200k_base"},
		{"cl100k_base", 1, "cl100k_base"},
		{"cl100k_base", 1.35, "cl100k_base×1.35"},
	} {
		c, err := NewCounter(tt.encoding, tt.factor)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Name(); got != tt.name {
			t.Errorf("NewCounter(%q, %v).Name() = %q, want %q", tt.encoding, tt.factor, got, tt.name)
		}
		if got := c.(*tiktoken).codec().GetName(); !strings.HasPrefix(tt.name, got) {
			t.Errorf("the codec of %q is %q", tt.name, got)
		}
	}
	if _, err := NewCounter("p50k_base", 1); err == nil {
		t.Error("NewCounter accepted an unknown encoding")
	}
}
