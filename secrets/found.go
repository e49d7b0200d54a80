package secrets

import (
	"slices"
	"strings"
	"sync"
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
	index      *valueIndex       // of the values; nil: to build
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
			fv.index = nil
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
	if fv.index == nil {
		values := make([]string, 0, len(fv.rule))
		for v := range fv.rule {
			values = append(values, v)
		}
		slices.Sort(values)
		fv.index = newValueIndex(values)
	}
	ix := fv.index
	rules := make([]string, len(ix.values))
	for i, v := range ix.values {
		rules[i] = fv.rule[v]
	}
	fv.mu.Unlock()
	var spans []Span
	ix.each(text, func(start, i int) {
		v := ix.values[i]
		spans = append(spans, Span{Start: start, End: start + len(v), Rule: rules[i],
			Placeholder: g.placeholder(rules[i], v), secretStart: start, secretEnd: start + len(v)})
	})
	return spans
}

// valueSpans finds the given values in text: one by one when they are
// few, at once (valueIndex) when a text holds many findings (a fixture of
// thousands of keys), where one by one would read the text once for each.
func (g *Gate) valueSpans(text string, values []foundValue) []Span {
	var spans []Span
	add := func(start int, v foundValue) {
		spans = append(spans, Span{Start: start, End: start + len(v.value), Rule: v.rule, Placeholder: g.placeholder(v.rule, v.value),
			secretStart: start, secretEnd: start + len(v.value)})
	}
	if len(values) > maxValuesOneByOne {
		patterns := make([]string, len(values))
		for i, v := range values {
			patterns[i] = v.value
		}
		newValueIndex(patterns).each(text, func(start, i int) { add(start, values[i]) })
		return spans
	}
	for _, v := range values {
		for from := 0; ; {
			i := strings.Index(text[from:], v.value)
			if i < 0 {
				break
			}
			add(from+i, v)
			from += i + len(v.value)
		}
	}
	return spans
}

// maxValuesOneByOne is the most values valueSpans looks for one by one.
const maxValuesOneByOne = 16

// valueIndex finds many values (each at least minFoundValue bytes) in a
// text in one pass: a position whose first two bytes start no value is
// passed at once, and the others look up the values that start with its
// first minFoundValue bytes.
type valueIndex struct {
	values []string
	starts [1 << 16]bool    // the first two bytes of some value
	byHead map[string][]int // the first minFoundValue bytes → the values' indexes
}

func newValueIndex(values []string) *valueIndex {
	ix := &valueIndex{values: values, byHead: make(map[string][]int, len(values))}
	for i, v := range values {
		ix.starts[int(v[0])<<8|int(v[1])] = true
		ix.byHead[v[:minFoundValue]] = append(ix.byHead[v[:minFoundValue]], i)
	}
	return ix
}

// each calls fn with the start of every place in text a value is, and the
// value's index, in the order of the places.
func (ix *valueIndex) each(text string, fn func(start, i int)) {
	for at := 0; at+minFoundValue <= len(text); at++ {
		if !ix.starts[int(text[at])<<8|int(text[at+1])] {
			continue
		}
		for _, i := range ix.byHead[text[at:at+minFoundValue]] {
			if strings.HasPrefix(text[at:], ix.values[i]) {
				fn(at, i)
			}
		}
	}
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
	if len(values) == 0 || len(found) == 0 {
		return values
	}
	found = slices.Clone(found)
	slices.SortFunc(found, func(a, b Span) int { return a.Start - b.Start })
	reach := make([]int, len(found)) // the furthest End of found[:i+1]
	for i, f := range found {
		reach[i] = f.End
		if i > 0 {
			reach[i] = max(reach[i], reach[i-1])
		}
	}
	return slices.DeleteFunc(values, func(v Span) bool {
		// the last finding that starts at or before v
		i, _ := slices.BinarySearchFunc(found, v.Start+1, func(f Span, t int) int { return f.Start - t })
		return i > 0 && reach[i-1] >= v.End
	})
}
