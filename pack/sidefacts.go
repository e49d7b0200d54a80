package pack

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/secrets"
)

// sideFacts is what fileImage asks of a side's text: its lines (found
// once, for agrees too), and whether it holds what the rules that match
// across lines look for.
type sideFacts struct {
	lines   sideLines
	keys    bool // a private key's first line (keyMarker, puttyKeyMarker)
	context bool // see needsContext
}

// keyMarker starts a private key block; puttyKeyMarker a PuTTY key's
// private lines (which end at its Private-MAC: line).
const (
	keyMarker      = "-----BEGIN"
	puttyKeyMarker = "Private-Lines:"
)

// needsContext reports whether a text holds what gitleaks' rules that
// match across lines look for: a Kubernetes Secret, a curl command.
func needsContext(text string) bool {
	return (containsFold(text, "kind:") && containsFold(text, "secret")) || containsFold(text, "curl")
}

// containsFold reports whether text holds word (lower-case ASCII) in any
// case, as strings.Contains(strings.ToLower(text), word) does, without
// lowering a copy of the whole text. It looks for the word's rarest
// letter in either case with strings.IndexByte, which scans many bytes at
// a time, and compares the word around each. A text with one of the two
// characters outside ASCII that lower to an ASCII letter (İ to i, the
// Kelvin sign to k) takes the slow way.
func containsFold(text, word string) bool {
	if strings.Contains(text, "\u0130") || strings.Contains(text, "\u212a") {
		return strings.Contains(strings.ToLower(text), word)
	}
	if len(text) < len(word) {
		return false
	}
	a := rarest(word)
	lower, upper := word[a], word[a]
	if 'a' <= lower && lower <= 'z' {
		upper = lower - 'a' + 'A'
	}
	next := [2]int{-1, -1} // the next lower and upper anchor (len(text): none); below from: look again
	for from := a; ; {
		for k, c := range [2]byte{lower, upper} {
			if next[k] < from {
				i := strings.IndexByte(text[from:], c)
				next[k] = len(text)
				if i >= 0 {
					next[k] = from + i
				}
			}
		}
		at := min(next[0], next[1])
		if at+len(word)-a > len(text) {
			return false
		}
		if equalFoldASCII(text[at-a:at-a+len(word)], word) {
			return true
		}
		from = at + 1
	}
}

// rarest is the index of the letter of word least common in English text
// (the word's first byte if it has no letter).
func rarest(word string) int {
	const byFrequency = "etaoinshrdlcumwfgypbvkjxqz"
	best, rank := 0, -1
	for i := 0; i < len(word); i++ {
		if r := strings.IndexByte(byFrequency, word[i]); r > rank {
			best, rank = i, r
		}
	}
	return best
}

// equalFoldASCII reports whether s, lowered, is word (lower-case ASCII).
func equalFoldASCII(s, word string) bool {
	for i := 0; i < len(word); i++ {
		if lowerASCII(s[i]) != word[i] {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// factsFor finds the facts of one side of e, text, with what the rules
// across lines look for in it kept in the count cache by the git object
// the side was read from: finding the words took 12 ms of the CPU of a warm run
// over prometheus' last 100 commits, most of it looking for "curl" in
// code, where a u is met every few dozen bytes. A side of no object (a
// file of the work tree) is looked at each time.
func (b *builder) factsFor(e *entry, old bool, text string) sideFacts {
	obj := b.objectOf(e, old)
	keys, context, ok := b.opts.Counts.facts(obj, len(text))
	if !ok {
		keys, context = strings.Contains(text, keyMarker) || strings.Contains(text, puttyKeyMarker), needsContext(text)
		b.opts.Counts.putFacts(obj, len(text), keys, context)
	}
	return sideFacts{lines: splitSide(text), keys: keys, context: context}
}

// factsVariant names how a side's facts are found (the marker and the
// words factsFor looks for): change it whenever that changes.
const factsVariant = "gitctx-side-facts-2"

func factsKey(obj secrets.Object) countKey {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", factsVariant, obj.ID, obj.Variant)
	var k countKey
	copy(k[:], h.Sum(nil))
	return k
}

// facts returns the facts kept for a side of n bytes read from obj.
func (c *CountCache) facts(obj secrets.Object, n int) (keys, context, ok bool) {
	if c == nil || obj.ID == "" {
		return false, false, false
	}
	bits, ok := c.get(factsKey(obj), n)
	return bits&1 != 0, bits&2 != 0, ok
}

// putFacts keeps the facts of a side of n bytes read from obj.
func (c *CountCache) putFacts(obj secrets.Object, n int, keys, context bool) {
	if c == nil || obj.ID == "" {
		return
	}
	bits := 0
	if keys {
		bits |= 1
	}
	if context {
		bits |= 2
	}
	c.put(factsKey(obj), n, bits)
}
