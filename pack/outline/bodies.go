package outline

import "bytes"

// An outline shows no function body, yet go/parser builds every body's
// syntax tree: most of a Go file's parsing. WithoutBodies blanks the bodies
// first, in one pass over the bytes.

// WithoutBodies returns src with the inside of every top-level function's
// body blanked: each byte but a newline becomes a space, so that every
// position outside the bodies stays where it was, and the bodies parse as
// empty blocks. What it blanks is found as the Go grammar finds it:
// comments, strings and rune literals are skipped, and a top-level
// declaration ends at a newline where Go inserts a semicolon. A body is the
// first brace of a func declaration, outside parentheses and brackets, that
// does not open a struct or interface type. On a file that does not parse,
// what it blanks may be anything; the caller parses the result and falls
// back when that fails.
func WithoutBodies(src string) string {
	b := []byte(src)
	var (
		depth     int  // open ( [ { of the current declaration
		inDecl    bool // a top-level declaration has begun
		isFunc    bool // ... with the word func
		afterType bool // the last token was struct or interface: a brace opens a type
		endable   bool // a newline after the last token ends a statement
	)
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\n':
			if depth == 0 && endable {
				inDecl, isFunc, endable = false, false, false
			}
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := indexAfter(b, i+2, "*/")
			if bytes.IndexByte(b[i:end], '\n') >= 0 && depth == 0 && endable {
				inDecl, isFunc, endable = false, false, false // a comment across lines ends a line
			}
			i = end
		case c == '"' || c == '\'':
			i = quoted(b, i)
			afterType, endable = false, true
		case c == '`':
			i = indexAfter(b, i+1, "`")
			afterType, endable = false, true
		case isWordByte(c):
			j := i
			for j < len(b) && isWordByte(b[j]) {
				j++
			}
			w := b[i:j]
			if depth == 0 && !inDecl {
				inDecl, isFunc = true, string(w) == "func"
			}
			afterType, endable = string(w) == "struct" || string(w) == "interface", endsStatement(w)
			i = j
		case c == '{' && depth == 0 && isFunc && !afterType:
			end := matchingBrace(b, i)
			for k := i + 1; k < end-1; k++ {
				if b[k] != '\n' {
					b[k] = ' '
				}
			}
			i = end
			afterType, endable = false, true
		default:
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
			afterType, endable = false, c == ')' || c == ']' || c == '}'
			i++
		}
	}
	return string(b)
}

// matchingBrace returns the index just past the brace that closes the one
// at open (len(b) when none does).
func matchingBrace(b []byte, open int) int {
	depth := 0
	for i := open; i < len(b); {
		switch c := b[i]; {
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			i = indexAfter(b, i+2, "*/")
		case c == '"' || c == '\'':
			i = quoted(b, i)
		case c == '`':
			i = indexAfter(b, i+1, "`")
		default:
			if c == '{' {
				depth++
			} else if c == '}' {
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	return len(b)
}

// quoted returns the index just past the string or rune literal that
// starts at i (its quote), or past the end of its line when it does not
// close there.
func quoted(b []byte, i int) int {
	q := b[i]
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case q:
			return i + 1
		case '\n':
			return i
		}
	}
	return len(b)
}

// indexAfter returns the index just past the first s at or after from, or
// len(b).
func indexAfter(b []byte, from int, s string) int {
	if k := bytes.Index(b[from:], []byte(s)); k >= 0 {
		return from + k + len(s)
	}
	return len(b)
}

// endsStatement reports whether a newline after a word ends a statement:
// after an identifier, and after break, continue, fallthrough and return
// but no other keyword.
func endsStatement(w []byte) bool {
	switch string(w) {
	case "case", "chan", "const", "default", "defer", "else", "for", "func", "go", "goto", "if", "import",
		"interface", "map", "package", "range", "select", "struct", "switch", "type", "var":
		return false
	}
	return true
}

// isWordByte reports whether c is in an identifier, a keyword or a
// number (a byte of a multi-byte letter counts: Go identifiers may hold
// any letter).
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}
