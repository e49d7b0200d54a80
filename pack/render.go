package pack

import (
	"fmt"
	"strings"
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
		e.diffSeg = newSegment(key, r.diff(e, e.diffText(), first))
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
		e.contentSeg = newSegment(key, r.content(e, e.contentText(), first))
	}
}

// diffText is the diff of an entry as its shaping asks for.
func (e *entry) diffText() string {
	hunks := e.patch.Hunks
	if e.diffContext < 3 {
		hunks = withContext(hunks, e.diffContext)
	}
	return cleanText(diffText(hunks, e.diffCap))
}

// contentText is the content of an entry as its shaping asks for.
func (e *entry) contentText() string {
	switch e.showContent {
	case RepOutline:
		return e.outline
	case RepTruncated:
		return e.excerpt
	}
	return e.content
}

// truncateLines keeps the first head and last tail lines of text with a
// marker between them.
func truncateLines(text string, head, tail int) string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) <= head+tail {
		return text
	}
	omitted := len(lines) - head - tail
	var b strings.Builder
	for _, l := range lines[:head] {
		b.WriteString(l)
	}
	fmt.Fprintf(&b, "... [gitctx: %d lines omitted here to fit the token budget] ...\n", omitted)
	for _, l := range lines[len(lines)-tail:] {
		b.WriteString(l)
	}
	return b.String()
}
