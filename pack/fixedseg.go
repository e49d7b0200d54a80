package pack

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// chunkBytes is about how large a part of the pack other than the files
// (its index, its tree) is cut into segments: each segment goes through the
// gate on a core of its own, and the index of a large change is over 200 KB.
const chunkBytes = 16 << 10

// fixedSegments makes the segments of a part other than the files, cut
// into chunks of about chunkBytes at line starts where a segment may begin
// (see segment): the gate then checks them on every core, and a re-render
// that changes a few rows checks and counts only their chunks again. What
// crosses from one chunk into the next is checked with the other joins of
// the pack (rescanBoundaries).
func (s *shaper) fixedSegments(key, text string) []*segment {
	var out []*segment
	for text != "" {
		cut := chunkEnd(text, chunkBytes)
		out = append(out, s.fixedSegment(key, text[:cut]))
		text = text[cut:]
	}
	return out
}

// chunkEnd is where the first chunk of text ends: after the first newline
// at or past size that is followed by a character a segment may start with,
// or the end of the text.
func chunkEnd(text string, size int) int {
	for from := size; from < len(text); {
		i := strings.IndexByte(text[from:], '\n')
		if i < 0 {
			break
		}
		next := from + i + 1
		if next < len(text) && segmentStart(text[next:]) {
			return next
		}
		from = next
	}
	return len(text)
}

// segmentStart reports whether a segment may start with text: not with
// white space or '/', which tiktoken's pre-tokenizer could join to what
// comes before.
func segmentStart(text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	return r != '/' && !unicode.IsSpace(r)
}

// fixedSegment makes a segment of a part other than the files. Its text is
// built from what already went through the gate; when it is gated, each
// placeholder in it becomes an item attributed to where it came from. A
// text rendered before (the manifest, the change, rows of the index) reuses
// that segment's gated text and count.
func (s *shaper) fixedSegment(key, text string) *segment {
	k := key + "\x00" + text
	if m := s.memo[k]; m != nil && m.gated && m.tokens >= 0 {
		c := *m
		return &c
	}
	seg := newSegment(key, text)
	seg.where = key
	if s.memo == nil {
		s.memo = map[string]*segment{}
	}
	s.memo[k] = seg
	return seg
}
