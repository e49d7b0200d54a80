package secrets

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrappedEncoded: a credential encoded and wrapped over lines (as
// `base64` and `xxd -p` wrap) is found, and the whole run is replaced, so
// that no line of it gives part of the credential back.
func TestWrappedEncoded(t *testing.T) {
	token := "ghp_" + "FCSL0HG7l0KxHavgwdgkSjQ0ljMZokcumQYx"
	wrap := func(s string, width int, indent, quote string) string {
		var b strings.Builder
		for len(s) > 0 {
			n := min(width, len(s))
			b.WriteString(indent + quote + s[:n] + quote + "\n")
			s = s[n:]
		}
		return b.String()
	}
	config := `{"auths":{"ghcr.io":{"username":"bot","auth":"` + base64.StdEncoding.EncodeToString([]byte("bot:"+token)) + `"}}}`
	cases := []struct{ name, text string }{
		{"base64 in a YAML block", "data:\n  config: |\n" + wrap(base64.StdEncoding.EncodeToString([]byte(config)), 76, "    ", "")},
		{"hex in quoted lines", "token_hex = (\n" + wrap(hex.EncodeToString([]byte(token)), 60, "  ", `"`) + ")\n"},
		{"base64 in joined strings", "const blob =\n" + wrap(base64.StdEncoding.EncodeToString([]byte("export GITHUB_TOKEN="+token+"\n")), 40, "  ", `"`) + ";\n"},
	}
	g, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			red, _, err := g.RedactString(context.Background(), tc.text)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(red.String(), "\n") {
				part, _ := encodedPart(line, 4)
				if part != "" {
					t.Errorf("a line of the encoded run is left: %q\n%s", line, red)
				}
			}
		})
	}
}

// TestWrappedRuns: runs are lines of one width and a last no wider; code
// and prose are none.
func TestWrappedRuns(t *testing.T) {
	cases := []struct {
		text string
		runs int
	}{
		{"  QUJDREVGR0hJSktMTU5PUFFS\n  U1RVVldYWVo=\n", 1},
		{"QUJDREVGR0hJSktMTU5PUFFS\nQUJDREVGR0hJSktMTU5PUFFS\nQUJDREVGR0hJSktMTU5PUFFS\nQUJD\n", 1},
		{"QUJDREVGR0hJSktMTU5PUFFS\nQUJDREVGR0hJSktMTU5PUFFSxx\n", 0}, // a wider second line: no wrapping
		{"func main() {\n\tfmt.Println(\"hello, world\")\n}\n", 0},
		{"QUJDREVGR0hJSktMTU5PUFFS\n\nQUJDREVGR0hJSktMTU5PUFFS\n", 0},
		{"short\nlines\n", 0},
	}
	for _, tc := range cases {
		if got := wrappedRuns(tc.text); len(got) != tc.runs {
			t.Errorf("wrappedRuns(%q) = %d runs, want %d", tc.text, len(got), tc.runs)
		}
	}
}

// BenchmarkWrappedRuns looks for wrapped runs in this module's Go files,
// the kind of text every scan reads.
func BenchmarkWrappedRuns(b *testing.B) {
	var text strings.Builder
	for _, dir := range []string{"../secrets", "../pack", "../gitctx"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			text.Write(data)
		}
	}
	s := text.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		wrappedRuns(s)
	}
}
