package neighbours

import (
	"regexp"
	"unicode/utf8"
)

// jsImportOne finds the imports of a JavaScript or TypeScript file with one
// pattern: `import x from 'm'` and `export … from 'm'`, `import 'm'`,
// `require('m')`, `import('m')`. It is what jsImports must answer, and its
// fallback; it has no literal to skip to, and read the heads of
// prometheus's 258 JavaScript and TypeScript files at 14 MB/s.
var jsImportOne = regexp.MustCompile(`(?m)(?:^|[^\w$.])(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[^\w$.])import\s*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)|\bimport\(\s*['"]([^'"]+)['"]\s*\)`)

// jsForms are jsImportOne's forms, in its order, each starting with a word
// the regexp package can skip to. What jsImportOne requires before the
// word is checked by nextJSMatch.
var jsForms = []struct {
	re       *regexp.Regexp
	boundary bool // after a word boundary; else after a line's start or a character other than a name's, '$' or '.'
}{
	{regexp.MustCompile(`import\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]`), false},
	{regexp.MustCompile(`export\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]`), false},
	{regexp.MustCompile(`import\s*['"]([^'"]+)['"]`), false},
	{regexp.MustCompile(`require\(\s*['"]([^'"]+)['"]\s*\)`), true},
	{regexp.MustCompile(`import\(\s*['"]([^'"]+)['"]\s*\)`), true},
}

// jsMatch is a match of a jsForm: [start, end) as jsImportOne would have
// matched it (with the character before the word), and the module.
type jsMatch struct{ start, end, from, to int }

// jsWork bounds, per byte of a file's head, the text the forms' searches
// may go over before jsImports gives up on them for jsImportOne, whose
// time is linear in the text. A search that finds a match whose start is
// not an import's goes on from just after that start, and a hostile file
// (".export x" thousands of times, then "from 'y'") makes every such
// search read to its end: 7 s for a 64 KB head without the bound.
const jsWork = 16

// jsImports lists the modules a JavaScript or TypeScript file imports,
// exactly as jsImportOne does (FuzzJSImports holds it to that): the
// leftmost match of any form, the earlier form on a tie, and on from the
// end of that match. On 789 files of prometheus, hono and express it was
// 4.8 times faster.
func jsImports(head []byte) []string {
	if out, ok := jsImportsWithin(head, jsWork*len(head)+4096); ok {
		return out
	}
	return groups(jsImportOne, head, "")
}

// jsImportsWithin is jsImports, or false once its searches have gone over
// more than budget bytes.
func jsImportsWithin(head []byte, budget int) ([]string, bool) {
	var out []string
	next := make([]*jsMatch, len(jsForms)) // each form's first match from pos on
	none := make([]bool, len(jsForms))     // the form has no match from pos on
	for pos := 0; pos < len(head); {
		best := -1
		for i := range jsForms {
			if none[i] {
				continue
			}
			if next[i] == nil || next[i].start < pos {
				next[i] = nextJSMatch(head, pos, i, &budget)
				if budget < 0 {
					return nil, false
				}
				none[i] = next[i] == nil
			}
			if m := next[i]; m != nil && (best < 0 || m.start < next[best].start) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		m := next[best]
		out = append(out, string(head[m.from:m.to]))
		pos = m.end
	}
	return out, true
}

// nextJSMatch is form i's first match that starts at pos or later. What
// each search goes over is taken from budget.
func nextJSMatch(head []byte, pos, i int, budget *int) *jsMatch {
	f := jsForms[i]
	for from := pos; from < len(head); {
		m := f.re.FindSubmatchIndex(head[from:])
		if m == nil {
			*budget -= len(head) - from
			return nil
		}
		*budget -= m[1]
		if *budget < 0 {
			return nil
		}
		at := from + m[0] // the word
		start := -1
		switch {
		case f.boundary:
			if at == 0 || !isWordByte(head[at-1]) {
				start = at
			}
		default:
			r, size := utf8.DecodeLastRune(head[:at])
			switch {
			case at > 0 && at-size >= pos && !isWordByte(head[at-1]) && r != '$' && r != '.':
				start = at - size // the character before the word is part of the match
			case at == 0 || head[at-1] == '\n':
				start = at // a line's start
			}
		}
		if start >= 0 {
			return &jsMatch{start, from + m[1], from + m[2], from + m[3]}
		}
		from = at + 1 // not an import; one may still start within
	}
	return nil
}
