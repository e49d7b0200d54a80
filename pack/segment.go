package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gitctx/gitctx/secrets"
)

// segment is one piece of a rendered pack. Every segment ends with a
// newline and begins with a character that is neither white space nor '/'.
// tiktoken's pre-tokenizer (o200k_base and cl100k_base alike) can then
// never join the end of one segment with the start of the next, so the
// token count of a whole pack is exactly the sum of its segments' counts:
// each segment is counted once, and a re-render after degrading one file
// recounts only that file.
//
// A segment is rendered as raw text and goes through the secrets gate
// before it is counted: only the gate makes its final text (a
// secrets.Text), and only final text is ever joined into a pack.
type segment struct {
	key    string
	raw    string       // as rendered
	text   secrets.Text // raw through the gate; set when gated
	gated  bool
	tokens int             // -1 until counted
	items  []RedactionItem // one per placeholder in text
	where  string          // what the segment shows, for messages: a path or a part's name
	path   string          // the file a file's segment shows
	refs   []lineRef       // for each line of raw, where it comes from (nil: unknown)
	diff   bool            // a diff: each line starts with its +, - or space
	framed *framing        // raw is gated text in a frame; nil: raw is to be checked whole
}

// framing splits a segment's raw text into a body the gate has checked
// whole already (an outline) and the frame rendered around it. Only the
// frame and its seams with the body need checking again.
type framing struct {
	before string
	body   secrets.Text
	after  string
}

// lineRef says which line of which side of a file a rendered line shows.
type lineRef struct {
	side string // new, old or context; "" for a line gitctx wrote
	n    int
}

func newSegment(key, raw string) *segment {
	return &segment{key: key, raw: raw, tokens: -1}
}

// str is the segment's text: final once gated, raw before (for estimates).
func (s *segment) str() string {
	if s.gated {
		return s.text.String()
	}
	return s.raw
}

// valid reports whether the segment keeps counts additive.
func (s *segment) valid() bool {
	t := s.str()
	if t == "" || !strings.HasSuffix(t, "\n") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t)
	return r != '/' && !unicode.IsSpace(r)
}

// join concatenates segments into the pack's text. Every segment must have
// been through the gate.
func join(segs []*segment) string {
	n := 0
	for _, s := range segs {
		n += len(s.str())
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range segs {
		if !s.gated {
			panic("pack: a segment was joined without going through the secrets gate: " + s.where)
		}
		b.WriteString(s.text.String())
	}
	return b.String()
}

// sumTokens adds up counted segments.
func sumTokens(segs []*segment) int {
	n := 0
	for _, s := range segs {
		n += s.tokens
	}
	return n
}

// fence returns a code fence longer than any run of backticks in text, so
// that nothing inside can close it.
func fence(text string) string {
	return strings.Repeat("`", max(3, longestRun(text, '`')+1))
}

// boundaryPrefix starts every boundary marker. It is kept away from words
// like "key" or "token" so that the marker never looks like a credential.
const boundaryPrefix = "gitctx-boundary-"

// boundary derives the marker that fences the untrusted part of a pack from
// a hash of that part: deterministic for the same input, unpredictable to
// anyone writing the content, and checked to occur nowhere in it.
func boundary(body []*segment) string {
	h := sha256.New()
	for _, s := range body {
		h.Write([]byte(s.str()))
	}
	sum := h.Sum(nil)
	for salt := 0; ; salt++ {
		if salt > 0 {
			next := sha256.Sum256(append(sum, []byte(strconv.Itoa(salt))...))
			sum = next[:]
		}
		token := boundaryPrefix + hex.EncodeToString(sum[:16])
		if !containsAny(body, token) {
			return token
		}
	}
}

func containsAny(segs []*segment, s string) bool {
	for _, seg := range segs {
		if strings.Contains(seg.str(), s) {
			return true
		}
	}
	return false
}
