package pack

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// Shaping limits.
const (
	diffCapLines    = 150 // a truncated diff keeps this many lines, head and tail
	truncHeadLines  = 100
	truncTailLines  = 50
	exactCountSlack = 1.3 // count exactly once the estimate is within this factor of the limit
)

// shaper fits a pack to its budget: Full when everything fits, else
// Summary, degraded step by step until it does.
type shaper struct {
	v       *view
	r       renderer
	counter Counter
	opts    Options
	reason  string

	fixed    []*segment // the last rendered segments that are not files
	ratio    float64    // exact tokens per estimated token, once known
	deficit  int        // tokens over the limit at the last exact count
	saved    int        // estimated tokens saved since then
	minCount int        // the smallest exact total seen
}

// shape returns the pack's segments, within the budget.
func (s *shaper) shape(ctx context.Context) ([]*segment, error) {
	s.ratio = 1
	s.minCount = -1
	for _, e := range s.v.Entries {
		s.initFull(e)
	}
	if s.opts.Mode != "summary" {
		segs, why, err := s.tryFull(ctx)
		if err != nil || segs != nil {
			s.reason = why
			return segs, err
		}
		if s.opts.Mode == "full" {
			return nil, fmt.Errorf("%w: --mode full was asked for, but %s", ErrBudget, why)
		}
		s.reason = why + ", so the pack is a summary"
	} else {
		s.reason = "a summary pack was asked for (mode summary)"
	}
	s.v.Type = "summary"
	for _, e := range s.v.Entries {
		s.initSummary(e)
	}
	return s.fit(ctx)
}

func (s *shaper) initFull(e *entry) {
	e.invalidate()
	e.showContent = ""
	if e.hasContent {
		e.showContent = RepFull
	}
	if gitctx.Status(e.status) == gitctx.Added && e.hasContent {
		e.diffContext = -1 // the content is the diff
	}
}

func (s *shaper) initSummary(e *entry) {
	e.invalidate()
	switch {
	case !e.hasContent:
	case gitctx.Status(e.status) == gitctx.Added && e.hasOutline:
		e.showContent = RepOutline
	case gitctx.Status(e.status) == gitctx.Added:
		e.showContent = RepFull
	case e.hasOutline:
		e.showContent = RepOutline
	default:
		e.showContent = ""
	}
}

// tryFull returns the Full pack when it fits, or why it does not.
func (s *shaper) tryFull(ctx context.Context) ([]*segment, string, error) {
	limit := s.opts.Budget.Limit
	var files int
	var content int64
	for _, e := range s.v.shown() {
		files++
		if e.showContent == RepFull {
			content += int64(len(e.content))
		}
	}
	if files > s.opts.MaxFiles {
		return nil, fmt.Sprintf("the change shows %s files, over max_files (%s)", thousands(files), thousands(s.opts.MaxFiles)), nil
	}
	if content > s.opts.MaxContentBytes {
		return nil, fmt.Sprintf("full contents are %s bytes, over max_content_bytes (%s)", thousands(int(content)), thousands(int(s.opts.MaxContentBytes))), nil
	}
	if est := s.estimate(); float64(est) > exactCountSlack*float64(limit) {
		return nil, fmt.Sprintf("a full pack needs about %s tokens (estimated), the budget is %s", thousands(est), thousands(limit)), nil
	}
	segs, total, err := s.assemble(ctx)
	if err != nil {
		return nil, "", err
	}
	if total > limit {
		return nil, fmt.Sprintf("a full pack needs %s tokens, the budget is %s", thousands(total), thousands(limit)), nil
	}
	return segs, fmt.Sprintf("the full pack fits: %s of %s tokens, %d files", thousands(total), thousands(limit), files), nil
}

// assemble renders the whole pack and counts it exactly. Only segments not
// counted before are counted.
func (s *shaper) assemble(ctx context.Context) ([]*segment, int, error) {
	v, r := s.v, s.r
	files := fileSegments(v, r)
	pre := []*segment{newSegment("manifest", r.manifest(v)), newSegment("change", r.change(v))}
	if err := countAll(ctx, s.counter, append(pre, files...)); err != nil {
		return nil, 0, err
	}
	mid := []*segment{newSegment("index", r.index(v))}
	if v.ShowTree {
		if t := s.treeText(); t != "" {
			mid = append(mid, newSegment("tree", t))
		}
	}
	if err := countAll(ctx, s.counter, mid); err != nil {
		return nil, 0, err
	}
	bodySegs := append(append(pre, mid...), files...)
	v.Boundary = boundary(bodySegs)
	head, tail := newSegment("head", r.head(v)), newSegment("tail", r.tail(v))
	if err := countAll(ctx, s.counter, []*segment{head, tail}); err != nil {
		return nil, 0, err
	}
	all := append(append([]*segment{head}, bodySegs...), tail)
	s.fixed = append(append(pre, mid...), head, tail)
	total := sumTokens(all)
	if est := s.rawEstimate(all); est > 0 {
		s.ratio = float64(total) / float64(est)
	}
	if s.minCount < 0 || total < s.minCount {
		s.minCount = total
	}
	return all, total, nil
}

func (s *shaper) treeText() string {
	var paths []string
	for _, e := range s.v.shown() {
		paths = append(paths, e.path)
	}
	if len(paths) == 0 {
		return ""
	}
	return s.r.tree(s.v, paths)
}

// estimate guesses the pack's tokens without counting: exact counts where
// known, bytes elsewhere, scaled by what the last exact count taught.
func (s *shaper) estimate() int {
	segs := fileSegments(s.v, s.r)
	if s.fixed == nil {
		v, r := s.v, s.r
		s.fixed = []*segment{newSegment("manifest", r.manifest(v)), newSegment("change", r.change(v)),
			newSegment("index", r.index(v)), newSegment("head", r.head(v)), newSegment("tail", r.tail(v))}
	}
	return int(float64(s.rawEstimate(append(segs, s.fixed...))) * s.ratio)
}

func (s *shaper) rawEstimate(segs []*segment) int {
	n := 0
	for _, seg := range segs {
		if seg.tokens >= 0 {
			n += int(float64(seg.tokens) / s.ratio)
		} else {
			n += estimate(len(seg.text))
		}
	}
	return n
}

// entryCost estimates an entry's tokens as it is shaped now.
func (s *shaper) entryCost(e *entry) int {
	if !e.included() || e.nameOnly {
		return 0
	}
	renderEntry(e, s.r, false)
	n := 0
	for _, seg := range []*segment{e.diffSeg, e.contentSeg} {
		switch {
		case seg == nil:
		case seg.tokens >= 0:
			n += seg.tokens
		default:
			n += int(float64(estimate(len(seg.text))) * s.ratio)
		}
	}
	return n
}

// fits checks the budget: by estimate while the estimate is far over it,
// exactly once it is close (and only when enough was saved since the last
// exact count to make a difference).
func (s *shaper) fits(ctx context.Context) ([]*segment, error) {
	limit := s.opts.Budget.Limit
	if float64(s.estimate()) > exactCountSlack*float64(limit) {
		return nil, nil
	}
	if s.deficit > 0 && s.saved < s.deficit {
		return nil, nil
	}
	segs, total, err := s.assemble(ctx)
	if err != nil {
		return nil, err
	}
	if total <= limit {
		return segs, nil
	}
	s.deficit, s.saved = total-limit, 0
	return nil, nil
}

// fit degrades the summary until it fits, one entry at a time, in the
// order of the steps. Each step taken is named in the pack's summary.
func (s *shaper) fit(ctx context.Context) ([]*segment, error) {
	if segs, err := s.fits(ctx); segs != nil || err != nil {
		return segs, err
	}
	for _, st := range s.steps() {
		applied := 0
		for _, e := range st.order() {
			var before int
			if st.global {
				before = s.estimate()
			} else {
				before = s.entryCost(e)
			}
			if !st.apply(e) {
				continue
			}
			applied++
			s.noteStep(st, applied)
			if st.global {
				s.fixed = nil // the change and tree parts change with a global step
				s.saved += before - s.estimate()
			} else {
				e.invalidate()
				s.saved += before - s.entryCost(e)
			}
			segs, err := s.fits(ctx)
			if err != nil || segs != nil {
				return segs, err
			}
		}
	}
	// Everything is as small as it gets: one last exact count.
	segs, total, err := s.assemble(ctx)
	if err != nil {
		return nil, err
	}
	if total <= s.opts.Budget.Limit {
		return segs, nil
	}
	return nil, fmt.Errorf("%w: even listing every file by name needs %s tokens, the budget is %s (raise --max-tokens to at least %s, or pack a smaller change)",
		ErrBudget, thousands(s.minCount), thousands(s.opts.Budget.Limit), thousands(s.minCount))
}

// noteStep names a step in the pack's summary, with the files it touched.
func (s *shaper) noteStep(st step, n int) {
	text := st.name
	if !st.global {
		text = fmt.Sprintf("%s (%d file%s)", st.name, n, plural(n))
	}
	for i, old := range s.v.Steps {
		if strings.HasPrefix(old, st.name) {
			s.v.Steps[i] = text
			return
		}
	}
	s.v.Steps = append(s.v.Steps, text)
}

// step is one kind of degradation, applied to one entry at a time.
type step struct {
	name   string
	global bool // applies to the pack, not to files
	order  func() []*entry
	apply  func(*entry) bool
}

func (s *shaper) steps() []step {
	v := s.v
	byCost := func(keep func(*entry) bool) func() []*entry {
		return func() []*entry {
			var out []*entry
			for _, e := range v.shown() {
				if keep(e) {
					out = append(out, e)
				}
			}
			sort.SliceStable(out, func(i, j int) bool { return s.entryCost(out[i]) > s.entryCost(out[j]) })
			return out
		}
	}
	once := func(apply func() bool) (func() []*entry, func(*entry) bool) {
		return func() []*entry { return []*entry{nil} }, func(*entry) bool { return apply() }
	}
	subjectsOrder, subjectsApply := once(func() bool {
		changed := v.Messages && len(v.Commits) > 0
		v.Messages = false
		return changed
	})
	treeOrder, treeApply := once(func() bool {
		changed := v.ShowTree
		v.ShowTree = false
		return changed
	})
	return []step{
		{name: "long diffs and files cut to their head and tail", order: byCost(func(e *entry) bool {
			return (e.showsDiff() && e.diffCap == 0 && diffLines(e.patch.Hunks) > diffCapLines) ||
				(e.showContent == RepFull && strings.Count(e.content, "\n") > truncHeadLines+truncTailLines)
		}), apply: func(e *entry) bool {
			if e.showContent == RepFull && strings.Count(e.content, "\n") > truncHeadLines+truncTailLines {
				e.showContent = RepTruncated
			}
			if e.showsDiff() && diffLines(e.patch.Hunks) > diffCapLines {
				e.diffCap = diffCapLines
			}
			return true
		}},
		{name: "commit messages shortened to their subjects", global: true, order: subjectsOrder, apply: subjectsApply},
		{name: "diff context cut to 1 line", order: byCost(func(e *entry) bool { return e.showsDiff() && e.diffContext > 1 }),
			apply: func(e *entry) bool { e.diffContext = 1; return true }},
		{name: "diff context cut to 0 lines", order: byCost(func(e *entry) bool { return e.showsDiff() && e.diffContext > 0 }),
			apply: func(e *entry) bool { e.diffContext = 0; return true }},
		{name: "outlines and excerpts left out", order: byCost(func(e *entry) bool { return e.showContent != "" && e.showsDiff() }),
			apply: func(e *entry) bool { e.showContent = ""; return true }},
		{name: "directory structure left out", global: true, order: treeOrder, apply: treeApply},
		{name: "files listed by name only", order: byCost(func(e *entry) bool { return true }),
			apply: func(e *entry) bool { e.nameOnly = true; return true }},
	}
}
