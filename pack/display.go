package pack

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// displayPath shows a path in the text of a pack. A name with control
// characters (a newline, a tab, an escape sequence), invisible or
// direction-changing characters, invalid UTF-8 or surrounding spaces is
// shown Go-quoted, so that it can neither break the layout nor hide what
// it is; any other name is shown as it is.
func displayPath(p string) string {
	if needsQuote(p) {
		return strconv.Quote(p)
	}
	return p
}

// displayName is displayPath for one path element.
func displayName(name string) string { return displayPath(name) }

func needsQuote(s string) bool {
	if s == "" || !utf8.ValidString(s) || strings.TrimSpace(s) != s || strings.HasPrefix(s, `"`) {
		return true
	}
	return strings.IndexFunc(s, func(r rune) bool { return !strconv.IsPrint(r) }) >= 0
}

// inlineCode wraps s in enough backticks that none inside can close it.
func inlineCode(s string) string {
	s = displayPath(s)
	f := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return f + " " + s + " " + f
	}
	return f + s + f
}

// tableCell makes text safe inside a markdown table cell.
func tableCell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// cleanText prepares decoded text for a pack: NUL bytes, which no pack may
// hold, become the visible symbol ␀.
func cleanText(s string) string {
	if strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ReplaceAll(s, "\x00", "\u2400")
}

// visibleControls replaces control characters other than tab, newline and
// carriage return with their visible symbols (ESC becomes ␛), for formats
// and terminals where a raw control character must not appear.
func visibleControls(s string) string {
	if strings.IndexFunc(s, isHiddenControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 0x7f:
			b.WriteRune('\u2421')
		case r < 0x20 && isHiddenControl(r):
			b.WriteRune(0x2400 + r)
		case isHiddenControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isHiddenControl(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case r < 0x20 || r == 0x7f:
		return true
	case 0x80 <= r && r < 0xa0: // C1 controls
		return true
	case r == 0xfffe || r == 0xffff:
		return true
	}
	return false
}

// thousands formats n with thousands separators: 128000 → "128,000".
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}
