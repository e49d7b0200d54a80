package secrets

import (
	"encoding/base64"
	"strings"
)

// gitleaks decodes base64, hex, percent and unicode escapes before it
// runs the rules again (decodeDepth rounds). Finding what to decode is a
// regular expression over the whole text, with a capture group per
// encoding: a third of the gate's time on source code, where it almost
// never finds anything that decodes. mayDecode tells, in one pass, when
// that first round would decode nothing, so that the text can be scanned
// by a detector that does not decode, with the same findings.

// mayDecode reports whether gitleaks' first decoding round could decode
// something in text. It may say true when nothing decodes; it never says
// false when something does (FuzzMayDecode holds it to gitleaks' decoder).
//
// Percent and unicode escapes decode whenever they match, so any text
// that could hold one may decode. Otherwise only hex runs of 32 or more
// and base64 runs of 16 or more remain, and they are found as gitleaks'
// expression finds them (leftmost first: hex before base64 at the same
// place) and decoded as gitleaks decodes them.
func mayDecode(text string) bool {
	if mayEscape(text) {
		return true
	}
	for i := 0; i < len(text); {
		run := spanOf(text[i:], isBase64Byte)
		if run < 16 {
			i += run + 1 // no match starts in a run shorter than 16
			continue
		}
		if hx := spanOf(text[i:], isHexByte); hx >= 32 {
			if hexDecodes(text[i : i+hx]) {
				return true
			}
			i += hx
			continue
		}
		end := i + run
		for n := 0; n < 2 && end < len(text) && text[end] == '='; n++ {
			end++
		}
		if base64Decodes(text[i:end]) {
			return true
		}
		i = end
	}
	return false
}

// mayEscape reports whether text holds the start of a percent escape
// (%XX) or a unicode one (U+XXXX, \uXXXX, \UXXXX).
func mayEscape(text string) bool {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '%' && hexAt(text, i+1, 2):
			return true
		case c == '+' && i > 0 && text[i-1] == 'U' && hexAt(text, i+1, 4):
			return true
		case (c == 'u' || c == 'U') && i > 0 && text[i-1] == '\\' && hexAt(text, i+1, 4):
			return true
		}
	}
	return false
}

// hexAt reports whether text holds n hex digits from i.
func hexAt(text string, i, n int) bool {
	return i+n <= len(text) && spanOf(text[i:i+n], isHexByte) == n
}

// spanOf is the length of the run of bytes in set that starts text.
func spanOf(text string, in func(byte) bool) int {
	n := 0
	for n < len(text) && in(text[n]) {
		n++
	}
	return n
}

func isHexByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isBase64Byte is gitleaks' [\w\/+-].
func isBase64Byte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '/' || c == '+' || c == '-'
}

// hexDecodes is gitleaks' decodeHex returning something: an even number
// of digits, one of them 0–9, each pair a printable byte.
func hexDecodes(s string) bool {
	if len(s)%2 != 0 || !strings.ContainsAny(s, "0123456789") {
		return false
	}
	for i := 0; i < len(s); i += 2 {
		if !printable(hexValue(s[i])<<4 | hexValue(s[i+1])) {
			return false
		}
	}
	return true
}

func hexValue(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// base64Decodes is gitleaks' decodeBase64 returning something: one of
// 0–9 + / - _, and printable bytes decoded as standard or raw URL base64.
func base64Decodes(s string) bool {
	if !strings.ContainsAny(s, "0123456789+/-_") {
		return false
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && printableAll(b) {
			return true
		}
	}
	return false
}

// printable is gitleaks' printable ASCII: tab to '~'.
func printable(c byte) bool { return '\x08' < c && c < '\x7f' }

func printableAll(b []byte) bool {
	for _, c := range b {
		if !printable(c) {
			return false
		}
	}
	return true
}
