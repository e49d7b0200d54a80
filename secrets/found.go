package secrets

import (
	"slices"
	"strings"
	"sync"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
)

// A credential is a secret wherever it appears, also where no rule can
// tell: a password found in `db_password = "…"` is the same password as
// the argument of `login("admin", "…")` three lines below, in the commit
// message that says it was rotated, in the pull request's description,
// and in a model's answer that repeats it. So every credential the rules
// find is also looked for by value: in the text it was found in at once,
// and in every text of the run once Everywhere is called (a pack calls it
// when its sources are through the gate, before it renders them), like
// the run's own tokens.

// minFoundValue is the shortest value looked for elsewhere: shorter ones
// ("secret", "changeme") would be found in ordinary words.
const minFoundValue = 8

// foundValues are the credentials the run's scans found, by value. A gate
// and its Dry copies share them.
type foundValues struct {
	mu         sync.Mutex
	rule       map[string]string // value → the first by name of the rules that found it; in memory only
	everywhere bool              // look for every value in every text
	trie       *ahocorasick.Trie // of the values, sorted; nil: to build
	values     []string          // the trie's patterns
}

func newFoundValues() *foundValues { return &foundValues{rule: map[string]string{}} }

// Everywhere makes the gate, and every gate sharing its findings (Dry
// copies), look from now on in every text for every credential any scan
// of the run has found, and for those found later: what rules found in
// one file, a commit message or a pull request's description is redacted
// wherever else it appears.
func (g *Gate) Everywhere() {
	g.values.mu.Lock()
	defer g.values.mu.Unlock()
	g.values.everywhere = true
}

// valueOf returns the credential a finding names, "" when it names none
// that can be looked for by value (see looksMade).
func valueOf(text string, f finding) string {
	v := f.secret
	if f.kind == kindLiteral {
		v = text[f.secretStart:f.secretEnd]
	}
	if len(v) < minFoundValue || !looksMade(v) {
		return ""
	}
	return v
}

// looksMade reports whether a value looks made to be a credential rather
// than a word a rule took for one: an example URL's `user:password@`
// makes "password" a finding, and looked for by value it would be taken
// out of every `def login(self, username, password)` of the pack. A value
// with letters and a digit or a sign (other than _ and -) looks made, as
// does a long one of both cases or of digits alone; a word, an identifier
// and a kebab-case name do not.
func looksMade(v string) bool {
	var lower, upper, digit, sign bool
	for _, c := range v {
		switch {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
			upper = true
		case '0' <= c && c <= '9':
			digit = true
		case c == '_' || c == '-':
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return len(v) >= 32 // a private key's block, say; not a phrase
		default:
			sign = true
		}
	}
	letters := lower || upper
	return letters && (digit || sign) || lower && upper && len(v) >= 20 || !letters && digit && !sign && len(v) >= 12
}

// learn keeps the values of a text's findings, and returns them with
// their rules.
func (fv *foundValues) learn(text string, fs []finding) []foundValue {
	var out []foundValue
	for _, f := range fs {
		if v := valueOf(text, f); v != "" {
			out = append(out, foundValue{v, f.rule})
		}
	}
	if len(out) == 0 {
		return nil
	}
	fv.mu.Lock()
	defer fv.mu.Unlock()
	for _, v := range out {
		switch rule, ok := fv.rule[v.value]; {
		case !ok:
			fv.rule[v.value] = v.rule
			fv.trie = nil
		case v.rule < rule:
			fv.rule[v.value] = v.rule // found by two rules: the first by name, whichever core came first
		}
	}
	return out
}

// foundValue is a credential and the rule that found it.
type foundValue struct{ value, rule string }

// everywhereSpans finds every known value in text, when the gate looks
// everywhere.
func (g *Gate) everywhereSpans(text string) []Span {
	fv := g.values
	fv.mu.Lock()
	if !fv.everywhere || len(fv.rule) == 0 {
		fv.mu.Unlock()
		return nil
	}
	if fv.trie == nil {
		fv.values = make([]string, 0, len(fv.rule)) // a new slice: earlier callers still read theirs
		for v := range fv.rule {
			fv.values = append(fv.values, v)
		}
		slices.Sort(fv.values)
		fv.trie = ahocorasick.NewTrieBuilder().AddStrings(fv.values).Build()
	}
	trie, values, rules := fv.trie, fv.values, make([]string, len(fv.values))
	for i, v := range values {
		rules[i] = fv.rule[v]
	}
	fv.mu.Unlock()
	var spans []Span
	for _, m := range trie.MatchString(text) {
		v := values[m.Pattern()]
		start := int(m.Pos())
		spans = append(spans, Span{Start: start, End: start + len(v), Rule: rules[m.Pattern()],
			Placeholder: g.placeholder(rules[m.Pattern()], v), secretStart: start, secretEnd: start + len(v)})
	}
	return spans
}

// valueSpans finds the given values in text.
func (g *Gate) valueSpans(text string, values []foundValue) []Span {
	var spans []Span
	for _, v := range values {
		for from := 0; ; {
			i := strings.Index(text[from:], v.value)
			if i < 0 {
				break
			}
			start := from + i
			spans = append(spans, Span{Start: start, End: start + len(v.value), Rule: v.rule, Placeholder: g.placeholder(v.rule, v.value),
				secretStart: start, secretEnd: start + len(v.value)})
			from = start + len(v.value)
		}
	}
	return spans
}

// Known is how many credentials the gate looks for by value in every text:
// 0 until Everywhere, then it only grows. A caller that scans texts side
// by side compares it before and after: texts scanned before a value was
// found may hold it.
func (g *Gate) Known() int {
	g.values.mu.Lock()
	defer g.values.mu.Unlock()
	if !g.values.everywhere {
		return 0
	}
	return len(g.values.rule)
}

// RedactFound replaces in text every credential the run has found by
// value (see Everywhere), and nothing else: for a text put through the
// gate before the credentials it may repeat were found elsewhere.
func (g *Gate) RedactFound(text string) (Text, []Hit) {
	return Redact(text, merge(g.everywhereSpans(text)))
}

// outside returns the spans of values that no span of a rule's finding
// holds whole: where a rule found the credential, its span stands (it may
// hold more than the value, such as a key's name).
func outside(values, found []Span) []Span {
	return slices.DeleteFunc(values, func(v Span) bool {
		for _, f := range found {
			if f.Start <= v.Start && v.End <= f.End {
				return true
			}
		}
		return false
	})
}
