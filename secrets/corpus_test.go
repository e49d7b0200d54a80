package secrets

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/secrets/secretstest"
)

// The corpus: one fake credential per gitleaks rule, built at test time
// from secretstest/corpus.txt (see its header). No test file holds a
// credential whole.

// fixture is one fake credential.
type fixture = secretstest.Fixture

// fake builds the fixture of a rule; variants of one rule differ.
func fake(t testing.TB, rule, variant string) fixture {
	t.Helper()
	f, err := loadCorpus(t).Make(rule, variant)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func loadCorpus(t testing.TB) *secretstest.Corpus {
	t.Helper()
	c, err := secretstest.Load()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// corpus builds every fixture of secretstest/corpus.txt and checks that the
// gate finds each, alone, by its own rule.
func corpus(t testing.TB) []fixture {
	t.Helper()
	g := newGate(t, Options{})
	var out []fixture
	for _, rule := range loadCorpus(t).Rules {
		f := fake(t, rule, "1")
		mustDetect(t, g, f)
		out = append(out, f)
	}
	return out
}

// mustDetect fails the test unless the gate finds the fixture, on a line
// of its own, by its intended rule and redacts all of it.
func mustDetect(t testing.TB, g *Gate, f fixture) {
	t.Helper()
	text := "v: " + f.Token + "\n"
	spans, err := g.Scan(context.Background(), text)
	if err != nil {
		t.Fatalf("%s: Scan: %v", f.Rule, err)
	}
	var rules []string
	found := false
	for _, s := range spans {
		rules = append(rules, s.Rule)
		if s.Rule == f.Rule {
			found = true
		}
	}
	if !found {
		t.Fatalf("fixture %s is not found by its rule (rules found: %v); fix secretstest/corpus.txt", f.Rule, rules)
	}
	red, _ := Redact(text, spans)
	if frag := f.Leak(red.String(), 8); frag != "" {
		t.Fatalf("fixture %s: redacted text still holds part of it", f.Rule)
	}
}

// newGate builds a gate or fails the test.
func newGate(t testing.TB, opts Options) *Gate {
	t.Helper()
	g, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g
}

// corpusText lays the fixtures out one per line (a multi-line one over
// several), between filler lines, and returns the text and each
// fixture's first line (0-based).
func corpusText(fs []fixture) (string, []int) {
	var b strings.Builder
	var at []int
	line := 0
	for i, f := range fs {
		fmt.Fprintf(&b, "// filler line %d\n", i)
		line++
		at = append(at, line)
		fmt.Fprintf(&b, "v%02d: %s\n", i, f.Token)
		line += 1 + strings.Count(f.Token, "\n")
	}
	b.WriteString("// end\n")
	return b.String(), at
}

func placeholderOf(hits []Hit, rule string) []string {
	var out []string
	for _, h := range hits {
		if h.Rule == rule {
			out = append(out, h.Placeholder)
		}
	}
	return out
}

// TestCorpus scans and redacts the whole corpus as one text: every
// fixture is found by its rule, nothing of it survives, its placeholder
// names the rule, and the hits are on its lines.
func TestCorpus(t *testing.T) {
	fs := corpus(t)
	if len(fs) < 20 {
		t.Fatalf("corpus has %d rules, want at least 20", len(fs))
	}
	g := newGate(t, Options{})
	text, at := corpusText(fs)
	spans, err := g.Scan(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	red, hits := Redact(text, spans)
	out := red.String()
	if got, want := strings.Count(out, "\n"), strings.Count(text, "\n"); got != want {
		t.Errorf("redacted text has %d lines, want %d", got, want)
	}
	lines := strings.Split(out, "\n")
	for _, h := range hits {
		if h.Line < 0 || h.Line >= len(lines) || !strings.Contains(lines[h.Line], h.Placeholder) {
			t.Errorf("hit %+v: line %d does not hold its placeholder", h, h.Line)
		}
		if want := "[REDACTED:" + ruleName(h.Rule) + "#"; !strings.HasPrefix(h.Placeholder, want) {
			t.Errorf("hit %+v: placeholder does not name the rule", h)
		}
	}
	for i, f := range fs {
		t.Run(f.Rule, func(t *testing.T) {
			if frag := f.Leak(out, 8); frag != "" {
				t.Errorf("redacted corpus holds an 8-byte fragment of the %s fixture", f.Rule)
			}
			var got []int
			for _, h := range hits {
				if h.Rule == f.Rule {
					got = append(got, h.Line)
				}
			}
			var want []int
			for n := range strings.Count(f.Token, "\n") + 1 {
				want = append(want, at[i]+n)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("hits of %s on lines %v, want %v", f.Rule, got, want)
			}
			if ps := placeholderOf(hits, f.Rule); len(ps) == 0 || !strings.Contains(lines[at[i]], ps[0]) {
				t.Errorf("line %d = %q, want the placeholder of %s", at[i], lines[at[i]], f.Rule)
			} else if !strings.HasPrefix(lines[at[i]], fmt.Sprintf("v%02d: [REDACTED:%s#", i, f.Rule)) {
				t.Errorf("line %d = %q, want the text before the credential kept", at[i], lines[at[i]])
			}
		})
	}
	// every filler line is untouched
	for i := range fs {
		if want := fmt.Sprintf("// filler line %d", i); lines[at[i]-1] != want {
			t.Errorf("line %d = %q, want %q", at[i]-1, lines[at[i]-1], want)
		}
	}
}

// TestCorpusEachAlone redacts each fixture in a text of its own, with
// RedactString, in the forms a credential is written in.
func TestCorpusEachAlone(t *testing.T) {
	forms := map[string]string{
		"bare":       "%s\n",
		"no newline": "%s",
		"quoted":     "x = \"%s\"\n",
		"yaml":       "a:\n  b: %s\n",
		"crlf":       "first\r\nx = '%s'\r\nlast\r\n",
		"tab":        "\tx\t%s\tend\n",
	}
	names := make([]string, 0, len(forms))
	for name := range forms {
		names = append(names, name)
	}
	sort.Strings(names)
	g := newGate(t, Options{})
	for _, f := range corpus(t) {
		for _, name := range names {
			t.Run(f.Rule+"/"+name, func(t *testing.T) {
				text := fmt.Sprintf(forms[name], f.Token)
				red, hits, err := g.RedactString(context.Background(), text)
				if err != nil {
					t.Fatal(err)
				}
				out := red.String()
				if frag := f.Leak(out, 8); frag != "" {
					t.Errorf("redacted %q holds a fragment of the credential", out)
				}
				if len(placeholderOf(hits, f.Rule)) == 0 {
					t.Errorf("no hit of %s in %v", f.Rule, hits)
				}
				if got, want := strings.Count(out, "\n"), strings.Count(text, "\n"); got != want {
					t.Errorf("%d lines, want %d", got, want)
				}
				if name == "crlf" && strings.Count(out, "\r\n") != strings.Count(text, "\r\n") {
					t.Errorf("CRLF line ends lost: %q", out)
				}
			})
		}
	}
}

// TestSameSecretSamePlaceholder: a secret met twice, in one text or in
// two, gets one placeholder; two secrets of one rule get #1 and #2.
func TestSameSecretSamePlaceholder(t *testing.T) {
	for _, rule := range []string{"github-pat", "aws-access-token", "slack-bot-token", "generic-api-key", "private-key"} {
		t.Run(rule, func(t *testing.T) {
			g := newGate(t, Options{})
			a, b := fake(t, rule, "a"), fake(t, rule, "b")
			mustDetect(t, g, a)
			mustDetect(t, g, b)
			text := "1: " + a.Token + "\n2: " + b.Token + "\n3: " + a.Token + "\n"
			_, hits, err := g.RedactString(context.Background(), text)
			if err != nil {
				t.Fatal(err)
			}
			byLine := map[int]string{}
			for _, h := range hits {
				if h.Rule == rule {
					byLine[h.Line] = h.Placeholder
				}
			}
			first, second := 0, 1+strings.Count(a.Token, "\n")
			third := second + 1 + strings.Count(b.Token, "\n")
			want1 := "[REDACTED:" + rule + "#1]"
			want2 := "[REDACTED:" + rule + "#2]"
			if byLine[first] != want1 || byLine[third] != want1 || byLine[second] != want2 {
				t.Errorf("placeholders by line = %v, want %s on %d and %d, %s on %d", byLine, want1, first, third, want2, second)
			}
			// a later text of the same run keeps the numbering
			red, _, err := g.RedactString(context.Background(), "again "+b.Token+"\n")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(red.String(), want2) {
				t.Errorf("second text redacted to %q, want %s", red, want2)
			}
			// a gate of its own numbers from 1 again
			red, _, err = newGate(t, Options{}).RedactString(context.Background(), "again "+b.Token+"\n")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(red.String(), want1) {
				t.Errorf("new gate redacted to %q, want %s", red, want1)
			}
		})
	}
}
