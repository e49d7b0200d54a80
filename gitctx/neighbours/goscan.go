package neighbours

import (
	"go/token"
	"path"
	"slices"
	"sync"
)

// A seed is read whole: what it defines, and every name it selects from
// an identifier (x.Name), whether x is an import or not. go/parser builds
// every function body for that, which cost 0.11 CPU-s on the 150 Go files
// of prometheus' last 100 commits. scanGo reads the same from the file's
// tokens (goTokens), without a syntax tree: the package clause and the
// imports from an ImportsOnly parse, the top-level names from the
// declarations that open at depth 0, and the selectors from each
// identifier, period, identifier not preceded by a period. On a file that
// parses, it reads what the syntax tree says (TestScanGoAgreesWithParser,
// over the Go sources of the toolchain).

// goToken is one token of a Go file, with its bracket depth. It holds no
// pointer (an identifier's name is where it lies in the file), so that a
// file's tokens cost the garbage collector nothing.
type goToken struct {
	start, end int32 // an identifier's bytes in the file; 0, 0 for other tokens
	depth      int32 // open (, [ and { before it
	kind       uint8 // its token.Token: 16 bytes a token, not 24
}

// tok is the token's kind.
func (t goToken) tok() token.Token { return token.Token(t.kind) }

// name is an identifier's name.
func (t goToken) name(src []byte) string { return string(src[t.start:t.end]) }

// tokenBuffers holds the token slices scanGo reuses; it keeps nothing of
// them (names are copied out of the file).
var tokenBuffers = sync.Pool{New: func() any { return new([]goToken) }}

// scanGo reads what a Go file imports, defines and selects.
func scanGo(name string, src []byte) *goFile {
	g, names := lightImports(name, src)
	if g == nil {
		return nil
	}
	g.defines = map[string]bool{}
	g.selectors = map[string]map[string]bool{}
	local := map[string]string{} // package name in this file → import path
	for i, p := range g.imports {
		n := names[i]
		if n == "" {
			n = path.Base(p)
		}
		local[n] = p
	}
	g.aliases = nil // only lightGo's text scan needs them
	buf := tokenBuffers.Get().(*[]goToken)
	defer tokenBuffers.Put(buf)
	toks := appendGoTokens((*buf)[:0], src)
	*buf = toks
	topLevelDecls(src, toks, g.defines)
	for i := 2; i < len(toks); i++ {
		x, dot, sel := toks[i-2], toks[i-1], toks[i]
		if sel.tok() != token.IDENT || dot.tok() != token.PERIOD || x.tok() != token.IDENT || i > 2 && toks[i-3].tok() == token.PERIOD {
			continue
		}
		// string(bytes) in a map index allocates nothing: a name becomes a
		// string once, the first time it is seen
		xb, sb := src[x.start:x.end], src[sel.start:sel.end]
		selected := g.selectors[string(xb)]
		if selected == nil {
			selected = map[string]bool{}
			g.selectors[string(xb)] = selected
		}
		if !selected[string(sb)] {
			selected[string(sb)] = true
		}
		if p, ok := local[string(xb)]; ok {
			if g.uses[p] == nil {
				g.uses[p] = map[string]bool{}
			}
			if !g.uses[p][string(sb)] {
				g.uses[p][string(sb)] = true
			}
		}
	}
	return g
}

// topLevelDecls adds to defines the names the top-level declarations
// declare: funcs, their receivers' types, types, vars and consts.
func topLevelDecls(src []byte, toks []goToken, defines map[string]bool) {
	start := true // at the start of a top-level declaration
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.depth > 0 {
			continue
		}
		if t.tok() == token.SEMICOLON {
			start = true
			continue
		}
		if !start {
			continue
		}
		start = false
		switch t.tok() {
		case token.FUNC:
			i = funcDecl(src, toks, i+1, defines)
		case token.TYPE, token.VAR, token.CONST:
			i = genDecl(src, toks, i+1, t.tok() == token.TYPE, defines)
		}
	}
}

// funcDecl reads the receiver and the name of a func declaration whose
// tokens start at i, and returns the index of its last token read.
func funcDecl(src []byte, toks []goToken, i int, defines map[string]bool) int {
	if i < len(toks) && toks[i].tok() == token.LPAREN {
		end := closing(toks, i)
		if recv, ok := receiverOf(src, toks[i+1:end], toks[i].depth+1); ok && end > i+1 {
			defines[recv] = true
		}
		i = end + 1
	}
	if i < len(toks) && toks[i].tok() == token.IDENT {
		defines[toks[i].name(src)] = true
	}
	return i
}

// receiverOf is the type name of a receiver's tokens (those at depth are
// its own): names, then *…T or *…T[…]. Any other type (a qualified,
// parenthesized or composite one) reads "", as the syntax tree's receiver
// type does; a list of more than one receiver (which does not compile)
// reads nothing (ok false).
func receiverOf(src []byte, toks []goToken, depth int32) (name string, ok bool) {
	var own []goToken
	for _, t := range toks {
		if t.depth == depth {
			own = append(own, t)
		}
	}
	if n := len(own); n >= 2 && own[n-1].tok() == token.RBRACK {
		for n--; n > 0 && own[n].tok() != token.LBRACK; n-- {
		}
		own = own[:n] // T[K, V]: the type's parameters
	}
	if len(own) == 0 || own[len(own)-1].tok() != token.IDENT {
		return "", !hasComma(own)
	}
	name = own[len(own)-1].name(src)
	own = own[:len(own)-1]
	for len(own) > 0 && own[len(own)-1].tok() == token.MUL {
		own = own[:len(own)-1]
	}
	for i, t := range own { // the receiver's names: a, b T is one receiver
		if i%2 == 0 && t.tok() != token.IDENT || i%2 == 1 && t.tok() != token.COMMA || i == len(own)-1 && t.tok() != token.IDENT {
			return "", !hasComma(own)
		}
	}
	return name, true
}

func hasComma(toks []goToken) bool {
	return slices.ContainsFunc(toks, func(t goToken) bool { return t.tok() == token.COMMA })
}

// genDecl reads the names a type, var or const declaration whose tokens
// start at i declares, one spec or a block of them, and returns the index
// of its last token read.
func genDecl(src []byte, toks []goToken, i int, isType bool, defines map[string]bool) int {
	if i >= len(toks) {
		return i
	}
	if toks[i].tok() != token.LPAREN {
		return specNames(src, toks, i, isType, defines)
	}
	end := closing(toks, i)
	inner := toks[i].depth + 1
	for j := i + 1; j < end; j++ {
		if toks[j].depth == inner && (toks[j-1].tok() == token.LPAREN && j == i+1 || toks[j-1].tok() == token.SEMICOLON && toks[j-1].depth == inner) {
			j = specNames(src, toks, j, isType, defines)
		}
	}
	return end
}

// specNames reads the names a spec starting at i declares: a type's name,
// or a var or const spec's list of names. It returns the index of the last
// name.
func specNames(src []byte, toks []goToken, i int, isType bool, defines map[string]bool) int {
	if i >= len(toks) || toks[i].tok() != token.IDENT {
		return i
	}
	defines[toks[i].name(src)] = true
	for !isType && i+2 < len(toks) && toks[i+1].tok() == token.COMMA && toks[i+2].tok() == token.IDENT {
		i += 2
		defines[toks[i].name(src)] = true
	}
	return i
}

// closing is the index of the token closing the bracket open at i (the
// last token if it is never closed).
func closing(toks []goToken, i int) int {
	for j := i + 1; j < len(toks); j++ {
		if toks[j].depth == toks[i].depth {
			switch toks[j].tok() {
			case token.RPAREN, token.RBRACK, token.RBRACE:
				return j
			}
		}
	}
	return len(toks) - 1
}
