package neighbours

import (
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Import statements, by language. Each yields one spec per match (the
// first non-empty group).
var (
	pyFrom    = regexp.MustCompile(`(?m)^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]*(?:\(([^)]*)\)|([\w*, \t]+))`)
	pyImport  = regexp.MustCompile(`(?m)^[ \t]*import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)`)
	pyComment = regexp.MustCompile(`#[^\n]*`)
	jvmImport = regexp.MustCompile(`(?m)^[ \t]*import[ \t]+(?:static[ \t]+)?([\w.]+?)(?:\.\*)?[ \t]*;?[ \t]*$`)
	rustMod   = regexp.MustCompile(`(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+(\w+)[ \t]*;`)
	rustUse   = regexp.MustCompile(`(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?use[ \t]+((?:crate|super|self)(?:::\w+)+)`)
	cInclude  = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*"([^"]+)"`)
	rbRequire = regexp.MustCompile(`(?m)^[ \t]*require_relative[ \t]+['"]([^'"]+)['"]`)
)

// parseImports lists the import specs in the head of a file. Specs carry a
// prefix saying how to resolve them ("py:", "mod:", "use:", "rel:").
func parseImports(name string, head []byte) []string {
	switch languageOf(name) {
	case "go":
		return goImports(name, head)
	case "js":
		return jsImports(head)
	case "python":
		return pyImports(head)
	case "jvm":
		return groups(jvmImport, head, "jvm:")
	case "rust":
		return append(groups(rustMod, head, "mod:"), groups(rustUse, head, "use:")...)
	case "c":
		return groups(cInclude, head, "")
	case "ruby":
		return groups(rbRequire, head, "rel:")
	}
	return nil
}

func goImports(name string, head []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), name, head, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil && f == nil {
		return nil
	}
	var out []string
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil {
			out = append(out, "go:"+p)
		}
	}
	return out
}

// groups returns the first non-empty group of every match, prefixed.
func groups(re *regexp.Regexp, text []byte, prefix string) []string {
	var out []string
	for _, m := range re.FindAllSubmatch(text, -1) {
		for _, g := range m[1:] {
			if len(g) > 0 {
				out = append(out, prefix+string(g))
				break
			}
		}
	}
	return out
}

// jsForms are the forms of a JavaScript or TypeScript import, in the order
// the one pattern they replaced listed them: `import x from 'm'` and
// `export … from 'm'`, `import 'm'`, `require('m')`, `import('m')`. Each
// starts with a word the regexp package can skip to; the one pattern had
// none and read the heads of prometheus's 258 JavaScript and TypeScript
// files at 14 MB/s. What comes before the word is checked by jsImports.
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

// jsMatch is a match of a jsForm: [start, end) as the one pattern would
// have matched it (with the character before the word), and the module.
type jsMatch struct{ start, end, from, to int }

// jsImports lists the modules a JavaScript or TypeScript file imports,
// exactly as the one pattern did (FuzzJSImports holds it to that): the
// leftmost match of any form, the earlier form on a tie, and on from the
// end of that match.
func jsImports(head []byte) []string {
	var out []string
	next := make([]*jsMatch, len(jsForms)) // each form's first match from pos on
	for pos := 0; pos < len(head); {
		best := -1
		for i := range jsForms {
			if next[i] == nil || next[i].start < pos {
				next[i] = nextJSMatch(head, pos, i)
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
	return out
}

// nextJSMatch is form i's first match that starts at pos or later.
func nextJSMatch(head []byte, pos, i int) *jsMatch {
	f := jsForms[i]
	for from := pos; from < len(head); {
		m := f.re.FindSubmatchIndex(head[from:])
		if m == nil {
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
		from = at + 1
	}
	return nil
}

// pyImports turns Python imports into "py:<module>" specs; "from m import
// a, b" also yields "py:m.a" and "py:m.b", since a and b may be modules.
func pyImports(head []byte) []string {
	var out []string
	for _, m := range pyFrom.FindAllSubmatch(head, -1) {
		mod := string(m[1])
		out = append(out, "py:"+mod)
		names := string(m[2]) + string(m[3]) // one of them is empty
		for _, n := range strings.Split(pyComment.ReplaceAllString(names, ""), ",") {
			fields := strings.Fields(n) // "a as b" names module a
			if len(fields) == 0 || fields[0] == "*" {
				continue
			}
			n = fields[0]
			sep := "."
			if strings.HasSuffix(mod, ".") {
				sep = ""
			}
			out = append(out, "py:"+mod+sep+n)
		}
	}
	for _, m := range pyImport.FindAllSubmatch(head, -1) {
		for _, n := range strings.Split(string(m[1]), ",") {
			out = append(out, "py:"+strings.TrimSpace(n))
		}
	}
	return out
}
