package neighbours

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// definition finds the name a line defines, in the common languages: a Go
// func or type, a JavaScript/TypeScript function, class or binding (also
// `exports.name =` and `obj.name = function`), a Python def or class, a
// Rust item, an Elixir def, defp or defmacro, a Kotlin fun, and a type or
// function declared with modifiers (Java, C#, Kotlin, Swift, PHP: `public
// final class Client`, `open func retrieve(`, `public function send(`). A
// Java or C# method (`public static String join(`) is left out: measured
// on gson, serilog, Kingfisher, monolog and guzzle, taking it lost 0.017
// of hit@3 in one sampling and gained nothing in another.
var definition = regexp.MustCompile(`^\s*(?:func\s+(?:\([^)]*\)\s*)?(\w+)|type\s+(\w+)|(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|class|interface|enum)\s+(\w+)|(?:export\s+)?(?:const|let|var)\s+(\w+)\s*=|(?:async\s+)?def(?:p|macrop?)?\s+(\w+)|(?:` + modifiers + `\s+)+(?:class|interface|enum|record|struct|object|trait|fun|func|function)\s+&?(\w+)|fun\s+(?:<[^>]*>\s*)?(?:[\w.<>?, ]+\.)?(\w+)\s*\(|(?:object|record)\s+(\w+)|class\s+(\w+)|(?:pub(?:\([^)]*\))?\s+)?(?:fn|struct|trait|enum)\s+(\w+)|(?:module\.)?exports\.(\w+)\s*=|[\w$.]+\.(\w+)\s*=\s*(?:async\s+)?function\b)`)

// DefinedName returns the name a line of code defines, or "": the
// declarations that references look for (see definition).
func DefinedName(line string) string { return defines([]byte(line)) }

// defines returns the name a line defines, or "".
func defines(line []byte) string {
	if !mayDefine(line) {
		return ""
	}
	m := definition.FindSubmatch(line)
	if m == nil {
		return ""
	}
	for _, g := range m[1:] {
		if len(g) > 0 {
			return string(g)
		}
	}
	return ""
}

// modifiers are the words that may stand before a declaration in Java,
// C#, Kotlin, Swift, Scala and PHP.
const modifiers = `(?:public|private|protected|internal|fileprivate|static|final|abstract|sealed|open|data|partial|readonly|override|virtual|async|suspend|inline|synchronized|native|lateinit)`

// definitionWords are the words a definition starts with (after
// indentation); a line that starts with none of them defines nothing
// unless it assigns a function. Checking this first spares the regular
// expression most lines of a large change.
var definitionWords = map[string]bool{"func": true, "type": true, "export": true, "default": true, "async": true,
	"function": true, "function*": true, "class": true, "interface": true, "enum": true, "const": true, "let": true,
	"var": true, "def": true, "defp": true, "defmacro": true, "defmacrop": true, "fn": true, "struct": true,
	"trait": true, "exports": true, "fun": true, "object": true, "record": true,
	// modifiers
	"public": true, "private": true, "protected": true, "internal": true, "fileprivate": true, "static": true,
	"final": true, "abstract": true, "sealed": true, "open": true, "data": true, "partial": true, "readonly": true,
	"override": true, "virtual": true, "suspend": true, "inline": true, "synchronized": true, "native": true}

func mayDefine(line []byte) bool {
	line = bytes.TrimLeft(line, " \t")
	end := bytes.IndexAny(line, " \t.(")
	if end < 0 {
		end = len(line)
	}
	first := line[:end]
	return definitionWords[string(first)] || bytes.HasPrefix(first, []byte("pub")) ||
		bytes.Equal(first, []byte("module")) || bytes.Contains(line, []byte("function"))
}

// definedIn lists the names defined on changed lines of a patch, and by the
// functions the hunks sit in; nothing when want is false.
func definedIn(p *gitctx.Patch, want bool) []string {
	if !want {
		return nil
	}
	var out []string
	add := func(line string) {
		if d := defines([]byte(line)); d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	for _, h := range p.Hunks {
		add(h.Section)
		for _, l := range h.Lines {
			if l.Op != ' ' {
				add(l.Text)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return exported(out[i]) && !exported(out[j]) })
	return out
}

// usedIn lists the first max specific names on a patch's changed lines,
// in the order they come: what the change calls or names, or stops
// calling.
func usedIn(p *gitctx.Patch, max int) []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range p.Hunks {
		for _, l := range h.Lines {
			if len(out) >= max {
				return out
			}
			if l.Op == ' ' {
				continue
			}
			eachWord(maskCredentials(l.Text), func(b []byte) {
				if w := string(b); !seen[w] && specific(w) {
					seen[w] = true
					out = append(out, w)
				}
			})
		}
	}
	return out
}

// eachWord calls fn with each word of a line, as `git grep -w` sees
// words: runs of letters, digits and underscores.
func eachWord(line []byte, fn func([]byte)) {
	start := -1
	for i := 0; i <= len(line); i++ {
		if i < len(line) && isWordByte(line[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if i-start >= minSymbolLen {
				fn(line[start:i])
			}
			start = -1
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// specific reports whether a name is specific enough to search for: of
// two words or more (camelCase, snake_case) and minSymbolLen letters. A
// one-word name (String, Config, Equal, run) is named in too many files to
// tell anything, and listing its every use is what makes the search slow.
// A random-looking word (a key or a digest in a test) names no symbol,
// and could be a credential: it is never searched for, nor put on git's
// command line.
func specific(name string) bool {
	if len(name) < minSymbolLen || '0' <= name[0] && name[0] <= '9' || random(name) {
		return false
	}
	words := 1
	for i := 1; i < len(name); i++ {
		prev, c := name[i-1], name[i]
		if (c == '_' && i < len(name)-1) || (isUpper(c) && !isUpper(prev) && prev != '_') {
			words++
		}
	}
	return words >= 2
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// random reports whether a word of 16 bytes or more looks random rather
// than written: it changes between upper case, lower case and digits at a
// third of its bytes or more ("xtF8Rz4W", a digest), where a name changes
// once a word ("TestRaceChanSendSend": an upper-case letter starting a
// lower-case word is no change). Of the 66,000 names of 16 bytes or more
// in Go's own source, 6% look random so: certificates, keys and digests in
// tests, and a few machine-written names (testInt32x4ConvertLoToInt64x2).
func random(word string) bool {
	if len(word) < 16 {
		return false
	}
	class := func(c byte) byte {
		switch {
		case isUpper(c):
			return 'A'
		case 'a' <= c && c <= 'z':
			return 'a'
		case '0' <= c && c <= '9':
			return '0'
		}
		return c
	}
	n, changes := 0, 0
	for i := 0; i < len(word); i++ {
		if word[i] == '_' {
			continue
		}
		n++
		if i == 0 || word[i-1] == '_' {
			continue
		}
		prev, c := class(word[i-1]), class(word[i])
		startsWord := prev == 'A' && c == 'a' && (i < 2 || class(word[i-2]) != 'A')
		if prev != c && !startsWord {
			changes++
		}
	}
	return 3*changes >= n
}

// exported reports whether a name starts with an upper-case letter: such
// names are used across files.
func exported(name string) bool {
	return name != "" && strings.ToUpper(name[:1]) == name[:1]
}
