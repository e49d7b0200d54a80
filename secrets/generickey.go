package secrets

import "strings"

// genericRule is gitleaks' generic-api-key, the rule that costs most: its
// lazy `[\w.-]{0,50}?` start keeps Go's engine from skipping ahead, so it
// reads a text at about 4 MB/s wherever one of its keywords ("key",
// "token", "auth") is, which is nearly everywhere. It took 74 of the
// 96 ms the rules spent on the commit messages and paths of prometheus'
// last 1,000 commits.
const genericRule = "generic-api-key"

// genericRegex is the expression mayHoldGeneric was written for, as
// gitleaks v8.30.1 and strengthen leave it. Another one (a new gitleaks)
// turns the shortcut off: every text is then scanned by the full rules.
const genericRegex = `(?i)[\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)`

// genericWords are the words the expression must find, lower case, and
// the first letters they start with.
var genericWords = []string{"access", "auth", "api", "credential", "creds", "key", "passwd", "password", "secret", "token"}

// mayHoldGeneric reports whether genericRegex could match in text. Every
// match holds one of its words (ASCII letters in any case), then up to 20
// of [ \t\w.-], up to 3 of [\s'"], an assignment (=, >, :, ||, ?=, ",",
// at most 4 bytes), up to 5 of [\x60'"\s=] and a value of 10 or more
// bytes: a text where no word is followed so holds none, and needs no run
// of the expression. Outside ASCII, case folding lets the expression match
// two characters, the Kelvin sign (a k) and the long s (an s): a text with
// either may always hold a match; any other byte outside ASCII is in none
// of the expression's classes (TestGenericFoldsOutsideASCII), and breaks a
// match as a space would. (An outline's "…" is such a byte.)
func mayHoldGeneric(text string) bool {
	if foldsToASCII(text) {
		return true
	}
	found := false
	eachGenericWord(text, func(int, int) bool {
		found = true
		return false
	})
	return found
}

// genericBeforeValue is how many bytes of a match of genericRegex can lie
// between its word and its value: up to 20 of [ \t\w.-], 3 of [\s'"], an
// assignment of up to 4 and 5 of [\x60'"\s=]. Neither the value nor what
// comes before the word holds a newline; a newline may end the value.
const genericBeforeValue = 20 + 3 + 4 + 5

// genericRegions are the parts of text that hold every match of
// genericRegex: for each of its words that a value can follow (see
// mayHoldGeneric), from the start of the word's line to the end of the
// line genericBeforeValue bytes on (8 more for good measure). Each part is
// whole lines, so that the expression finds in the parts just what it
// finds in the whole text (its $ cannot match at the end of a part that a
// newline ends, where no value ends). A text with a character that folds
// into the expression's letters is one part.
func genericRegions(text string) []region {
	if foldsToASCII(text) {
		return []region{{0, len(text)}}
	}
	var out []region
	eachGenericWord(text, func(i, wordEnd int) bool {
		out = addLines(out, text, i, min(len(text), wordEnd+genericBeforeValue+8))
		return true
	})
	return out
}

// addLines adds to regions, in order, the whole lines from the one that
// holds from to the one that holds to (its newline included), joining a
// region that touches the last one.
func addLines(regions []region, text string, from, to int) []region {
	start := strings.LastIndexByte(text[:from], '\n') + 1
	end := afterNewlines(text, to, 1)
	if n := len(regions); n > 0 && start <= regions[n-1].end {
		regions[n-1].end = max(regions[n-1].end, end)
		return regions
	}
	return append(regions, region{start, end})
}

// afterNewlines is the offset just past the nth newline at or after from,
// or the text's end.
func afterNewlines(text string, from, n int) int {
	for ; n > 0; n-- {
		j := strings.IndexByte(text[from:], '\n')
		if j < 0 {
			return len(text)
		}
		from += j + 1
	}
	return from
}

// eachGenericWord calls fn with the offsets where each generic word that
// an assignment of a value can follow starts and ends, in order, until fn
// returns false.
func eachGenericWord(text string, fn func(start, end int) bool) {
	for i := 0; i < len(text); i++ {
		c := lowerASCII(text[i])
		if c != 'a' && c != 'c' && c != 'k' && c != 'p' && c != 's' && c != 't' {
			continue
		}
		for _, w := range genericWords {
			if w[0] == c && len(text)-i >= len(w) && equalFoldASCII(text[i:], w) && assignsAfter(text, i+len(w)) {
				if !fn(i, i+len(w)) {
					return
				}
				break
			}
		}
	}
}

// assignsAfter reports whether an assignment of a value can follow a
// generic word ending at end: up to 20 of [ \t\w.-], up to 3 of [\s'"],
// then one of = > : | ? , (the first bytes of the expression's
// assignments), and a value after it (see valueAfter).
func assignsAfter(text string, end int) bool {
	for j := end; j <= end+20 && j <= len(text); j++ {
		if j > end && !genericGap(text[j-1]) {
			break
		}
		for k := j; k <= j+3 && k < len(text); k++ {
			if k > j && !genericQuote(text[k-1]) {
				break
			}
			switch text[k] {
			case '=', '>', ':', '|', '?', ',':
				if valueAfter(text, k) {
					return true
				}
			}
		}
	}
	return false
}

// valueAfter reports whether a value can follow an assignment starting
// at op: the assignment ends 1 to 4 bytes on, then up to 5 of
// [\x60'"\s=], then 10 or more of [\w.=-], or an ASCII letter or digit
// and 11 or more of [a-zA-Z0-9+/].
func valueAfter(text string, op int) bool {
	for p := op + 1; p <= op+4 && p <= len(text); p++ {
		for q := p; q <= p+5 && q <= len(text); q++ {
			if q > p && !genericOpen(text[q-1]) {
				break
			}
			if runLen(text[q:], genericValue, 10) >= 10 || q < len(text) && isAlnum(text[q]) && runLen(text[q+1:], genericBase64, 11) >= 11 {
				return true
			}
		}
	}
	return false
}

// genericValue is [\w.=-].
func genericValue(c byte) bool { return c == '=' || c != ' ' && c != '\t' && genericGap(c) }

// genericBase64 is [a-zA-Z0-9+/] (the expression's [a-z0-9+/] in any case).
func genericBase64(c byte) bool {
	return c == '+' || c == '/' || '0' <= c && c <= '9' || 'a' <= lowerASCII(c) && lowerASCII(c) <= 'z'
}

// genericOpen is [\x60'"\s=].
func genericOpen(c byte) bool { return c == '`' || c == '=' || genericQuote(c) }

// genericGap is [ \t\w.-].
func genericGap(c byte) bool {
	return c == ' ' || c == '\t' || c == '_' || c == '.' || c == '-' ||
		'0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// genericQuote is [\s'"], \s being Go's [\t\n\f\r ].
func genericQuote(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '\'' || c == '"'
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// equalFoldASCII reports whether s starts with the lower-case word, ASCII
// letters in any case.
func equalFoldASCII(s, word string) bool {
	for i := 0; i < len(word); i++ {
		if lowerASCII(s[i]) != word[i] {
			return false
		}
	}
	return true
}
