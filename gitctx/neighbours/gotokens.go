package neighbours

import (
	"bytes"
	"go/token"
	"unicode"
	"unicode/utf8"
)

// goTokens lists the tokens of a Go file that scanGo reads, as go/scanner
// would list them, comments left out and semicolons inserted where a line
// ends a statement. Literals and operators other than those scanGo reads
// (brackets, period, comma, star, semicolon) are merged (see below): only
// where they end matters. It is go/scanner's work without its line
// table, its literal strings and its error reports: 3–3.5 times faster on
// net/http's files (go/scanner merged the same way, 61 MB/s; this, 175–213
// MB/s). TestGoTokensAgreeWithScanner and FuzzGoTokens hold it to
// go/scanner.
//
// The tokens scanGo does not read are merged into three: token.STRING for
// any literal, token.ADD for any other operator, token.ILLEGAL for a
// character Go does not know.
func goTokens(src []byte) []goToken { return appendGoTokens(make([]goToken, 0, len(src)/4), src) }

// appendGoTokens is goTokens into a slice of its own: scanGo reuses one
// (see tokenBuffers) instead of allocating and zeroing 16 bytes of tokens
// for every 4 bytes of a file (21 MB for prometheus' last 100 commits).
func appendGoTokens(toks []goToken, src []byte) []goToken {
	if bytes.HasPrefix(src, []byte{0xfe, 0xff}) || bytes.HasPrefix(src, []byte{0xff, 0xfe}) {
		return append(toks, goToken{kind: uint8(token.ILLEGAL)}) // UTF-16: go/scanner reads no further
	}
	l := goLexer{src: src, toks: toks}
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		l.i = 3 // a byte order mark, which go/scanner skips
	}
	for l.i < len(l.src) {
		l.next()
	}
	if l.semi {
		l.emit(token.SEMICOLON, 0)
	}
	return l.toks
}

// goLexer is goTokens' state.
type goLexer struct {
	src   []byte
	i     int
	toks  []goToken
	depth int32
	semi  bool // a line end here ends a statement
}

// emit adds a token; an identifier's bytes end at l.i.
func (l *goLexer) emit(tok token.Token, start int) {
	switch tok {
	case token.RPAREN, token.RBRACK, token.RBRACE:
		l.depth = max(0, l.depth-1)
	}
	t := goToken{kind: uint8(tok), depth: l.depth}
	if tok == token.IDENT {
		t.start, t.end = int32(start), int32(l.i)
	}
	l.toks = append(l.toks, t)
	switch tok {
	case token.LPAREN, token.LBRACK, token.LBRACE:
		l.depth++
	}
	switch tok {
	case token.IDENT, token.STRING, token.BREAK, token.CONTINUE, token.FALLTHROUGH, token.RETURN,
		token.INC, token.DEC, token.RPAREN, token.RBRACK, token.RBRACE:
		l.semi = true
	case token.ILLEGAL:
		// as go/scanner: an unknown character leaves the line end as it was
	default:
		l.semi = false
	}
}

// next reads one token, or skips white space or a comment.
func (l *goLexer) next() {
	src, i := l.src, l.i
	c := src[i]
	switch {
	case c == '\n':
		if l.semi {
			l.emit(token.SEMICOLON, 0)
		}
		l.i++
	case c == ' ' || c == '\t' || c == '\r':
		l.i++
	case c == '/' && i+1 < len(src) && src[i+1] == '/':
		if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
			l.i = i + j // the line end is read next
		} else {
			l.i = len(src)
		}
	case c == '/' && i+1 < len(src) && src[i+1] == '*':
		end := len(src)
		if j := bytes.Index(src[i+2:], []byte("*/")); j >= 0 {
			end = i + 2 + j + 2
		}
		if l.semi && (bytes.IndexByte(src[i:end], '\n') >= 0 || end == len(src)) {
			l.emit(token.SEMICOLON, 0)
		}
		l.i = end
	case isLetterAt(src, i):
		j := i
		for j < len(src) {
			if c := src[j]; c < utf8.RuneSelf {
				if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
					break
				}
				j++
				continue
			}
			r, n := utf8.DecodeRune(src[j:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			j += n
		}
		l.i = j
		l.emit(keyword(src[i:j]), i)
	case '0' <= c && c <= '9' || c == '.' && i+1 < len(src) && '0' <= src[i+1] && src[i+1] <= '9':
		l.i = numberEnd(src, i)
		l.emit(token.STRING, 0)
	case c == '"' || c == '\'':
		l.i = quotedEnd(src, i)
		l.emit(token.STRING, 0)
	case c == '`':
		l.i = len(src)
		if j := bytes.IndexByte(src[i+1:], '`'); j >= 0 {
			l.i = i + 1 + j + 1
		}
		l.emit(token.STRING, 0)
	default:
		l.operator()
	}
}

// operator reads an operator or a delimiter (or an unknown character).
func (l *goLexer) operator() {
	src, i := l.src, l.i
	c := src[i]
	at := func(k int, b byte) bool { return i+k < len(src) && src[i+k] == b }
	tok, n := token.ILLEGAL, 1
	switch c {
	case '(':
		tok = token.LPAREN
	case ')':
		tok = token.RPAREN
	case '[':
		tok = token.LBRACK
	case ']':
		tok = token.RBRACK
	case '{':
		tok = token.LBRACE
	case '}':
		tok = token.RBRACE
	case ',':
		tok = token.COMMA
	case ';':
		tok = token.SEMICOLON
	case '.':
		tok = token.PERIOD
		if at(1, '.') && at(2, '.') {
			tok, n = token.ELLIPSIS, 3
		}
	case '*':
		tok = token.MUL
		if at(1, '=') {
			tok, n = token.ADD, 2 // *=
		}
	case '<':
		tok = token.ADD
		if at(1, '-') || at(1, '<') {
			n = 2 // <- or <<: not < and a --, nor < and a <-
		}
	case '+', '-':
		tok = token.ADD
		if at(1, c) {
			tok, n = token.INC, 2
			if c == '-' {
				tok = token.DEC
			}
		}
	case '/', '%', '&', '|', '^', '>', '=', '!', ':', '~':
		tok = token.ADD // the rest of an operator is read as one of these too
	default:
		_, n = utf8.DecodeRune(src[i:]) // a character Go does not know: ILLEGAL
	}
	l.i += n
	l.emit(tok, 0)
}

// keyword is the keyword token of an identifier's bytes, or token.IDENT.
func keyword(b []byte) token.Token {
	if len(b) < 2 || b[0] < 'b' || b[0] > 'v' {
		return token.IDENT
	}
	switch string(b) {
	case "break":
		return token.BREAK
	case "case":
		return token.CASE
	case "chan":
		return token.CHAN
	case "const":
		return token.CONST
	case "continue":
		return token.CONTINUE
	case "default":
		return token.DEFAULT
	case "defer":
		return token.DEFER
	case "else":
		return token.ELSE
	case "fallthrough":
		return token.FALLTHROUGH
	case "for":
		return token.FOR
	case "func":
		return token.FUNC
	case "go":
		return token.GO
	case "goto":
		return token.GOTO
	case "if":
		return token.IF
	case "import":
		return token.IMPORT
	case "interface":
		return token.INTERFACE
	case "map":
		return token.MAP
	case "package":
		return token.PACKAGE
	case "range":
		return token.RANGE
	case "return":
		return token.RETURN
	case "select":
		return token.SELECT
	case "struct":
		return token.STRUCT
	case "switch":
		return token.SWITCH
	case "type":
		return token.TYPE
	case "var":
		return token.VAR
	}
	return token.IDENT
}

// isLetterAt reports whether src holds, at i, a letter that may start a Go
// identifier.
func isLetterAt(src []byte, i int) bool {
	c := src[i]
	if c < utf8.RuneSelf {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
	}
	r, _ := utf8.DecodeRune(src[i:])
	return unicode.IsLetter(r)
}

// numberEnd is the end of the number literal at i, read as go/scanner
// reads one: a prefix, digits and underscores of its base, a fraction, an
// exponent (e or, in hex, p) with its sign, and an i.
func numberEnd(src []byte, i int) int {
	digit := func(c byte) bool { return '0' <= c && c <= '9' || c == '_' }
	hex := false
	if src[i] == '0' && i+1 < len(src) {
		switch src[i+1] | 0x20 {
		case 'x':
			hex, i = true, i+2
		case 'b', 'o':
			i += 2
		}
	}
	inBase := func(c byte) bool { return digit(c) || hex && ('a' <= c|0x20 && c|0x20 <= 'f') }
	for i < len(src) && inBase(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '.' {
		for i++; i < len(src) && inBase(src[i]); i++ {
		}
	}
	if i < len(src) && (src[i]|0x20 == 'e' || src[i]|0x20 == 'p') { // hex read its e
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		for i < len(src) && digit(src[i]) {
			i++
		}
	}
	if i < len(src) && src[i] == 'i' {
		i++
	}
	return i
}

// quotedEnd is the end of the string or rune literal at i: its closing
// quote, or the line end (not included) where an unterminated one stops.
func quotedEnd(src []byte, i int) int {
	q := src[i]
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			if i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case '\n':
			return i
		case q:
			return i + 1
		}
	}
	return i
}
