package secrets

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The corpus: one fake credential per gitleaks rule, built at test time
// from testdata/corpus.txt (see its header). No test file holds a
// credential whole.

// alphabets are the character classes the corpus templates draw from.
var alphabets = map[string]string{
	"alnum":   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	"lalnum":  "abcdefghijklmnopqrstuvwxyz0123456789",
	"hex":     "0123456789abcdef",
	"digit":   "0123456789",
	"upper":   "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
	"letters": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
	"word":    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_",
	"url":     "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
	"b64":     "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
	"b32":     "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
	"bech32":  "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
}

var classRE = regexp.MustCompile(`\{([a-z0-9]+):([0-9]+)\}`)

// fixture is one fake credential.
type fixture struct {
	Rule  string
	Token string
	// random marks the bytes of Token drawn at random: the credential
	// proper, as opposed to the rule's fixed prefix.
	random []bool
}

// fragments lists the n-byte windows of the token that hold a random
// byte: none of them may survive redaction.
func (f fixture) fragments(n int) []string {
	var out []string
	for i := 0; i+n <= len(f.Token); i++ {
		for j := i; j < i+n; j++ {
			if f.random[j] {
				out = append(out, f.Token[i:i+n])
				break
			}
		}
	}
	return out
}

// leak returns a fragment of the fixture (n bytes or more) found in s, or
// "" if there is none.
func (f fixture) leak(s string, n int) string {
	for _, frag := range f.fragments(n) {
		if strings.Contains(s, frag) {
			return frag
		}
	}
	return ""
}

// stream yields pseudo-random bytes from a label.
type stream struct {
	label string
	n     uint64
	buf   []byte
}

func (s *stream) byte() byte {
	if len(s.buf) == 0 {
		var ctr [8]byte
		binary.BigEndian.PutUint64(ctr[:], s.n)
		s.n++
		sum := sha256.Sum256(append([]byte(s.label+"\x00"), ctr[:]...))
		s.buf = sum[:]
	}
	b := s.buf[0]
	s.buf = s.buf[1:]
	return b
}

// expand fills a template from the stream seeded with label.
func expand(template, label string) (fixture, error) {
	template = strings.ReplaceAll(template, `\n`, "\n")
	src := &stream{label: label}
	var f fixture
	var b strings.Builder
	last := 0
	for _, m := range classRE.FindAllStringSubmatchIndex(template, -1) {
		b.WriteString(template[last:m[0]])
		f.random = append(f.random, make([]bool, m[0]-last)...)
		alpha, ok := alphabets[template[m[2]:m[3]]]
		if !ok {
			return f, fmt.Errorf("unknown class %q", template[m[2]:m[3]])
		}
		n, _ := strconv.Atoi(template[m[4]:m[5]])
		for range n {
			b.WriteByte(alpha[int(src.byte())%len(alpha)])
			f.random = append(f.random, true)
		}
		last = m[1]
	}
	b.WriteString(template[last:])
	f.random = append(f.random, make([]bool, len(template)-last)...)
	f.Token = b.String()
	return f, nil
}

// templates reads testdata/corpus.txt: rule id → template, and the ids in
// file order.
func templates(t testing.TB) (map[string]string, []string) {
	t.Helper()
	file, err := os.Open(filepath.Join("testdata", "corpus.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	byRule := map[string]string{}
	var order []string
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rule, tmpl, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("corpus.txt: no tab in %q", line)
		}
		byRule[rule] = tmpl
		order = append(order, rule)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return byRule, order
}

// fake builds the fixture of a rule; variants of one rule differ.
func fake(t testing.TB, rule, variant string) fixture {
	t.Helper()
	byRule, _ := templates(t)
	tmpl, ok := byRule[rule]
	if !ok {
		t.Fatalf("no template for rule %s in testdata/corpus.txt", rule)
	}
	f, err := expand(tmpl, rule+"/"+variant)
	if err != nil {
		t.Fatalf("corpus.txt, %s: %v", rule, err)
	}
	f.Rule = rule
	return f
}

// corpus builds every fixture of testdata/corpus.txt and checks that the
// gate finds each, alone, by its own rule.
func corpus(t testing.TB) []fixture {
	t.Helper()
	_, order := templates(t)
	g := newGate(t, Options{})
	var out []fixture
	for _, rule := range order {
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
		t.Fatalf("fixture %s is not found by its rule (rules found: %v); fix testdata/corpus.txt", f.Rule, rules)
	}
	red, _ := Redact(text, spans)
	if frag := f.leak(red.String(), 8); frag != "" {
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
			if frag := f.leak(out, 8); frag != "" {
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
				if frag := f.leak(out, 8); frag != "" {
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
