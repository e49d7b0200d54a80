package pack

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizers of o200k_base and cl100k_base, written out by hand.
//
// A BPE tokenizer first splits text into pieces with a regular expression,
// then merges the bytes of each piece into tokens. tiktoken-go splits with
// regexp2, which decodes the text into runes and backtracks through seven
// alternatives at every piece: on source code that split is most of a
// count (about 2 MB a CPU-second). The functions below find the same
// pieces the expressions do, byte by byte. Each alternative is followed in
// the order regexp2 tries it, with the same backtracking, and the tests
// compare the pieces with regexp2's on real sources and under fuzzing
// (TestPretokenizersMatchRegexp, FuzzPretokenizers).
//
// o200k_base:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// cl100k_base:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// Both take valid UTF-8 only: regexp2 reads an invalid byte as U+FFFD, and
// its pieces are then not substrings of the text.

// charClass is the set of the expressions' classes a character is in.
type charClass uint8

const (
	clUpper   charClass = 1 << iota // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	clLower                         // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	clLetter                        // \p{L}
	clNumber                        // \p{N}
	clSpace                         // \s: unicode.IsSpace, as regexp2 has it
	clNewline                       // [\r\n]
	clNowhere                       // DEL: in no class (see classAt)
)

// classAt returns the class of the character at s[i] and its length.
func classAt(s string, i int) (charClass, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		switch {
		case 'a' <= c && c <= 'z':
			return clLower | clLetter, 1
		case 'A' <= c && c <= 'Z':
			return clUpper | clLetter, 1
		case '0' <= c && c <= '9':
			return clNumber, 1
		case c == '\n' || c == '\r':
			return clSpace | clNewline, 1
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			return clSpace, 1
		case c == 0x7f:
			// regexp2's generated matcher tests ASCII against bitmaps that
			// leave DEL out of [^\r\n\p{L}\p{N}] and [^\s\p{L}\p{N}], so no
			// alternative matches it and tiktoken-go counts no token for it.
			return clNowhere, 1
		}
		return 0, 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	var cl charClass
	switch {
	case unicode.Is(unicode.Lu, r), unicode.Is(unicode.Lt, r):
		cl = clUpper | clLetter
	case unicode.Is(unicode.Ll, r):
		cl = clLower | clLetter
	case unicode.Is(unicode.Lm, r), unicode.Is(unicode.Lo, r):
		cl = clUpper | clLower | clLetter
	case unicode.Is(unicode.M, r):
		cl = clUpper | clLower
	case unicode.Is(unicode.N, r):
		cl = clNumber
	}
	if unicode.IsSpace(r) {
		cl |= clSpace
	}
	return cl, n
}

// prefixable is [^\r\n\p{L}\p{N}]: a character that may lead a word.
func prefixable(c charClass) bool { return c&(clLetter|clNumber|clNewline|clNowhere) == 0 }

// other is [^\s\p{L}\p{N}]: punctuation, symbols and marks.
func other(c charClass) bool { return c&(clSpace|clLetter|clNumber|clNowhere) == 0 }

// runOf returns the end of the run of characters from i that have any of
// the classes in want.
func runOf(s string, i int, want charClass) int {
	for i < len(s) {
		c, n := classAt(s, i)
		if c&want == 0 {
			break
		}
		i += n
	}
	return i
}

// o200kPiece returns the end of the o200k_base piece that starts at s[i],
// or i if none does (the character is then skipped, as regexp2 does).
func o200kPiece(s string, i int) int {
	c, n := classAt(s, i)
	starts := [2]int{i + n, i} // with the optional prefix taken, then without
	first := 1
	if prefixable(c) {
		first = 0
	}
	for _, j := range starts[first:] {
		if end := upperThenLower(s, j); end > 0 {
			return contraction(s, end)
		}
	}
	for _, j := range starts[first:] {
		if end := runOf(s, j, clUpper); end > j {
			return contraction(s, runOf(s, end, clLower))
		}
	}
	if c&clNumber != 0 {
		return numbers(s, i)
	}
	if end := punctuation(s, i, true); end > 0 {
		return end
	}
	return spaces(s, i)
}

// upperThenLower matches [upper]*[lower]+ at s[j] the way a backtracking
// matcher does, and returns the end, or 0. The greedy upper run gives back
// characters one at a time until a lower one can start; a character given
// back that is in both sets (Lm, Lo, M) is then the whole lower run, since
// every character after it was tried first and is not lower.
func upperThenLower(s string, j int) int {
	if j >= len(s) {
		return 0
	}
	k := runOf(s, j, clUpper)
	if k < len(s) {
		if c, _ := classAt(s, k); c&clLower != 0 {
			return runOf(s, k, clLower)
		}
	}
	for k > j {
		r, n := utf8.DecodeLastRuneInString(s[j:k])
		k -= n
		if r < utf8.RuneSelf {
			continue // ASCII upper is never lower
		}
		if c, _ := classAt(s, k); c&clLower != 0 {
			return k + n
		}
	}
	return 0
}

// contraction extends a word by (?i:'s|'t|'re|'ve|'m|'ll|'d), if one
// follows at s[end]. regexp2 folds case the .NET way: 's' also matches
// 'ſ' (U+017F).
func contraction(s string, end int) int {
	if n := contractionAt(s, end); n > 0 {
		return end + n
	}
	return end
}

// contractionAt returns the length of the contraction at s[i], or 0.
func contractionAt(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return 0
	}
	lower := func(k int) byte {
		if k < len(s) {
			return s[k] | 0x20
		}
		return 0
	}
	switch lower(i + 1) {
	case 's', 't', 'm', 'd':
		return 2
	case 'r', 'v':
		if lower(i+2) == 'e' {
			return 3
		}
	case 'l':
		if lower(i+2) == 'l' {
			return 3
		}
	}
	if len(s) >= i+3 && s[i+1:i+3] == "ſ" {
		return 3
	}
	return 0
}

// numbers matches \p{N}{1,3} at s[i], which holds a number.
func numbers(s string, i int) int {
	for range 3 {
		if i >= len(s) {
			break
		}
		c, n := classAt(s, i)
		if c&clNumber == 0 {
			break
		}
		i += n
	}
	return i
}

// punctuation matches ` ?[^\s\p{L}\p{N}]+[\r\n]*` at s[i] (with slash,
// `[\r\n/]*`), every part atomic, and returns the end, or 0.
func punctuation(s string, i int, slash bool) int {
	j := i
	if s[j] == ' ' {
		j++
	}
	end := j
	for end < len(s) {
		c, n := classAt(s, end)
		if !other(c) {
			break
		}
		end += n
	}
	if end == j {
		return 0
	}
	for end < len(s) && (s[end] == '\r' || s[end] == '\n' || slash && s[end] == '/') {
		end++
	}
	return end
}

// spaces matches `\s*[\r\n]+|\s+(?!\S)|\s+` at s[i], and returns the
// end, or i: no piece starts at s[i].
func spaces(s string, i int) int {
	end := runOf(s, i, clSpace)
	if end == i {
		return i
	}
	// \s*[\r\n]+. A backtracking matcher gives the white space back to the
	// last line break of the run; regexp2's generated matcher (which
	// tiktoken-go uses, and whose counts these must equal) searches from
	// the run's start instead, and ends the piece after the first line
	// breaks.
	for k := i; k < end; k++ {
		if s[k] == '\n' || s[k] == '\r' {
			for k < end && (s[k] == '\n' || s[k] == '\r') {
				k++
			}
			return k
		}
	}
	if end == len(s) {
		return end // \s+(?!\S) at the end of the text
	}
	// \s+(?!\S): all but the last character, if that leaves any.
	_, last := utf8.DecodeLastRuneInString(s[i:end])
	if end-last > i {
		return end - last
	}
	return end // \s+
}

// cl100kPiece returns the end of the cl100k_base piece that starts at s[i],
// or i if none does.
func cl100kPiece(s string, i int) int {
	if n := contractionAt(s, i); n > 0 {
		return i + n
	}
	c, n := classAt(s, i)
	if prefixable(c) {
		if end := runOf(s, i+n, clLetter); i+n < len(s) && end > i+n {
			return end
		}
	}
	if c&clLetter != 0 {
		return runOf(s, i, clLetter)
	}
	if c&clNumber != 0 {
		return numbers(s, i)
	}
	if end := punctuation(s, i, false); end > 0 {
		return end
	}
	return spaces(s, i)
}
