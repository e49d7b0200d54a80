package pack

import (
	"strings"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack/outline"
	"github.com/gitctx/gitctx/secrets"
)

// Roles of files in a pack.
const (
	RoleChanged   = "changed"
	RoleNeighbour = "neighbour"
	RoleContext   = "context"
	RoleGuide     = "guide"
)

// Representations of a file in a pack, richest first.
const (
	RepFull      = "full"      // the whole content (and the diff, for a changed file)
	RepTruncated = "truncated" // head and tail of the content or the diff, with a marker
	RepOutline   = "outline"   // signatures and types instead of the content
	RepDiff      = "diff"      // the diff alone
	RepNameOnly  = "name_only" // listed by name, status and line counts
)

// entry is one file considered for the pack.
type entry struct {
	file     *gitctx.File // the change's file; nil for neighbours and context
	path     string
	oldPath  string
	role     string
	status   string
	kind     string
	size     int64 // bytes of the side that is shown
	reason   string
	excluded string // exclusion reason; empty when included
	encoding string
	score    *float64
	reasons  []string         // why a neighbour was chosen
	lock     bool             // a changed manifest's lock file: shows only its entries for focus
	focus    []string         // the package names the manifest's changed lines name
	names    []string         // a neighbour's names of code it shares with the change
	tree     gitctx.TreeEntry // where a neighbour or guide file is read from

	generated string // a changed file written by a tool (genLock, genCode): its diff alone
	marked    bool   // its new side's first lines carry a generator's marker (see settleGenerated)
	shortened bool   // the text rendered last (diff or content) had digests shortened, for its heading

	content      string        // decoded text of the new side, while a Full pack may show it
	whole        string        // an oversize content, held for the gate only (see holdWhole)
	raw          bool          // the new side's text (content, whole) is its bytes as read: decoding changed nothing
	ahead        [2]*aheadSide // the new and old sides prepared while the diff streamed (see startSides), until the gate has them
	hasContent   bool          // the file has text content (which may since have been dropped)
	contentBytes int           // length of the whole content
	contentLines int
	noFinalNL    bool       // the content does not end with a newline
	excerpt      string     // head and tail of a long content ("" when it is short)
	kept         []int      // the lines the excerpt keeps, when not its head and tail (a lock file's)
	trunc        Truncation // how the content is cut: the lines kept, and the size over which it always is
	oversize     bool       // the content is over trunc.MaxFileBytes and long: even a Full pack shows the excerpt
	outline      string     // the outline, once made (see redactEntry)
	hasOutline   bool       // the file's language has an outliner and the file is long enough
	outlineEst   int        // estimated outline bytes, until it is made
	patch        *gitctx.Patch
	lines        *gitctx.LineCount // a left-out file's line counts, its patch not read
	patchNote    string            // why the diff is not shown, when it is not

	label    secrets.Text // the path as the pack shows it, through the gate
	oldLabel secrets.Text
	red      *redaction // the shown parts through the gate, once rendered

	// shaping state, changed by the budget
	showContent string // RepFull, RepTruncated, RepOutline or "" (none)
	diffContext int    // context lines of the diff; -1 hides the diff
	diffCap     int    // 0: the whole diff; else keep this many lines, head and tail
	nameOnly    bool

	diffSeg, contentSeg *segment
	// the diff's length with 0 to 3 context lines, once known (diffSize)
	diffSizes [4]struct {
		bytes, lines int
		known        bool
	}
}

// showsDiff reports whether the entry's diff is in the pack.
func (e *entry) showsDiff() bool {
	return e.included() && !e.nameOnly && e.patch != nil && e.diffContext >= 0
}

// included reports whether the entry is in the pack at all (a name-only
// changed file is, an excluded one is only listed).
func (e *entry) included() bool { return e.excluded == "" }

// representation names what the pack shows of the entry.
func (e *entry) representation() string {
	capped := e.showsDiff() && e.diffCap > 0
	switch {
	case !e.included() || e.nameOnly:
		return RepNameOnly
	case e.showContent == RepTruncated, e.showContent == RepFull && capped:
		return RepTruncated
	case e.showContent != "":
		return e.showContent
	case capped:
		return RepTruncated
	case e.showsDiff():
		return RepDiff
	}
	return RepNameOnly
}

func (e *entry) tokens() int {
	n := 0
	for _, s := range []*segment{e.diffSeg, e.contentSeg} {
		if s != nil && s.tokens > 0 {
			n += s.tokens
		}
	}
	return n
}

func (e *entry) additions() int {
	switch {
	case e.patch != nil:
		return e.patch.Added
	case e.lines != nil:
		return e.lines.Added
	}
	return 0
}

func (e *entry) deletions() int {
	switch {
	case e.patch != nil:
		return e.patch.Deleted
	case e.lines != nil:
		return e.lines.Deleted
	}
	return 0
}

// setText sets the decoded content and what a Summary (or, for a file
// over t.MaxFileBytes, any pack) may show of it.
func (e *entry) setText(text string, t Truncation) {
	e.trunc = t
	e.content, e.hasContent = text, true
	e.contentBytes = len(text)
	e.noFinalNL = !strings.HasSuffix(text, "\n")
	e.contentLines = strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") && text != "" {
		e.contentLines++
	}
	switch {
	case e.lock:
		// a lock file: even a Full pack shows only its entries for focus
		e.kept = focusLines(text, e.focus)
		e.excerpt = e.cutText(text)
		e.oversize, e.content = true, ""
		return
	case e.contentLines > t.HeadLines+t.TailLines:
		e.oversize = int64(len(text)) > t.MaxFileBytes
		if e.kept = nameLines(text, e.names, t.HeadLines, t.HeadLines+t.TailLines); e.kept != nil {
			e.excerpt = e.cutText(text) // the head and the lines about the names it shares with the change
		} else {
			e.excerpt = truncateLines(text, t.HeadLines, t.TailLines)
		}
		if e.oversize {
			e.content = "" // never shown whole: the excerpt is all a pack needs
		}
	}
	if e.contentLines >= minOutlineLines && outline.Supported(e.path) {
		e.hasOutline = true
		e.outlineEst = len(text) / outlineShare(e.path)
	}
}

// truncatedLines returns the numbers of the lines a truncated content of
// count lines shows: its head and tail, or the lines kept.
func (e *entry) truncatedLines(count int) []int {
	if e.kept != nil {
		return e.kept
	}
	head, tail := e.trunc.HeadLines, e.trunc.TailLines
	out := make([]int, 0, min(count, head+tail))
	for n := 1; n <= count; n++ {
		if count <= head+tail || n <= head || n > count-tail {
			out = append(out, n)
		}
	}
	return out
}

// cutText is the kept lines of text with a marker for each run of lines
// left out.
func (e *entry) cutText(text string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var b strings.Builder
	eachShown(e.kept, len(lines), func(n, omitted int) {
		if omitted > 0 {
			b.WriteString(e.omittedMarker(omitted) + "\n")
		}
		if n > 0 {
			b.WriteString(lines[n-1] + "\n")
		}
	})
	return b.String()
}

// eachShown calls fn with each shown line number of a content of count
// lines, and with the number of lines left out before it (n is 0 for the
// run left out after the last shown line).
func eachShown(shown []int, count int, fn func(n, omitted int)) {
	prev := 0
	for _, n := range shown {
		fn(n, n-prev-1)
		prev = n
	}
	if prev < count {
		fn(0, count-prev)
	}
}

// shownBytes is the length of the content the entry shows, for estimates.
func (e *entry) shownBytes() int {
	switch e.showContent {
	case RepFull:
		return e.contentBytes
	case RepTruncated:
		return len(e.excerpt)
	case RepOutline:
		if e.outline != "" {
			return len(e.outline)
		}
		return e.outlineEst
	}
	return 0
}

// name is the entry's path as the pack shows it: through the gate, and
// quoted when it holds characters that could disturb the layout.
func (e *entry) name() string { return displayPath(e.label.String()) }

// minOutlineLines is the shortest file worth an outline; a shorter one is
// shown whole.
const minOutlineLines = 40

// outlineShare is roughly how many times smaller than a file its outline
// is, for estimates before the outline is made: Go outlines keep types and
// doc comments, the line heuristic keeps less.
func outlineShare(path string) int {
	if strings.HasSuffix(path, ".go") {
		return 3
	}
	return 6
}

// long reports whether the content is longer than its excerpt.
func (e *entry) long() bool { return e.excerpt != "" }

// heldText is the new side as imageText makes it from the file, when the
// entry still holds it whole: the text of a text file, cleaned, which
// dropContent has not dropped (a lock's, an LFS pointer's or a symbolic
// link's is not at hand that way).
func (e *entry) heldText() *string {
	if !e.hasContent || e.content == "" || e.kind != KindText || e.lock {
		return nil
	}
	text := e.content
	return &text
}

// maxHeldBytes bounds the long contents a builder holds once no Full pack
// can show them: the gate reads every shown new side whole, and one held
// is not read from git again (see heldText). Prometheus' last 100 commits
// change 8 MB of files, terraform's last 1,000 22 MB; holding up to 16 MB
// made the collector work harder on the latter (880 -> 900 ms), near the
// heap's soft limit.
const maxHeldBytes = 8 << 20

// dropContent frees a long content once no Full pack can show it, unless
// the builder still has room to hold it for the gate.
func (b *builder) dropContent(e *entry) {
	if !e.long() || e.content == "" {
		return
	}
	if b.heldBytes+len(e.content) <= maxHeldBytes {
		b.heldBytes += len(e.content)
		return
	}
	e.content = ""
}

// holdWhole keeps for the gate the new side of an oversize file, which no
// pack shows whole, while the builder has room to hold it: the gate reads
// it whole all the same (see gateText). Read again, its bytes were hashed
// again to prove them the blob's: 44 files of prometheus' last 100
// commits, 6.2 MB, are over the truncation limit (14 ms of CPU in a warm
// run).
func (b *builder) holdWhole(e *entry, text string) {
	if !e.oversize || e.lock || e.kind != KindText || b.heldBytes+len(text) > maxHeldBytes {
		return
	}
	b.heldBytes += len(text)
	e.whole = text
}

// gateText is the new side the gate reads, when the entry holds it: its
// content (heldText) or, for an oversize file, what holdWhole kept.
func (e *entry) gateText() *string {
	if e.whole != "" {
		text := e.whole
		return &text
	}
	return e.heldText()
}

// invalidate drops the rendered segments after a shaping change.
func (e *entry) invalidate() { e.diffSeg, e.contentSeg = nil, nil }
