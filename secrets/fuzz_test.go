package secrets

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

// FuzzRedact checks the redactor's invariants on any text:
//
//   - Scan's spans are in order, apart and inside the text;
//   - Redact keeps the line count, puts each hit's placeholder on its
//     line and leaves every line without a hit as it was;
//   - nothing the gate finds survives: a scan of RedactString's output
//     finds nothing.
//
// The seeds are the corpus in the forms the tests use.
func FuzzRedact(f *testing.F) {
	fs := corpus(f)
	text, _ := corpusText(fs)
	f.Add(text)
	f.Add("")
	f.Add("\n\n")
	for _, fx := range fs {
		f.Add("x = \"" + fx.Token + "\"\n")
		f.Add("a:\n  b: " + base64.StdEncoding.EncodeToString([]byte(fx.Token)) + "\n")
		f.Add("h=" + hex.EncodeToString([]byte(fx.Token)) + "\r\n")
	}
	key := fake(f, "private-key", "fuzz")
	f.Add("tls:\n  key: |\n" + indent(key.Token, "    ") + "\n  crt: x\n")
	own := "own-fuzz-token-1234"
	f.Add("k " + own + " " + own + "\n")
	g := newGate(f, Options{OwnTokens: []string{own}})

	f.Fuzz(func(t *testing.T, text string) {
		ctx := context.Background()
		spans, err := g.Scan(ctx, text)
		if err != nil {
			t.Fatalf("Scan: %v", err)
		}
		for i, s := range spans {
			if s.Start < 0 || s.End > len(text) || s.Start >= s.End {
				t.Fatalf("span %d [%d,%d) outside the text (%d bytes)", i, s.Start, s.End, len(text))
			}
			if i > 0 && s.Start < spans[i-1].End {
				t.Fatalf("spans %d and %d overlap", i-1, i)
			}
			if !placeholderRE.MatchString(s.Placeholder) {
				t.Fatalf("span %d: bad placeholder %q", i, s.Placeholder)
			}
		}
		red, hits := Redact(text, spans)
		out := red.String()
		inLines, outLines := strings.Split(text, "\n"), strings.Split(out, "\n")
		if len(inLines) != len(outLines) {
			t.Fatalf("Redact made %d lines of %d", len(outLines), len(inLines))
		}
		hit := map[int]bool{}
		for _, h := range hits {
			if h.Line < 0 || h.Line >= len(outLines) || !strings.Contains(outLines[h.Line], h.Placeholder) {
				t.Fatalf("hit %+v: not on its line", h)
			}
			hit[h.Line] = true
		}
		for i := range inLines {
			if !hit[i] && inLines[i] != outLines[i] {
				t.Fatalf("line %d has no hit but changed: %q → %q", i, inLines[i], outLines[i])
			}
		}
		if Placeholders(out) < len(hits) {
			t.Fatalf("%d hits but %d placeholders", len(hits), Placeholders(out))
		}
		// One pass of Redact is not a fixed point: taking a credential out
		// can bring another match into view (see TestRedactionUncoversNothing).
		// RedactString, what callers use, scans until nothing is found.
		full, _, err := g.RedactString(ctx, text)
		if err != nil {
			t.Fatalf("RedactString: %v", err)
		}
		if strings.Count(full.String(), "\n") != strings.Count(text, "\n") {
			t.Fatalf("RedactString changed the line count")
		}
		again, err := g.Scan(ctx, full.String())
		if err != nil {
			t.Fatalf("Scan of the redacted text: %v", err)
		}
		for _, s := range again {
			t.Errorf("RedactString output still holds a finding of %s: %q", s.Rule, full.String()[s.Start:s.End])
		}
	})
}
