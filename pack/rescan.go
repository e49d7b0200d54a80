package pack

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/secrets"
)

// ErrLeak means the rendered pack still held a credential after
// redaction; nothing was written.
var ErrLeak = errors.New("the rendered pack still holds a credential")

// gateSegments puts rendered segments through the gate once more, as
// they will be sent: a diff line's '+' prefix, a heading or a neighbouring
// line can make a rule match where the line alone did not. What is found
// is redacted in place and recorded. Every segment is checked once, before
// it is counted; the segment texts are the pack, so the pack is checked
// as it is written. An outline, checked whole when it was made and
// written as is, is checked again only in its frame and at the seams
// (secrets.Gate.RedactFramed).
func (s *shaper) gateSegments(ctx context.Context, segs []*segment) error {
	var todo []*segment
	ahead := map[*segment][]RedactionItem{} // the items each segment came with
	for _, seg := range segs {
		if !seg.gated {
			todo = append(todo, seg)
			ahead[seg] = seg.items
		}
	}
	return inOrder(ctx, s.opts.Gate, todo, func(g *secrets.Gate, seg *segment) (bool, error) {
		keep := 0
		if seg.diff {
			keep = 1 // a diff line's +, - or space
		}
		text, hits, err := redactSegment(ctx, g, seg, keep)
		if err != nil {
			return false, fmt.Errorf("check the pack (%s) for credentials: %w", seg.where, err)
		}
		seg.items = ahead[seg][:len(ahead[seg]):len(ahead[seg])]
		for _, h := range hits {
			item := RedactionItem{Path: seg.path, Side: "context", Rule: ruleOf(h.Placeholder), Placeholder: h.Placeholder}
			if h.Line < len(seg.refs) && seg.refs[h.Line].side != "" {
				item.Side, item.Line = seg.refs[h.Line].side, seg.refs[h.Line].n
			}
			seg.items = append(seg.items, item)
		}
		seg.text, seg.gated, seg.tokens = text, true, -1
		s.reconcile(seg)
		return len(hits) > 0, nil
	})
}

// redactSegment puts one segment through the gate: the whole of it, or
// for an outline checked whole before it was rendered, its frame and
// seams.
func redactSegment(ctx context.Context, g *secrets.Gate, seg *segment, keep int) (secrets.Text, []secrets.Hit, error) {
	if f := seg.framed; f != nil {
		return g.RedactFramed(ctx, f.before, f.body, f.after, keep)
	}
	return g.RedactAll(ctx, seg.raw, keep)
}

// boundaryWindow is how much of each side of a boundary between two
// segments is scanned together.
const boundaryWindow = 512

// rescanBoundaries checks the one place the per-segment checks cannot
// see: text across the boundary of two segments. A credential there stops
// the run; the message names where and which rule, never the text.
func (s *shaper) rescanBoundaries(ctx context.Context, segs []*segment) error {
	type join struct {
		text string
		at   int
		a, b *segment
	}
	var joins []join
	for i := 1; i < len(segs); i++ {
		a, b := segs[i-1].str(), segs[i].str()
		tail := a[max(0, len(a)-boundaryWindow):]
		head := b[:min(len(b), boundaryWindow)]
		joins = append(joins, join{tail + head, len(tail), segs[i-1], segs[i]})
	}
	var leak string
	dry := s.opts.Gate.Dry() // what it finds is never shown: it must not number placeholders
	err := parallel(ctx, joins, func(j join) error {
		spans, err := dry.Scan(ctx, j.text)
		if err != nil {
			return fmt.Errorf("check the pack for credentials: %w", err)
		}
		for _, sp := range spans {
			if sp.Start < j.at && sp.End > j.at && !strings.Contains(j.text[sp.Start:sp.End], "[REDACTED:") {
				leak = fmt.Sprintf("between %s and %s (rule %s)", j.a.where, j.b.where, sp.Rule)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if leak != "" {
		return fmt.Errorf("%w %s; nothing was written (please report this as a gitctx bug)", ErrLeak, leak)
	}
	return nil
}

// reconcile makes a segment's items match its placeholders one to one:
// a placeholder shown more often than items say (a path in a heading as
// well as in the index) gets an item from where it came from.
func (s *shaper) reconcile(seg *segment) {
	have := map[string]int{}
	for _, it := range seg.items {
		have[it.Placeholder]++
	}
	for _, p := range secrets.FindPlaceholders(seg.text.String()) {
		if have[p] > 0 {
			have[p]--
			continue
		}
		item, ok := s.v.origins[p]
		if !ok {
			item = RedactionItem{Path: seg.path, Side: "context", Rule: ruleOf(p), Placeholder: p}
		}
		seg.items = append(seg.items, item)
	}
}
