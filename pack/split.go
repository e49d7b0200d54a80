package pack

import (
	"context"
	"fmt"
)

// indexRowTokens is a generous estimate of what one file adds to a part's
// file index, used to plan parts before they are counted exactly.
const indexRowTokens = 40

// split lays a Full pack out over as many parts as it takes, each within
// the budget, for reviews that take several calls. A file is never split:
// each sits whole in one part; a file too big for a part of its own is
// degraded alone (head and tail, less context, outline, diff only) until
// it fits. The first part also holds the commit messages and lists every
// file that is shown nowhere (excluded ones).
func (s *shaper) split(ctx context.Context) ([][]*segment, error) {
	v, limit := s.v, s.opts.Budget.Limit
	shown := v.shown()
	if err := s.prepare(ctx, shown); err != nil {
		return nil, err
	}
	first, err := s.firstPartOverhead(ctx)
	if err != nil {
		return nil, err
	}
	later, err := s.partOverhead(ctx, 2)
	if err != nil {
		return nil, err
	}
	room := limit - later - indexRowTokens
	if room <= 0 || first+indexRowTokens > limit {
		need := max(first, later) + indexRowTokens
		return nil, fmt.Errorf("%w: a part with no file in it needs %s tokens, the budget is %s (raise --max-tokens well above %s, so each part has room for files)",
			ErrBudget, thousands(need), thousands(limit), thousands(need))
	}
	for _, e := range shown {
		if err := s.fitAlone(ctx, e, room); err != nil {
			return nil, err
		}
	}
	groups := s.group(v.shown(), limit-first-indexRowTokens, room)
	for {
		parts, over, err := s.renderParts(ctx, groups)
		if err != nil || over < 0 {
			return parts, err
		}
		// A part came out over the limit (its index or headings cost more
		// than planned): move its last file to the next part.
		g := groups[over]
		if len(g) < 2 {
			return nil, fmt.Errorf("%w: part %d holds one file and is still over %s tokens", ErrBudget, over+1, thousands(limit))
		}
		groups[over] = g[:len(g)-1]
		if over+1 == len(groups) {
			groups = append(groups, nil)
		}
		groups[over+1] = append([]*entry{g[len(g)-1]}, groups[over+1]...)
	}
}

// partOverhead counts part i when it shows no file: the first holds the
// commit messages and the files shown nowhere, the others only their
// summary and headings.
func (s *shaper) partOverhead(ctx context.Context, i int) (int, error) {
	pv := s.part(nil, i, 2)
	_, n, err := s.render(ctx, pv)
	return n, err
}

// firstPartOverhead counts the first part with no file shown, once its
// commit messages are shortened as a Summary's would be when they alone
// leave it no room: the subjects only, then the newest commits only, then
// no directory tree. Later parts are sized by their own, smaller,
// overhead.
func (s *shaper) firstPartOverhead(ctx context.Context) (int, error) {
	n, err := s.partOverhead(ctx, 1)
	for _, st := range s.steps() {
		if err != nil || n+indexRowTokens <= s.opts.Budget.Limit {
			break
		}
		if !st.global {
			continue
		}
		for _, e := range st.order() {
			if st.apply(e) {
				s.noteStep(st, 1)
			}
		}
		n, err = s.partOverhead(ctx, 1)
	}
	return n, err
}

// entryTokens counts an entry as it is shaped now, exactly.
func (s *shaper) entryTokens(ctx context.Context, e *entry) (int, error) {
	renderEntry(e, s.r, false)
	segs := []*segment{}
	for _, seg := range []*segment{e.diffSeg, e.contentSeg} {
		if seg != nil {
			segs = append(segs, seg)
		}
	}
	if err := s.settle(ctx, segs); err != nil {
		return 0, err
	}
	return e.tokens(), nil
}

// fitAlone degrades one entry, step by step, until it fits in room.
func (s *shaper) fitAlone(ctx context.Context, e *entry, room int) error {
	for _, st := range s.steps() {
		if st.global {
			continue
		}
		n, err := s.entryTokens(ctx, e)
		if err != nil || n <= room || e.nameOnly {
			return err
		}
		for _, candidate := range st.order() {
			if candidate == e && st.apply(e) {
				e.invalidate()
				s.noteStep(st, 1)
			}
		}
	}
	return nil
}

// group fills parts in order: the first up to firstRoom tokens of files
// (it may hold none, when its commit messages fill it), each other up to
// room.
func (s *shaper) group(shown []*entry, firstRoom, room int) [][]*entry {
	var groups [][]*entry
	var cur []*entry
	used, capacity := 0, firstRoom
	for _, e := range shown {
		n := e.tokens() + indexRowTokens
		if used+n > capacity && (len(cur) > 0 || len(groups) == 0) {
			groups = append(groups, cur)
			cur, used, capacity = nil, 0, room
		}
		cur = append(cur, e)
		used += n
	}
	return append(groups, cur)
}

// renderParts renders every part; over is the first part over the limit,
// or -1.
func (s *shaper) renderParts(ctx context.Context, groups [][]*entry) ([][]*segment, int, error) {
	var parts [][]*segment
	for i, g := range groups {
		segs, n, err := s.render(ctx, s.part(g, i+1, len(groups)))
		if err != nil {
			return nil, -1, err
		}
		if n > s.opts.Budget.Limit {
			return nil, i, nil
		}
		parts = append(parts, segs)
	}
	return parts, -1, nil
}

// part is the view of one part: its files, and, in the first, the commit
// messages and every file shown nowhere.
func (s *shaper) part(files []*entry, i, n int) *view {
	pv := *s.v
	pv.Part, pv.Parts = i, n
	pv.Entries = append([]*entry{}, files...)
	if i == 1 {
		for _, e := range s.v.Entries {
			if !e.included() || e.nameOnly {
				pv.Entries = append(pv.Entries, e)
			}
		}
	} else {
		pv.Commits, pv.AllCommits = nil, len(s.v.Commits)
	}
	return &pv
}

// shapeParts shapes the pack, or with Split its parts: the Full pack when it
// fits, else the Full pack laid out over parts (see split). Without Split,
// or when a summary is asked for, it is shape.
func (s *shaper) shapeParts(ctx context.Context) ([][]*segment, error) {
	if !s.opts.Split || s.opts.Mode == "summary" {
		segs, err := s.shape(ctx)
		return [][]*segment{segs}, err
	}
	s.ratio, s.least = 1, -1
	s.cost = make(map[*entry]int, len(s.v.Entries))
	for _, e := range s.v.Entries {
		initFull(e)
	}
	s.reestimate()
	segs, why, err := s.tryFull(ctx)
	if err != nil || segs != nil {
		s.reason = why
		return [][]*segment{segs}, err
	}
	s.reason = why + ", so the full pack is split into parts"
	return s.split(ctx)
}
