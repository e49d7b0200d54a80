package pack

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack/outline"
	"github.com/gitctx/gitctx/secrets"
)

// Every rendered segment goes through the gate as it is written (see
// gateSegments), so each shown line is scanned with what the pack shows
// around it. Some rules need more than that: a private key rotated in
// place shows no BEGIN line in its hunk, and a Kubernetes Secret's
// "kind: Secret" may sit far above its data. Where the file holds what
// such rules look for, the shown lines are first scanned in the file as
// it is, with their surroundings:
//
//   - scanContext lines on each side of every shown line;
//   - a private key block (-----BEGIN … -----END) that holds a shown line,
//     whole, up to keyWindow lines each way.
//
// A file shown whole is scanned whole. In XML and JSON packs, whose
// escaping hides some matches from the rules (a quote becomes &quot;), the
// shown lines are always scanned ahead. (Scanning every shown file whole
// costs several times more on real ranges: see README, "What is scanned".)
const (
	scanContext = 10
	keyWindow   = 256
)

// image is one side of a file as the pack may show it: its lines, some
// of them redacted ahead of rendering, and the placeholders on those.
type image struct {
	all   []string              // every line, when the side was read whole
	lines map[int]string        // 1-based line → text, for lines not in all, or redacted ahead
	hits  map[int][]secrets.Hit // 1-based line → placeholders put on it ahead of rendering
	count int                   // lines in the side, when it was read whole
}

func newImage() *image {
	return &image{lines: map[int]string{}, hits: map[int][]secrets.Hit{}}
}

func (im *image) line(n int) (string, []secrets.Hit, bool) {
	if im == nil {
		return "", nil, false
	}
	if t, ok := im.lines[n]; ok {
		return t, im.hits[n], true
	}
	if n >= 1 && n <= len(im.all) {
		return im.all[n-1], nil, true
	}
	return "", nil, false
}

// add scans lines [from, from+len(run)) as one text and files the result.
func (im *image) add(ctx context.Context, g *secrets.Gate, from int, run []string) error {
	red, hits, err := g.RedactString(ctx, strings.Join(run, "\n")+"\n")
	if err != nil {
		return err
	}
	if len(hits) == 0 && im.all != nil {
		return nil // nothing found: the lines stay as read
	}
	for i, t := range red.Lines() {
		im.lines[from+i] = t.String()
	}
	for _, h := range hits {
		im.hits[from+h.Line] = append(im.hits[from+h.Line], h)
	}
	return nil
}

// redaction is an entry's shown parts through the gate.
type redaction struct {
	newWhole *image                  // the new side as read, for the content; nil if it could not be read
	newDiff  *image                  // the new side's lines of the diff
	oldDiff  *image                  // the old side's lines of the diff
	sections map[string]redactedText // hunk headers' section text
	outline  redactedText
}

// redactedText is a short text through the gate, with its placeholders.
type redactedText struct {
	text secrets.Text
	hits []secrets.Hit
}

// ruleOf reads the rule out of a placeholder "[REDACTED:<rule>#<n>]".
func ruleOf(placeholder string) string {
	s := strings.TrimPrefix(placeholder, "[REDACTED:")
	if i := strings.LastIndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}

// needs reports which sides of an entry the pack shows lines of.
func needs(e *entry) (newSide, oldSide bool) {
	newSide = e.showContent != ""
	if e.showsDiff() {
		for _, h := range e.patch.Hunks {
			for _, l := range h.Lines {
				if l.Op == '-' {
					oldSide = true
				} else {
					newSide = true
				}
			}
		}
	}
	return newSide, oldSide
}

// redactEntries puts the entries' shown sides through the gate: each side
// is read whole (within the size limit) and scanned whole, so that a
// credential is found even when only part of it is in a hunk — a private
// key rotated in place has no BEGIN line in its hunk — and the placeholders
// are mapped onto the lines the pack shows. Scans run on every core.
func (b *builder) redactEntries(ctx context.Context, entries []*entry) error {
	var todo []*entry
	for _, e := range entries {
		if e.red == nil {
			todo = append(todo, e)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	texts := make(map[*entry][2]*string, len(todo))
	for side := range 2 {
		var files []*gitctx.File
		byFile := map[*gitctx.File]*entry{}
		for _, e := range todo {
			newSide, oldSide := needs(e)
			if (side == 0 && newSide && e.file.NewMode != 0) || (side == 1 && oldSide && e.file.OldMode != 0) {
				files = append(files, e.file)
				byFile[e.file] = e
			}
		}
		which := gitctx.New
		if side == 1 {
			which = gitctx.Old
		}
		err := b.ch.ReadEach(ctx, files, which, b.opts.MaxFileBytes, func(f *gitctx.File, _ int64, data []byte, err error) error {
			if err != nil {
				if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
					return err
				}
				return nil // scanned from the hunks instead
			}
			text := b.imageText(byFile[f], data)
			pair := texts[byFile[f]]
			pair[side] = text
			texts[byFile[f]] = pair
			return nil
		})
		if err != nil {
			return err
		}
	}
	return parallel(ctx, todo, func(e *entry) error {
		red, err := b.redactEntry(ctx, e, texts[e])
		if err != nil {
			return err
		}
		e.red = red
		return nil
	})
}

// redactEntry scans the parts of one entry the pack may show.
func (b *builder) redactEntry(ctx context.Context, e *entry, whole [2]*string) (*redaction, error) {
	newSide, oldSide := needs(e)
	red := &redaction{sections: map[string]redactedText{}}
	var err error
	if newSide {
		if whole[0] != nil {
			if red.newWhole, err = b.fileImage(ctx, *whole[0], shownLines(e, false), b.ahead); err != nil {
				return nil, fmt.Errorf("%s: %w", e.label.String(), err)
			}
		}
		red.newDiff = red.newWhole
		if whole[0] == nil || !agrees(*whole[0], e.patch, false) {
			if red.newDiff, err = b.hunkImage(ctx, e, false); err != nil {
				return nil, err
			}
		}
	}
	if oldSide {
		if whole[1] != nil && agrees(*whole[1], e.patch, true) {
			red.oldDiff, err = b.fileImage(ctx, *whole[1], shownLines(e, true), b.ahead)
		} else {
			red.oldDiff, err = b.hunkImage(ctx, e, true)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.label.String(), err)
		}
	}
	if red.sections, err = b.redactSections(ctx, e); err != nil {
		return nil, err
	}
	if e.showContent == RepOutline {
		if red.outline, err = b.makeOutline(ctx, e, whole[0]); err != nil {
			return nil, err
		}
	}
	return red, nil
}

// makeOutline outlines the new side and puts the outline through the gate
// (an outline is text of its own, not lines of the file). A file that
// cannot be outlined (a syntax error) shows its head and tail instead.
func (b *builder) makeOutline(ctx context.Context, e *entry, whole *string) (redactedText, error) {
	if whole == nil {
		return redactedText{}, nil
	}
	text, ok := outline.Of(e.path, *whole)
	if !ok {
		text = truncateLines(*whole, truncHeadLines, truncTailLines)
	}
	e.outline = text
	red, hits, err := b.opts.Gate.RedactString(ctx, text)
	if err != nil {
		return redactedText{}, fmt.Errorf("%s: %w", e.label.String(), err)
	}
	return redactedText{red, hits}, nil
}

// shownLines lists the lines of one side the entry may show (nil: all of
// them).
func shownLines(e *entry, old bool) []int {
	if !old && (e.showContent == RepFull || e.showContent == RepOutline) {
		return nil // shown whole, or an outline made from the whole
	}
	var out []int
	if !old && e.showContent == RepTruncated {
		for n := 1; n <= truncHeadLines; n++ {
			out = append(out, n)
		}
		for n := e.contentLines - truncTailLines + 1; n <= e.contentLines; n++ {
			out = append(out, n)
		}
	}
	if e.patch != nil {
		for _, h := range e.patch.Hunks {
			for _, l := range number(h) {
				switch {
				case old && l.Op == '-':
					out = append(out, l.oldNo)
				case !old && l.Op != '-':
					out = append(out, l.newNo)
				}
			}
		}
	}
	return out
}

// fileImage makes the image of a side read from the repository. Where
// the side holds what cross-line rules look for (or always, when always
// is set), the shown lines are scanned ahead with their surroundings;
// everything else is checked as rendered.
func (b *builder) fileImage(ctx context.Context, text string, shown []int, always bool) (*image, error) {
	im := newImage()
	im.all = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	im.count = len(im.all)
	keys := strings.Contains(text, "-----BEGIN")
	if !always && !keys && !needsContext(text) {
		return im, nil
	}
	if shown == nil {
		return im, im.add(ctx, b.opts.Gate, 1, im.all)
	}
	for _, r := range scanRegions(im.all, shown, keys) {
		if err := im.add(ctx, b.opts.Gate, r[0], im.all[r[0]-1:r[1]]); err != nil {
			return nil, err
		}
	}
	return im, nil
}

// needsContext reports whether a text holds what gitleaks' rules that
// match across lines look for: a Kubernetes Secret, a curl command.
func needsContext(text string) bool {
	lower := strings.ToLower(text)
	return (strings.Contains(lower, "kind:") && strings.Contains(lower, "secret")) || strings.Contains(lower, "curl")
}

// scanRegions turns shown line numbers into merged runs [from, to] of
// lines to scan: each shown line with scanContext lines around it, and the
// whole private key block it may sit in.
func scanRegions(lines []string, shown []int, keys bool) [][2]int {
	var spans [][2]int
	for _, n := range shown {
		if n < 1 || n > len(lines) {
			continue
		}
		lo, hi := max(1, n-scanContext), min(len(lines), n+scanContext)
		if keys {
			if b, e, ok := keyBlock(lines, n); ok {
				lo, hi = min(lo, b), max(hi, e)
			}
		}
		spans = append(spans, [2]int{lo, hi})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var out [][2]int
	for _, s := range spans {
		if len(out) > 0 && s[0] <= out[len(out)-1][1]+1 {
			out[len(out)-1][1] = max(out[len(out)-1][1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}

// keyBlock finds the -----BEGIN … -----END block around line n, within
// keyWindow lines each way.
func keyBlock(lines []string, n int) (int, int, bool) {
	begin := 0
	for i := n; i >= max(1, n-keyWindow); i-- {
		if strings.Contains(lines[i-1], "-----END") && i != n {
			return 0, 0, false // n comes after a block, not inside one
		}
		if strings.Contains(lines[i-1], "-----BEGIN") {
			begin = i
			break
		}
	}
	if begin == 0 {
		return 0, 0, false
	}
	for i := n; i <= min(len(lines), n+keyWindow); i++ {
		if strings.Contains(lines[i-1], "-----END") {
			return begin, i, true
		}
	}
	return begin, min(len(lines), n+keyWindow), true
}

// sectionCandidates lists every text a hunk header of p may show.
func sectionCandidates(p *gitctx.Patch) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, h := range p.Hunks {
		add(h.Section)
		for _, l := range number(h) {
			if l.Op != '+' {
				add(section([]numbered{l}, ""))
			}
		}
	}
	return out
}

// redactSections puts through the gate every text a hunk header may show
// after "@@": the sections git printed, and the function lines a hunk cut
// to less context may show instead (see section).
func (b *builder) redactSections(ctx context.Context, e *entry) (map[string]redactedText, error) {
	out := map[string]redactedText{}
	if e.patch == nil {
		return out, nil
	}
	raw := sectionCandidates(e.patch)
	clean := make([]string, len(raw))
	for i, r := range raw {
		clean[i] = cleanText(decodeLine(r))
	}
	texts, hits, err := redactMany(ctx, b.opts.Gate, clean)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.label.String(), err)
	}
	for i, r := range raw {
		out[r] = redactedText{texts[i], hits[i]}
	}
	return out, nil
}

// imageText decodes a side the way its content is decoded, or returns nil
// when it is not text.
func (b *builder) imageText(e *entry, data []byte) *string {
	if e.kind == KindSymlink {
		s := cleanText(decodeLine(string(data)))
		return &s
	}
	d := decode(data)
	if d.Kind == KindBinary {
		return nil
	}
	s := cleanText(d.Text)
	return &s
}

// agrees reports whether a side's text has, at each line number, the line
// the diff shows there.
func agrees(text string, p *gitctx.Patch, old bool) bool {
	if p == nil {
		return true
	}
	lines := strings.Split(text, "\n")
	for _, h := range p.Hunks {
		for _, l := range number(h) {
			n := l.newNo
			if old {
				n = l.oldNo
			}
			if n == 0 {
				continue
			}
			if n > len(lines) || lines[n-1] != cleanText(decodeLine(l.Text)) {
				return false
			}
		}
	}
	return true
}

// hunkImage scans the lines of one side that the diff holds, each hunk's
// run as one text: for a side that could not be read whole.
func (b *builder) hunkImage(ctx context.Context, e *entry, old bool) (*image, error) {
	im := newImage()
	if e.patch == nil {
		return im, nil
	}
	for _, h := range e.patch.Hunks {
		var from int
		var run []string
		for _, l := range number(h) {
			n := l.newNo
			if old {
				n = l.oldNo
			}
			if n == 0 {
				continue
			}
			if from == 0 {
				from = n
			}
			run = append(run, cleanText(decodeLine(l.Text)))
		}
		if len(run) == 0 {
			continue
		}
		if err := im.add(ctx, b.opts.Gate, from, run); err != nil {
			return nil, fmt.Errorf("%s: %w", e.label.String(), err)
		}
	}
	return im, nil
}

// parallel runs fn for each item on every core and returns the first
// error.
func parallel[T any](ctx context.Context, items []T, fn func(T) error) error {
	next := make(chan T)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(items)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range next {
				if err := fn(it); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	var err error
feed:
	for _, it := range items {
		select {
		case next <- it:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}

// redactMany puts many short texts (paths, commit messages) through the
// gate in one scan, joined by newlines, as they are shown; a span that
// crosses from one text into the next is cut at the boundary, and each
// part redacted.
func redactMany(ctx context.Context, g *secrets.Gate, texts []string) ([]secrets.Text, [][]secrets.Hit, error) {
	joined := strings.Join(texts, "\n")
	spans, err := g.Scan(ctx, joined)
	if err != nil {
		return nil, nil, err
	}
	out := make([]secrets.Text, len(texts))
	hits := make([][]secrets.Hit, len(texts))
	start := 0
	for i, t := range texts {
		end := start + len(t)
		var local []secrets.Span
		for _, s := range spans {
			lo, hi := max(s.Start, start), min(s.End, end)
			if lo < hi {
				s.Start, s.End = lo-start, hi-start
				local = append(local, s)
			}
		}
		out[i], hits[i] = secrets.Redact(t, local)
		start = end + 1
	}
	return out, hits, nil
}
