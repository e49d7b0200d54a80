package pack

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gitctx/gitctx/secrets"
)

// Format is a pack's output format.
type Format string

// The formats gitctx writes.
const (
	Markdown Format = "markdown"
	XML      Format = "xml"
	JSON     Format = "json"
)

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case Markdown, XML, JSON:
		return Format(s), nil
	case "md":
		return Markdown, nil
	}
	return "", fmt.Errorf("unknown format %q (use markdown, xml or json)", s)
}

// Ext is the file extension of the format.
func (f Format) Ext() string {
	switch f {
	case XML:
		return "xml"
	case JSON:
		return "json"
	}
	return "md"
}

// renderer writes the parts of a pack in one format. Every method returns
// whole segments (see segment): text ending in a newline and starting with
// neither white space nor '/'; "" means the part has no text in this
// format.
type renderer interface {
	head(v *view) string
	manifest(v *view) string
	change(v *view) string
	focus(v *view) string // key files and risk hotspots, in a Summary pack
	index(v *view) string
	tree(v *view, paths []string) string
	diffStart(v *view) string
	diff(e *entry, text string, first bool) string
	diffEnd(v *view) string
	contentsStart(v *view) string
	content(e *entry, text string, first bool) string
	contentsEnd(v *view) string
	tail(v *view) string
	// positional reports whether an element's text depends on whether it
	// comes first in its part (a separator before all but the first).
	positional() bool
	// bodyLine is the line of a file's segment on which the file's lines
	// start, each on its own line; -1 when they are not laid out line for
	// line (JSON strings).
	bodyLine() int
}

// fileSegment makes a file's segment and notes which line of the file
// each of its lines shows, so that what the gate finds in it is recorded
// against the right line.
func fileSegment(key, raw string, e *entry, items []RedactionItem, refs []lineRef, at int) *segment {
	seg := newSegment(key, raw)
	seg.items, seg.where, seg.path = items, e.label.String(), e.label.String()
	if at >= 0 {
		seg.refs = append(make([]lineRef, at), refs...)
	}
	return seg
}

func rendererFor(f Format) renderer {
	switch f {
	case XML:
		return xmlFormat{}
	case JSON:
		return jsonFormat{}
	}
	return markdown{}
}

// fileSegments renders the Diff and Contents parts: a segment per file,
// kept on its entry and reused until the entry is shaped again.
func fileSegments(v *view, r renderer) []*segment {
	var segs []*segment
	add := func(key, text string) {
		if text != "" {
			segs = append(segs, newSegment(key, text))
		}
	}
	shown := v.shown()
	first := true
	for _, e := range shown {
		if !e.showsDiff() {
			continue
		}
		if first {
			add("diff", r.diffStart(v))
		}
		renderDiff(e, r, first)
		segs = append(segs, e.diffSeg)
		first = false
	}
	if !first {
		add("diff-end", r.diffEnd(v))
	}
	first = true
	for _, e := range shown {
		if e.showContent == "" {
			continue
		}
		if first {
			add("contents", r.contentsStart(v))
		}
		renderContent(e, r, first)
		segs = append(segs, e.contentSeg)
		first = false
	}
	if !first {
		add("contents-end", r.contentsEnd(v))
	}
	return segs
}

// renderEntry renders the segments an entry shows, unless they are kept
// from before (first: see renderDiff).
func renderEntry(e *entry, r renderer, first bool) {
	renderDiff(e, r, first)
	renderContent(e, r, first)
}

// renderDiff renders an entry's diff segment unless it is kept from
// before. first says whether the entry comes first in its part, which
// matters to formats with separators between elements.
func renderDiff(e *entry, r renderer, first bool) {
	if !e.showsDiff() {
		e.diffSeg = nil
		return
	}
	first = first && r.positional()
	key := fmt.Sprintf("diff:%d:%d:%t", e.diffContext, e.diffCap, first)
	if e.diffSeg == nil || e.diffSeg.key != key {
		text, items, refs := e.diffText()
		e.diffSeg = fileSegment(key, r.diff(e, text, first), e, items, refs, r.bodyLine())
		e.diffSeg.diff = true
	}
}

// renderContent is renderDiff for the content segment.
func renderContent(e *entry, r renderer, first bool) {
	if e.showContent == "" {
		e.contentSeg = nil
		return
	}
	first = first && r.positional()
	key := fmt.Sprintf("content:%s:%t", e.showContent, first)
	if e.contentSeg == nil || e.contentSeg.key != key {
		text, items, refs := e.contentText()
		raw := r.content(e, text, first)
		e.contentSeg = fileSegment(key, raw, e, items, refs, r.bodyLine())
		if i := strings.Index(raw, text); e.showContent == RepOutline && text != "" && i >= 0 {
			// The outline went through the gate whole (makeOutline); a
			// format that writes it as is leaves only its frame to check.
			e.contentSeg.framed = &framing{raw[:i], e.red.outline.text, raw[i+len(text):]}
		}
	}
}

// line is one rendered line, the placeholders put on it ahead of
// rendering, and where it comes from.
type line struct {
	op     byte // a diff line's +, - or space, written before text; 0: none
	text   string
	digest bool // a lock file's line that held a digest (see collapseLikeLines)
	items  []RedactionItem
	ref    lineRef
}

// diffText renders an entry's diff as its shaping asks for, from the
// sides the gate redacted, with one item per placeholder.
func (e *entry) diffText() (string, []RedactionItem, []lineRef) {
	hunks := e.patch.Hunks
	e.shortened = false
	if e.diffContext < 3 {
		hunks = withContext(hunks, e.diffContext)
	}
	var lines []line
	for _, h := range hunks {
		header := line{text: "@@ -" + rangeText(h.OldStart, h.OldLines) + " +" + rangeText(h.NewStart, h.NewLines) + " @@"}
		if h.Section != "" {
			sec := e.red.sections[h.Section]
			header.text += " " + sec.text.String()
			header.items = e.items(sec.hits, "context", h.OldStart)
		}
		lines = append(lines, header)
		for l := range hunkLines(h) {
			img, n, side := e.red.newDiff, l.newNo, "new"
			switch l.Op {
			case '-':
				img, n, side = e.red.oldDiff, l.oldNo, "old"
			case ' ':
				side = "context"
			}
			text, hits, ok := img.line(n)
			out := line{op: l.Op, text: text, items: e.items(hits, side, n), ref: lineRef{side, n}}
			if e.generated == genLock {
				out.text, out.digest = shortenDigests(text)
				e.shortened = e.shortened || out.digest
			}
			if !ok {
				out.text, out.digest = "[gitctx: line withheld: it could not be checked for credentials]", false
			}
			lines = append(lines, out)
			if l.NoNewline {
				lines = append(lines, line{text: `\ No newline at end of file`})
			}
		}
	}
	if e.generated == genLock {
		lines = collapseLikeLines(lines)
	}
	if e.diffCap > 0 && len(lines) > e.diffCap {
		head := e.diffCap * 2 / 3
		tail := e.diffCap - head
		marker := line{text: fmt.Sprintf("... [gitctx: %d diff lines omitted here to fit the token budget] ...", len(lines)-head-tail)}
		lines = append(append(append([]line{}, lines[:head]...), marker), lines[len(lines)-tail:]...)
	}
	return joinLines(lines)
}

// contentText renders what an entry shows of its content, from the text
// the gate redacted.
func (e *entry) contentText() (string, []RedactionItem, []lineRef) {
	img := e.red.newWhole
	e.shortened = false
	if e.showContent == RepOutline {
		return e.red.outline.text.String(), e.items(e.red.outline.hits, "new", 0), nil
	}
	if img == nil || img.count == 0 {
		return "[gitctx: the content could not be read again]\n", nil, nil
	}
	var numbers []int
	if e.showContent == RepTruncated {
		numbers = e.truncatedLines(img.count)
	} else {
		numbers = make([]int, img.count)
		for i := range numbers {
			numbers[i] = i + 1
		}
	}
	var lines []line
	omitted := 0
	eachShown(numbers, img.count, func(n, left int) {
		if left > 0 {
			omitted += left
			lines = append(lines, line{text: e.omittedMarker(left)})
		}
		if n == 0 {
			return
		}
		t, hits, ok := img.line(n)
		if !ok {
			lines = append(lines, line{text: "[gitctx: line withheld: it could not be checked for credentials]"})
			return
		}
		if e.lock || e.generated == genLock {
			var cut bool
			t, cut = shortenDigests(t)
			e.shortened = e.shortened || cut
		}
		lines = append(lines, line{text: t, items: e.items(hits, "new", n), ref: lineRef{"new", n}})
	})
	text, items, refs := joinLines(lines)
	if omitted == 0 && e.noFinalNL {
		// verbatim: no newline the file does not have (an empty file is empty)
		text = strings.TrimSuffix(text, "\n")
	}
	return text, items, refs
}

// omittedMarker stands for the lines a truncated content leaves out, and
// says why: the token budget, or a file too large to show whole in any
// pack.
func (e *entry) omittedMarker(omitted int) string {
	if e.lock {
		return fmt.Sprintf("... [gitctx: %d line%s omitted here: the lock is cut to the changed packages' entries] ...", omitted, plural(omitted))
	}
	if e.oversize {
		return fmt.Sprintf("... [gitctx: %d line%s omitted here: the file is %s bytes, over the %s-byte limit for whole files] ...",
			omitted, plural(omitted), thousands(e.contentBytes), thousands(int(e.trunc.MaxFileBytes)))
	}
	return fmt.Sprintf("... [gitctx: %d line%s omitted here to fit the token budget] ...", omitted, plural(omitted))
}

// items turns the placeholders on one line into record items.
func (e *entry) items(hits []secrets.Hit, side string, n int) []RedactionItem {
	var out []RedactionItem
	for _, h := range hits {
		out = append(out, RedactionItem{Path: e.label.String(), Side: side, Line: n, Rule: ruleOf(h.Placeholder), Placeholder: h.Placeholder})
	}
	return out
}

func joinLines(lines []line) (string, []RedactionItem, []lineRef) {
	size := 0
	for _, l := range lines {
		size += len(l.text) + 2
	}
	var b strings.Builder
	b.Grow(size)
	var items []RedactionItem
	refs := make([]lineRef, len(lines))
	for i, l := range lines {
		if l.op != 0 {
			b.WriteByte(l.op)
		}
		b.WriteString(l.text)
		b.WriteByte('\n')
		items = append(items, l.items...)
		refs[i] = l.ref
	}
	return b.String(), items, refs
}

func rangeText(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

// truncateLines keeps the first head and last tail lines of text with a
// marker between them. It cuts text where those lines end and start, in
// one allocation: every file over the cut is cut on reading.
func truncateLines(text string, head, tail int) string {
	lines := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		lines++ // a last line without a newline
	}
	if lines <= head+tail {
		return text
	}
	headEnd := 0
	for range head {
		headEnd += strings.IndexByte(text[headEnd:], '\n') + 1
	}
	tailStart := len(strings.TrimSuffix(text, "\n"))
	for range tail {
		tailStart = strings.LastIndexByte(text[:tailStart], '\n')
	}
	if tail > 0 {
		tailStart++
	} else {
		tailStart = len(text)
	}
	marker := fmt.Sprintf("... [gitctx: %d lines omitted here to fit the token budget] ...\n", lines-head-tail)
	return text[:headEnd] + marker + text[tailStart:]
}
