package pack

import (
	"strings"

	"github.com/gitctx/gitctx/gitctx/neighbours"
)

// declaredName returns the name a line of code declares, or "", as an
// excerpt reads declarations: as the neighbour search does
// (neighbours.DefinedName: a Go func or type, a Python def or class, a
// JavaScript function, class or binding, a Rust item …), and beside those
// a TypeScript type alias or ambient declaration (`export type Load<`,
// `declare module 'x' {`) and a method that opens its body on its line
// (see methodName). The search leaves methods out of what it looks for
// (measured: they cost more than they found); an excerpt only places its
// lines by them.
func declaredName(line string) string {
	if n := neighbours.DefinedName(line); n != "" {
		return n
	}
	if n := typeScriptName(line); n != "" {
		return n
	}
	return methodName(line)
}

// typeScriptName returns the name of a TypeScript type alias, namespace
// or ambient module a line declares, or "".
func typeScriptName(line string) string {
	f := strings.Fields(line)
	for len(f) > 1 && (f[0] == "export" || f[0] == "declare" || f[0] == "default") {
		f = f[1:]
	}
	if len(f) < 2 || f[0] != "type" && f[0] != "namespace" && f[0] != "module" {
		return ""
	}
	name := strings.Trim(f[1], `'"{<=;`)
	if end := strings.IndexAny(name, "<={"); end >= 0 {
		name = name[:end]
	}
	return name
}

// methodName returns the name of the method a line declares when the line
// opens its body (`async load(event) {`, `static get url() {`,
// `public String join(List<String> parts) {`, `#resolve(id) {`), or "".
// A control statement (`if (ok) {`), a call with a literal or a callback
// (`describe('x', () => {`) and a line that assigns are not methods.
func methodName(line string) string {
	t := strings.TrimSpace(line)
	open := strings.IndexByte(t, '(')
	if open <= 0 || !strings.HasSuffix(t, "{") || strings.Contains(t, "=>") || strings.ContainsAny(t[:open], "=:;'\"`") {
		return ""
	}
	if args := strings.TrimSpace(t[open+1:]); args != "" && strings.ContainsRune(`'"`+"`0123456789", rune(args[0])) ||
		strings.Contains(args, "function") || !closesParameters(t, open) {
		return "" // a call with a literal, a callback or an object: `test('parses', function () {`, `defineConfig({`
	}
	words := strings.Fields(t[:open])
	if len(words) == 0 {
		return ""
	}
	name := strings.TrimLeft(words[len(words)-1], "*#&")
	if i := strings.IndexByte(name, '<'); i > 0 {
		name = name[:i] // a generic method: `map<T>(`
	}
	if !isIdentifier(name) || notMethod[name] {
		return ""
	}
	for _, w := range words[:len(words)-1] {
		if notMethod[w] || strings.ContainsAny(w, "()") {
			return ""
		}
	}
	return name
}

// closesParameters reports whether a line that opens a block at its end
// closes the parameter list opened at open before it, with at most a
// return type or a qualifier after it (`): Promise<void> {`, `) throws
// IOException {`, `) const {`).
func closesParameters(t string, open int) bool {
	s := strings.TrimSpace(strings.TrimSuffix(t, "{"))
	closing := strings.LastIndexByte(s, ')')
	if closing < open {
		return false
	}
	rest := strings.TrimSpace(s[closing+1:])
	return rest == "" || rest[0] == ':' || strings.HasPrefix(rest, "throws ") ||
		rest == "const" || rest == "override" || rest == "noexcept" || rest == "final"
}

// notMethod are the words that start a statement rather than a method.
var notMethod = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "with": true, "function": true,
	"return": true, "new": true, "else": true, "do": true, "try": true, "foreach": true, "using": true,
	"lock": true, "fixed": true, "synchronized": true, "when": true, "elif": true, "match": true,
	"await": true, "yield": true, "throw": true, "case": true, "typeof": true, "sizeof": true, "until": true,
	"unless": true, "guard": true, "defer": true, "go": true, "select": true, "loop": true, "in": true,
}

func isIdentifier(s string) bool {
	if s == "" || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// opensUnit reports whether a line opens a unit an excerpt places a hunk
// in: a declaration (see declaredName), or a block of tests
// (`describe('router', () => {`, `test.describe('env', () => {`).
func opensUnit(line string) bool {
	return declaredName(line) != "" || testBlock(line)
}

// testBlock reports whether a line opens a block of tests in the
// JavaScript test runners' way: a call of describe, it, test, suite or
// context (or one of their modifiers, `test.describe.serial`) with a title
// and a callback whose body the line opens.
func testBlock(line string) bool {
	t := strings.TrimSpace(line)
	open := strings.IndexByte(t, '(')
	if open <= 0 || !strings.HasSuffix(t, "{") {
		return false
	}
	callee, _, _ := strings.Cut(t[:open], ".")
	switch callee {
	case "describe", "it", "test", "suite", "context", "bench":
	default:
		return false
	}
	args := strings.TrimSpace(t[open+1:])
	return args != "" && strings.ContainsRune(`'"`+"`", rune(args[0]))
}
