package pack

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/secrets"
)

// image is one side of a file as the gate left it: its lines, redacted,
// and where placeholders sit. A whole image holds every line of the file;
// when the file could not be read whole (too large, unreadable, changed
// since the diff), the image holds only the lines of the diff's hunks,
// keyed by their line numbers, and was scanned as those lines alone.
type image struct {
	lines map[int]secrets.Text   // 1-based line → redacted text
	hits  map[int][]secrets.Hit  // 1-based line → placeholders on it
	all   []secrets.Text         // every line, for a whole image; nil otherwise
}

func (im *image) line(n int) (secrets.Text, []secrets.Hit, bool) {
	if im == nil {
		return secrets.Text{}, nil, false
	}
	if im.all != nil {
		if n < 1 || n > len(im.all) {
			return secrets.Text{}, nil, false
		}
		return im.all[n-1], im.hits[n], true
	}
	t, ok := im.lines[n]
	return t, im.hits[n], ok
}

// redaction is an entry's shown parts through the gate.
type redaction struct {
	newWhole *image                  // the new side whole, for the content; nil if it could not be read
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

// redactEntry scans the sides of one entry that the pack shows.
func (b *builder) redactEntry(ctx context.Context, e *entry, whole [2]*string) (*redaction, error) {
	newSide, oldSide := needs(e)
	red := &redaction{sections: map[string]redactedText{}}
	var err error
	if newSide {
		if whole[0] != nil {
			if red.newWhole, err = b.wholeImage(ctx, e, *whole[0]); err != nil {
				return nil, err
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
			red.oldDiff, err = b.wholeImage(ctx, e, *whole[1])
		} else {
			red.oldDiff, err = b.hunkImage(ctx, e, true)
		}
		if err != nil {
			return nil, err
		}
	}
	if e.patch != nil {
		var sections []string
		for _, h := range e.patch.Hunks {
			if h.Section != "" {
				sections = append(sections, cleanText(decodeLine(h.Section)))
			}
		}
		texts, hits, err := redactMany(ctx, b.opts.Gate, sections)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.label.String(), err)
		}
		i := 0
		for _, h := range e.patch.Hunks {
			if h.Section != "" {
				red.sections[h.Section] = redactedText{texts[i], hits[i]}
				i++
			}
		}
	}
	return red, nil
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

// wholeImage scans a whole side.
func (b *builder) wholeImage(ctx context.Context, e *entry, text string) (*image, error) {
	red, hits, err := b.opts.Gate.RedactString(ctx, text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.label.String(), err)
	}
	im := &image{all: red.Lines(), hits: map[int][]secrets.Hit{}}
	for _, h := range hits {
		im.hits[h.Line+1] = append(im.hits[h.Line+1], h)
	}
	return im, nil
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
// run as one text.
func (b *builder) hunkImage(ctx context.Context, e *entry, old bool) (*image, error) {
	im := &image{lines: map[int]secrets.Text{}, hits: map[int][]secrets.Hit{}}
	if e.patch == nil {
		return im, nil
	}
	for _, h := range e.patch.Hunks {
		var nums []int
		var sb strings.Builder
		for _, l := range number(h) {
			n := l.newNo
			if old {
				n = l.oldNo
			}
			if n == 0 {
				continue
			}
			nums = append(nums, n)
			sb.WriteString(cleanText(decodeLine(l.Text)))
			sb.WriteByte('\n')
		}
		red, hits, err := b.opts.Gate.RedactString(ctx, sb.String())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.label.String(), err)
		}
		for i, t := range red.Lines() {
			if i < len(nums) {
				im.lines[nums[i]] = t
			}
		}
		for _, h := range hits {
			if h.Line < len(nums) {
				im.hits[nums[h.Line]] = append(im.hits[nums[h.Line]], h)
			}
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
// gate in one scan: joined by NUL bytes, which no rule's match crosses
// meaningfully; a span that does is cut at each boundary.
func redactMany(ctx context.Context, g *secrets.Gate, texts []string) ([]secrets.Text, [][]secrets.Hit, error) {
	joined := strings.Join(texts, "\x00")
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
