package neighbours

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// keywordRegexp is an import pattern that starts with a keyword: at the
// start of a line after blanks ("(?m)^[ \t]*use …") or at the start of a
// word ("\b(?:require|include)…"). The regexp package has no literal to
// skip to in such a pattern and tries it at every byte: laravel's 2,800
// PHP files' heads took 0.25 s a pattern, most of a pack's time. A
// keywordRegexp tries the pattern, anchored, only where a keyword starts
// a line or a word, and finds the same matches as the pattern does
// (FuzzKeywordRegexp holds it to that).
type keywordRegexp struct {
	pattern  string         // as written
	anchored *regexp.Regexp // the pattern, anchored at the text's start
	keywords [][]byte       // a match starts with one of them (after the line's blanks)
	atLine   bool           // a match starts a line; else a word
}

// mustKeywordRegexp compiles pattern, which must begin "(?m)^[ \t]*" (a
// match starts a line) or "\b" (a word), followed by one of keywords.
func mustKeywordRegexp(pattern string, keywords ...string) *keywordRegexp {
	k := &keywordRegexp{pattern: pattern}
	switch {
	case strings.HasPrefix(pattern, `(?m)^[ \t]*`):
		k.atLine = true
		k.anchored = regexp.MustCompile(`(?m)\A` + strings.TrimPrefix(pattern, `(?m)^`))
	case strings.HasPrefix(pattern, `(?m)\b`):
		k.anchored = regexp.MustCompile(`(?m)\A` + strings.TrimPrefix(pattern, `(?m)\b`))
	default:
		panic(fmt.Sprintf("keywordRegexp: %q starts neither a line nor a word", pattern))
	}
	for _, w := range keywords {
		k.keywords = append(k.keywords, []byte(w))
	}
	return k
}

// FindAllSubmatch is regexp.Regexp's: the successive non-overlapping
// matches (at most n; all for n < 0), leftmost first, each with its groups
// (nil for a group that took no part).
func (k *keywordRegexp) FindAllSubmatch(text []byte, n int) [][][]byte {
	var out [][][]byte
	seen := make([]int, len(k.keywords))
	for j := range seen {
		seen[j] = -2 // not yet searched
	}
	for at := 0; at < len(text) && (n < 0 || len(out) < n); {
		start, ok := k.next(text, at, seen)
		if !ok {
			break
		}
		m := k.anchored.FindSubmatchIndex(text[start:])
		if m == nil {
			at = start + 1
			continue
		}
		groups := make([][]byte, len(m)/2)
		for g := range groups {
			if m[2*g] >= 0 {
				groups[g] = text[start+m[2*g] : start+m[2*g+1] : start+m[2*g+1]]
			}
		}
		out = append(out, groups)
		at = start + max(m[1], 1) // none of the patterns matches empty text
	}
	return out
}

// next returns the first place at or after at where a match may start: a
// line's start (a keyword after its blanks), or a keyword that starts a
// word.
func (k *keywordRegexp) next(text []byte, at int, seen []int) (int, bool) {
	if k.atLine {
		return k.nextLine(text, at)
	}
	return k.nextWord(text, at, seen)
}

func (k *keywordRegexp) nextLine(text []byte, at int) (int, bool) {
	for ls := at; ls < len(text); {
		if ls == 0 || text[ls-1] == '\n' {
			i := ls
			for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
				i++
			}
			if k.keywordAt(text[i:]) {
				return ls, true
			}
		}
		nl := bytes.IndexByte(text[ls:], '\n')
		if nl < 0 {
			break
		}
		ls += nl + 1
	}
	return 0, false
}

// nextWord finds the nearest keyword at or after at that starts a word.
// seen holds, for each keyword, the place it was last found (-1: nowhere
// after; -2, or below at: to be searched for), so that a text is read once
// for each keyword.
func (k *keywordRegexp) nextWord(text []byte, at int, seen []int) (int, bool) {
	for at < len(text) {
		i := -1 // the nearest keyword
		for j, w := range k.keywords {
			if seen[j] == -2 || seen[j] >= 0 && seen[j] < at {
				if found := bytes.Index(text[at:], w); found >= 0 {
					seen[j] = at + found
				} else {
					seen[j] = -1
				}
			}
			if seen[j] >= 0 && (i < 0 || seen[j] < i) {
				i = seen[j]
			}
		}
		if i < 0 {
			break
		}
		if i == 0 || !isWordByte(text[i-1]) {
			return i, true
		}
		at = i + 1
	}
	return 0, false
}

func (k *keywordRegexp) keywordAt(text []byte) bool {
	for _, w := range k.keywords {
		if bytes.HasPrefix(text, w) {
			return true
		}
	}
	return false
}
