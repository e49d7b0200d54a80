package secrets

// The password rules' word, "pass", is in nearly every Python file (the
// pass statement) and in many others ("bypass", "passes"), and their
// expressions read about as slowly as the generic rule's. Every match of
// either lies on one line and holds "pass" (ASCII letters in any case),
// then a run of [\w.-], at most one quote, spaces or tabs, and one of
// = : ! (the first byte of every assignment or comparison they take) or
// > (an XML element's).
// passRegions are the lines that hold such a "pass"; the rules alone are
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

// passRegions are the whole lines of text that hold a "pass" an
// assignment can follow (see mayHoldPass); a text with a character that
// folds into the expressions' letters is one region. Each region is whole
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

// eachPass calls fn with the offset of each "pass" that an assignment can
// follow, in order, until fn returns false.
func eachPass(text string, fn func(i int) bool) {
	for i := 0; i+4 <= len(text); i++ {
		if c := text[i]; (c == 'p' || c == 'P') && equalFoldASCII(text[i:], "pass") && assignsAfterPass(text, i+4) && !fn(i) {
			return
		}
	}
}

// assignsAfterPass reports whether, from j on, text holds a run of
// [\w.-], at most one quote, spaces or tabs, and one of = : ! >.
func assignsAfterPass(text string, j int) bool {
	for j < len(text) && (isWordOrDash(text[j]) || text[j] == '.') {
		j++
	}
	if j < len(text) && (text[j] == '"' || text[j] == '\'') {
		j++
	}
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	return j < len(text) && (text[j] == '=' || text[j] == ':' || text[j] == '!' || text[j] == '>')
}
