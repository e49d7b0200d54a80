package pack

import (
	"strings"
)

// Bounds of a lock file's excerpt.
const (
	maxEntryLines     = 40  // an entry shows at most this many lines
	entryHead         = 3   // a longer entry named in its first lines shows its first maxEntryLines
	maxEntryLineBytes = 160 // an entry shows no line longer than this but the one that names the package
	maxFocusedLines   = 400 // an excerpt keeps at most this many lines
)

// focusLines returns the numbers (1-based, ascending) of the lines of a
// lock file that are about one of names: each line that names one, as a
// whole name, with the lines indented below it (a package-lock.json or
// pnpm-lock.yaml entry); in a lock made of entries set apart by blank
// lines (Cargo.lock, uv.lock, yarn.lock), the entry, or a long entry's
// first maxEntryLines when it is named in its first lines, without its
// lines over maxEntryLineBytes. It never returns more than
// maxFocusedLines lines.
func focusLines(text string, names []string) []int {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" || len(names) == 0 {
		return []int{}
	}
	keep := make([]bool, len(lines))
	json := strings.HasPrefix(strings.TrimSpace(text), "{") // one object: its entries are nested, not set apart
	for start := 0; start < len(lines); {
		end := start
		for end < len(lines) && strings.TrimSpace(lines[end]) != "" {
			end++
		}
		entries := !json && end-start < len(lines) // entries set apart by blank lines
		for i := start; i < end; i++ {
			if !namesAny(lines[i], names) {
				continue
			}
			switch {
			case entries && (end-start <= maxEntryLines || i-start < entryHead):
				// the entry, or a long one's head, without its long lines:
				// uv.lock's wheels and sdist, a URL and a digest each
				for j := start; j < min(end, start+maxEntryLines); j++ {
					keep[j] = keep[j] || len(lines[j]) <= maxEntryLineBytes || j == i
				}
			default:
				keepIndented(lines, keep, i, end)
			}
		}
		start = end + 1
	}
	out := []int{}
	for i, k := range keep {
		if k && len(out) < maxFocusedLines {
			out = append(out, i+1)
		}
	}
	return out
}

// keepIndented keeps line i and the lines below it, before end, that are
// indented deeper, and the line that closes them at i's own indentation
// (a JSON object's brace), at most maxEntryLines in all.
func keepIndented(lines []string, keep []bool, i, end int) {
	depth := indent(lines[i])
	keep[i] = true
	for j := i + 1; j < end && j-i < maxEntryLines; j++ {
		d := indent(lines[j])
		if d <= depth {
			if t := strings.TrimSpace(lines[j]); d == depth && t != "" && strings.ContainsRune("}])", rune(t[0])) {
				keep[j] = true
			}
			return
		}
		keep[j] = true
	}
}

func indent(s string) int {
	return len(s) - len(strings.TrimLeft(s, " \t"))
}

// namesAny reports whether line names one of names as a whole name: not
// inside a longer name (golang.org/x/net is not in golang.org/x/net/v2,
// nor lodash in lodash.merge), though after a slash (node_modules/lodash)
// and before an @ and a version (lodash@^4.17.21).
func namesAny(line string, names []string) bool {
	for _, n := range names {
		if holdsWhole(line, n, inNameBefore, inNameAfter) {
			return true
		}
	}
	return false
}

// holdsWhole reports whether s holds name with no byte of a longer name
// right before it or right after it, as inBefore and inAfter tell them.
func holdsWhole(s, name string, inBefore, inAfter func(byte) bool) bool {
	if name == "" {
		return false
	}
	for from := 0; ; {
		i := strings.Index(s[from:], name)
		if i < 0 {
			return false
		}
		i += from
		j := i + len(name)
		if (i == 0 || !inBefore(s[i-1])) && (j == len(s) || !inAfter(s[j])) {
			return true
		}
		from = i + 1
	}
}

func inNameBefore(c byte) bool { return isWordByte(c) || c == '.' || c == '-' || c == '@' }
func inNameAfter(c byte) bool  { return isWordByte(c) || c == '.' || c == '-' || c == '/' }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
