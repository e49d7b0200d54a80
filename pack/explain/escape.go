package explain

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// visible makes repository text safe to show on one line: control
// characters become their visible symbols (ESC is ␛, a newline ␊), other
// invisible or direction-changing characters (U+200B, U+202E …) and
// invalid bytes become Go escapes, so a file name can neither move the
// cursor, set a window title nor hide what it is.
func visible(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return !strconv.IsPrint(r) || r == utf8.RuneError }) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('\u2421')
		case !strconv.IsPrint(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// mdText is repository text as literal markdown on one line: the
// characters that would make it HTML, a link or an image, emphasis, the
// end of a table cell or a mention are escaped.
func mdText(s string) string {
	return strings.NewReplacer(
		"&", "&amp;", "<", "&lt;", ">", "&gt;",
		`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "~", `\~`, "|", `\|`,
		"@", "@\u200b",
	).Replace(visible(s))
}

// mdCode shows repository text (a file name) as inline code: a fence no
// backtick run inside can close, on one line; in a table cell the pipes
// are escaped so the cell cannot end early. Inline code is never HTML
// and never mentions anyone.
func mdCode(s string, cell bool) string {
	s = visible(s)
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || (strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ")) {
		s = " " + s + " "
	}
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return fence + s + fence
}
