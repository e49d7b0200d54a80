package secrets

import "strings"

// The password rules' word, "pass", is in nearly every Python file (the
// pass statement) and in many others ("bypass", "passes"), and their
// expressions read about as slowly as the generic rule's. Every match of
// either lies on one line and holds one of these anchors (ASCII letters
// in any case):
//   - "pass", then a run of [\w.-], at most one quote and one ], spaces or
//     tabs, and one of = : ! (the first byte of every assignment or
//     comparison they take) or > (an XML element's);
//   - "password", then a space, a tab or a literal \n, with nothing but
//     spaces or tabs before it on its line, or "login" at most
//     netrcReach bytes before it (netrc's password value);
//   - "pass", "pwd" or "secret", then a run of [\w.-], a quote, spaces or
//     tabs and a comma, after a ( at most argumentReach bytes before the
//     word (define('DB_PASSWORD', 'x'));
//   - "pwd=" (a connection string's);
//   - "proxy", then a run of [\w.-], at most one quote, spaces or tabs,
//     = or :, spaces or tabs, at most one quote, a user and a colon (a
//     proxy's user:password@host).
//
// passRegions are the lines that hold such an anchor; the rules alone are
// run there, and find there what they find in the whole text.

// mayHoldPass reports whether a text may hold a match of the password
// rules (see passRegions).
func mayHoldPass(text string) bool {
	if foldsToASCII(text) {
		return true
	}
	found := false
	eachPass(text, func(int) bool {
		found = true
		return false
	})
	return found
}

// passRegions are the whole lines of text that hold an anchor of the
// password rules (see mayHoldPass); a text with a character that folds
// into the expressions' letters is one region. Each region is whole
// lines, its newline included, so that ^, $ and \b read at its edges what
// they read in the whole text.
func passRegions(text string) []region {
	if foldsToASCII(text) {
		return []region{{0, len(text)}}
	}
	var out []region
	eachPass(text, func(i int) bool {
		out = addLines(out, text, i, i)
		return true
	})
	return out
}

// eachPass calls fn with the offset of each anchor of the password rules
// (see mayHoldPass), in order, until fn returns false.
func eachPass(text string, fn func(i int) bool) {
	for i := 0; i < len(text); i++ {
		// c is p or s for P, p, S and s alone: the first bytes of the anchors
		if c := text[i] | 0x20; (c == 'p' || c == 's') && anchorAt(text, i) && !fn(i) {
			return
		}
	}
}

// anchorAt reports whether an anchor of the password rules starts at i.
func anchorAt(text string, i int) bool {
	switch lowerASCII(text[i]) {
	case 'p':
		switch {
		case wordAt(text, i, "pass"):
			return assignsAfterPass(text, i+4) || netrcPasswordAt(text, i) || argumentAt(text, i, i+4)
		case wordAt(text, i, "pwd"):
			return i+3 < len(text) && text[i+3] == '=' || argumentAt(text, i, i+3)
		case wordAt(text, i, "proxy"):
			return assignsAfterProxy(text, i+5)
		}
	case 's':
		return wordAt(text, i, "secret") && argumentAt(text, i, i+6)
	}
	return false
}

// wordAt reports whether text holds the lower-case word at i, ASCII
// letters in any case.
func wordAt(text string, i int, word string) bool {
	return len(text)-i >= len(word) && equalFoldASCII(text[i:], word)
}

// skipName is the offset past the run of [\w.-] at j.
func skipName(text string, j int) int {
	for j < len(text) && (isWordOrDash(text[j]) || text[j] == '.') {
		j++
	}
	return j
}

// skipBlanks is the offset past the spaces and tabs at j.
func skipBlanks(text string, j int) int {
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	return j
}

func isQuote(c byte) bool { return c == '"' || c == '\'' }

// assignsAfterPass reports whether, from j on, text holds a run of
// [\w.-], at most one quote and one ], spaces or tabs, and one of
// = : ! >.
func assignsAfterPass(text string, j int) bool {
	j = skipName(text, j)
	if j < len(text) && isQuote(text[j]) {
		j++
	}
	if j < len(text) && text[j] == ']' {
		j++
	}
	j = skipBlanks(text, j)
	return j < len(text) && (text[j] == '=' || text[j] == ':' || text[j] == '!' || text[j] == '>')
}

// assignsAfterProxy reports whether, from j on, text holds a run of
// [\w.-], at most one quote, spaces or tabs, = or :, spaces or tabs, at
// most one quote, and a user and a colon.
func assignsAfterProxy(text string, j int) bool {
	j = skipName(text, j)
	if j < len(text) && isQuote(text[j]) {
		j++
	}
	if j = skipBlanks(text, j); j >= len(text) || text[j] != '=' && text[j] != ':' {
		return false
	}
	if j = skipBlanks(text, j+1); j < len(text) && isQuote(text[j]) {
		j++
	}
	user := j
	for j < len(text) && !strings.ContainsRune(" \t\n\r\f\v:/@'\"", rune(text[j])) {
		j++
	}
	return j > user && j < len(text) && text[j] == ':'
}

// argumentReach is how far before its word the ( of a quoted name passed
// first can be: the ( and a quote, up to 5 spaces or tabs, and up to 41
// characters of the name before the word (see passwordArgument).
const argumentReach = 2 + 5 + 41

// argumentAt reports whether the word from i to end can end a quoted
// name passed first to a function: a ( at most argumentReach bytes before
// it, and after it a run of [\w.-], a quote, spaces or tabs and a comma.
func argumentAt(text string, i, end int) bool {
	j := skipName(text, end)
	if j >= len(text) || !isQuote(text[j]) {
		return false
	}
	if j = skipBlanks(text, j+1); j >= len(text) || text[j] != ',' {
		return false
	}
	return strings.Contains(text[max(0, i-argumentReach):i], "(")
}

// netrcReach is how far before its password netrc's login can start:
// login and a user of 100 bytes, each followed by up to 10 separators
// of 2 bytes (see netrcPassword).
const netrcReach = 5 + 100 + 2*2*10

// netrcPasswordAt reports whether the "pass" at i starts a netrc
// password: "password" and a space, a tab or a literal \n after it, and
// before it nothing but spaces or tabs on its line or "login" at most
// netrcReach bytes back.
func netrcPasswordAt(text string, i int) bool {
	j := i + len("password")
	if !wordAt(text, i, "password") || j >= len(text) ||
		text[j] != ' ' && text[j] != '\t' && !strings.HasPrefix(text[j:], `\n`) {
		return false
	}
	k := i
	for k > 0 && (text[k-1] == ' ' || text[k-1] == '\t') {
		k--
	}
	if k == 0 || text[k-1] == '\n' {
		return true
	}
	return strings.Contains(text[max(0, i-netrcReach):i], "login")
}
