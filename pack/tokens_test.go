package pack

import (
	"strings"
	"testing"
)

// Long runs of white space (whose exact count takes quadratic time) are
// counted high; everything else is counted exactly.
func TestCountWhitespaceRuns(t *testing.T) {
	c := counter(t)
	codec := c.(*tiktoken).codec
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
