// Package secretstest makes fake credentials for tests: one per gitleaks
// rule, from the templates of corpus.txt (see its header), built at test
// time so that no file holds a credential whole. The same label always
// gives the same credential.
package secretstest

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

//go:embed corpus.txt
var corpusText string

// Fixture is one fake credential.
type Fixture struct {
	Rule  string
	Token string
	// Random marks the bytes of Token drawn at random: the credential
	// proper, as opposed to the rule's fixed prefix.
	Random []bool
}

// Fragments lists the n-byte windows of the token that hold a random
// byte: none of them may survive redaction.
func (f Fixture) Fragments(n int) []string {
	var out []string
	for i := 0; i+n <= len(f.Token); i++ {
		for j := i; j < i+n; j++ {
			if f.Random[j] {
				out = append(out, f.Token[i:i+n])
				break
			}
		}
	}
	return out
}

// Leak returns a fragment of the fixture (n bytes) found in s, or "" if
// there is none.
func (f Fixture) Leak(s string, n int) string {
	for _, frag := range f.Fragments(n) {
		if strings.Contains(s, frag) {
			return frag
		}
	}
	return ""
}

// Corpus is the templates of corpus.txt.
type Corpus struct {
	Rules     []string // rule ids, in file order
	templates map[string]string
}

// Load reads the corpus.
func Load() (*Corpus, error) {
	c := &Corpus{templates: map[string]string{}}
	sc := bufio.NewScanner(strings.NewReader(corpusText))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rule, tmpl, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("corpus.txt: no tab in %q", line)
		}
		c.Rules = append(c.Rules, rule)
		c.templates[rule] = tmpl
	}
	return c, sc.Err()
}

// Make builds the fixture of a rule; variants of one rule differ.
func (c *Corpus) Make(rule, variant string) (Fixture, error) {
	tmpl, ok := c.templates[rule]
	if !ok {
		return Fixture{}, fmt.Errorf("no template for rule %s in corpus.txt", rule)
	}
	f, err := Expand(tmpl, rule+"/"+variant)
	if err != nil {
		return f, fmt.Errorf("corpus.txt, %s: %w", rule, err)
	}
	f.Rule = rule
	return f, nil
}

// Template returns a rule's template, with \n as a newline ("" if the
// corpus has none for the rule).
func (c *Corpus) Template(rule string) string {
	return strings.ReplaceAll(c.templates[rule], `\n`, "\n")
}

// classes are the character classes the templates draw from.
var classes = map[string]string{
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

// Expand fills a template ({CLASS:N} runs, \n for a newline) from a
// pseudo-random stream seeded with label. The fixture's Rule is left empty.
func Expand(template, label string) (Fixture, error) {
	template = strings.ReplaceAll(template, `\n`, "\n")
	src := &stream{label: label}
	var f Fixture
	var b strings.Builder
	last := 0
	for _, m := range classRE.FindAllStringSubmatchIndex(template, -1) {
		b.WriteString(template[last:m[0]])
		f.Random = append(f.Random, make([]bool, m[0]-last)...)
		alpha, ok := classes[template[m[2]:m[3]]]
		if !ok {
			return f, fmt.Errorf("unknown class %q", template[m[2]:m[3]])
		}
		n, _ := strconv.Atoi(template[m[4]:m[5]])
		for range n {
			b.WriteByte(alpha[int(src.byte())%len(alpha)])
			f.Random = append(f.Random, true)
		}
		last = m[1]
	}
	b.WriteString(template[last:])
	f.Random = append(f.Random, make([]bool, len(template)-last)...)
	f.Token = b.String()
	return f, nil
}

// stream yields pseudo-random bytes from a label: SHA-256 of the label and
// a counter.
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

// KeyBody is a fake private key's body: n lines of 64 base64 characters
// drawn from a stream seeded with label and the line's number.
func KeyBody(label string, n int) ([]string, error) {
	out := make([]string, 0, n)
	for i := range n {
		f, err := Expand("{b64:64}", fmt.Sprintf("%s/%d", label, i))
		if err != nil {
			return nil, err
		}
		out = append(out, f.Token)
	}
	return out, nil
}
