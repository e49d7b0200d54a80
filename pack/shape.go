package pack

import (
	"context"
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// Shaping limits.
const (
	diffCapLines    = 150 // a truncated diff keeps this many lines, head and tail
	exactCountSlack = 1.3 // count exactly once the estimate is within this factor of the limit
	headingBytes    = 64  // what a file's heading and fence add, for estimates
)

// shaper fits a pack to its budget: Full when everything fits, else
// Summary, degraded step by step until it does.
//
// Counting tokens exactly is the expensive part of packing (about 2 MB of
// text per CPU-second), so the shaper plans on estimates made from the
// model (bytes of what each entry would show, without rendering it) and
// renders and counts exactly only once the estimate is close to the limit.
// An exact count also calibrates the estimates that follow.
type shaper struct {
	v            *view
	r            renderer
	counter      Counter
	opts         Options
	fullPossible bool                                  // the builder kept whole contents
	prepare      func(context.Context, []*entry) error // puts entries through the gate before they are rendered
	riskKinds    func(*entry) []string                 // the kinds of risk a changed file's lines touch (see hotspots)
	reason       string

	cost    map[*entry]int // estimated (or exact) tokens of each entry as shaped now
	files   int            // sum of cost
	fixed   int            // estimated tokens of everything but the files
	ratio   float64        // exact tokens per estimated token, from the last exact count
	deficit int            // tokens over the limit at the last exact count
	saved   int            // estimated tokens saved since then
	least   int            // the smallest exact total seen

	memo map[string]*segment // key + text of a part other than the files → its segment (see fixedSegment)
}

// shape returns the pack's segments, within the budget.
func (s *shaper) shape(ctx context.Context) ([]*segment, error) {
	s.ratio, s.least = 1, -1
	s.cost = make(map[*entry]int, len(s.v.Entries))
	if s.opts.Mode != "summary" {
		for _, e := range s.v.Entries {
			initFull(e)
		}
		s.reestimate()
		segs, why, err := s.tryFull(ctx)
		if err == nil && segs == nil {
			segs, err = s.fullWithFewerExtras(ctx, &why)
		}
		if err != nil || segs != nil {
			s.reason = why
			return segs, err
		}
		if s.opts.Mode == "full" {
			return nil, fmt.Errorf("%w: --mode full was asked for, but %s (--split packs it whole in parts; --mode auto makes a summary)", ErrBudget, why)
		}
		s.reason = why + ", so the pack is a summary"
	} else {
		s.reason = "a summary pack was asked for (mode summary)"
	}
	s.v.Type = "summary"
	kindsOf := s.riskKinds
	if kindsOf == nil {
		kindsOf = riskKindsOf
	}
	s.v.Spots = hotspots(ctx, s.v.Entries, kindsOf) // listed in a Summary only
	for _, e := range s.v.Entries {
		initSummary(e)
	}
	s.reestimate()
	return s.fit(ctx)
}

// fullWithFewerExtras tries the Full pack again with the long diffs of
// generated files cut, then with its lowest-ranked neighbours and guide
// files left out, one at a time, and then the user's context files: the
// whole change with less context beats a Summary of it.
// When even none of them would not make it fit, it puts them all back for
// the Summary. why becomes the reason of the Full pack that fits.
func (s *shaper) fullWithFewerExtras(ctx context.Context, why *string) ([]*segment, error) {
	defer func() { s.deficit, s.saved = 0, 0 }()
	var dropped []*entry
	type taken struct {
		st step
		n  int
	}
	var done []taken // the steps taken whole
	for _, st := range []step{fewerGenerated(s.v), fewerExtras(s.v), fewerContext(s.v)} {
		order := st.order()
		for i, e := range order {
			st.apply(e)
			s.update(e)
			dropped = append(dropped, e)
			if s.deficit > 0 && s.saved < s.deficit {
				continue // the last exact count was over by more than this saves
			}
			segs, reason, err := s.tryFull(ctx)
			if err != nil {
				return nil, err
			}
			if segs != nil {
				for _, d := range done {
					s.noteStep(d.st, d.n)
				}
				s.noteStep(st, i+1)
				*why = reason
				return segs, nil
			}
		}
		if len(order) > 0 {
			done = append(done, taken{st, len(order)})
		}
	}
	for _, e := range dropped {
		e.excluded = ""
	}
	s.reestimate()
	return nil, nil
}

// initFull shows an entry whole: its diff and its content, or the head
// and tail of a content over the truncation limit. The diff of an added
// file is its content, so it is shown once, as content. A modified file
// written by a tool shows its diff alone (see diffOnly); an added one is
// shown as any other, so that nothing can hide in a file that calls itself
// generated.
func initFull(e *entry) {
	e.invalidate()
	e.showContent, e.diffContext, e.diffCap, e.nameOnly = "", 3, 0, false
	switch {
	case e.diffOnly():
	case e.oversize:
		e.showContent = RepTruncated
	case e.hasContent:
		e.showContent = RepFull
	}
	if gitctx.Status(e.status) == gitctx.Added && e.hasContent {
		e.diffContext = -1
	}
	if e.patch != nil && len(e.patch.Hunks) == 0 && !e.hasContent && e.diffContext >= 0 {
		e.diffContext = 3 // a mode or rename without content still states itself
	}
}

// initSummary keeps every hunk but shows outlines (or, for a long added
// file without one, its head and tail) instead of whole files.
func initSummary(e *entry) {
	initFull(e)
	switch {
	case !e.hasContent, e.diffOnly():
	case e.hasOutline:
		e.showContent = RepOutline
	case e.role != RoleChanged && e.long():
		e.showContent = RepTruncated
	case e.role != RoleChanged:
	case gitctx.Status(e.status) == gitctx.Added && e.long():
		e.showContent = RepTruncated
	case gitctx.Status(e.status) == gitctx.Added:
	default:
		e.showContent = ""
	}
}

// tryFull returns the Full pack when it fits, or why it does not.
func (s *shaper) tryFull(ctx context.Context) ([]*segment, string, error) {
	limit := s.opts.Budget.Limit
	var files, content int
	for _, e := range s.v.shown() {
		files++
		content += e.shownBytes() // whole, or the excerpt of a file over the truncation limit
	}
	// every limit a full pack is over, the budget first: the one a user
	// sets for a model
	var over []string
	if est := s.estimate(); float64(est) > exactCountSlack*float64(limit) {
		over = append(over, fmt.Sprintf("a full pack needs about %s tokens (estimated), the budget is %s", thousands(est), thousands(limit)))
	}
	if files > s.opts.MaxFiles {
		over = append(over, fmt.Sprintf("the change shows %s files, over max_files (%s)", thousands(files), thousands(s.opts.MaxFiles)))
	}
	if !s.fullPossible || int64(content) > s.opts.MaxContentBytes {
		over = append(over, fmt.Sprintf("the files' contents are over max_content_bytes (%s bytes)", thousands(int(s.opts.MaxContentBytes))))
	}
	if len(over) > 0 {
		return nil, strings.Join(over, "; "), nil
	}
	segs, total, err := s.assemble(ctx)
	if err != nil {
		return nil, "", err
	}
	if total > limit {
		s.deficit, s.saved = total-limit, 0
		return nil, fmt.Sprintf("a full pack needs %s tokens, the budget is %s", thousands(total), thousands(limit)), nil
	}
	return segs, fmt.Sprintf("the full pack fits: %s of %s tokens, %d file%s shown", thousands(total), thousands(limit), files, plural(files)), nil
}

// treeText is the directory structure of the files a view shows.
func treeText(v *view, r renderer) string {
	var paths []string
	for _, e := range v.shown() {
		paths = append(paths, e.label.String())
	}
	if len(paths) == 0 {
		return ""
	}
	return r.tree(v, paths)
}

// assemble renders the whole pack and counts it exactly. Only segments not
// counted before are counted. It also calibrates the estimates.
func (s *shaper) assemble(ctx context.Context) ([]*segment, int, error) {
	all, total, err := s.render(ctx, s.v)
	if err != nil {
		return nil, 0, err
	}
	if s.least < 0 || total < s.least {
		s.least = total
	}
	var bytes int
	for _, seg := range all {
		bytes += len(seg.str())
	}
	if est := estimate(bytes); est > 0 {
		s.ratio = float64(total) / float64(est)
	}
	s.reestimateFiles()
	s.fixed = total - s.files // counted: the fixed parts need no estimate
	return all, total, nil
}

// render renders a view (the pack, or one part of a split pack), puts
// every segment through the gate and counts it.
func (s *shaper) render(ctx context.Context, v *view) ([]*segment, int, error) {
	r := s.r
	if err := s.prepare(ctx, v.shown()); err != nil {
		return nil, 0, err
	}
	files := fileSegments(v, r)
	pre := []*segment{s.fixedSegment("manifest", r.manifest(v)), s.fixedSegment("change", r.change(v))}
	if f := r.focus(v); f != "" {
		pre = append(pre, s.fixedSegment("focus", f))
	}
	if err := s.settle(ctx, append(pre, files...)); err != nil {
		return nil, 0, err
	}
	mid := s.fixedSegments("index", r.index(v))
	if v.ShowTree {
		if t := treeText(v, r); t != "" {
			mid = append(mid, s.fixedSegments("tree", t)...)
		}
	}
	if err := s.settle(ctx, mid); err != nil {
		return nil, 0, err
	}
	body := append(append(pre, mid...), files...)
	v.Boundary = boundary(body)
	v.Redacted = 0
	for _, seg := range body {
		v.Redacted += len(seg.items)
	}
	head, tail := s.fixedSegment("head", r.head(v)), s.fixedSegment("tail", r.tail(v))
	if err := s.settle(ctx, []*segment{head, tail}); err != nil {
		return nil, 0, err
	}
	all := append(append([]*segment{head}, body...), tail)
	return all, sumTokens(all), nil
}

// fits checks the budget: by estimate while the estimate is far over it,
// exactly once it is close, and again only when enough was saved since the
// last exact count to make a difference.
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
			before := s.estimate()
			if !st.apply(e) {
				continue
			}
			applied++
			s.noteStep(st, applied)
			if st.global {
				s.reestimate()
				s.saved += before - s.estimate()
			} else {
				s.update(e)
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
	also := ""
	if s.opts.Format != Markdown {
		also = ", or use --format markdown, whose list of files costs about half as much"
	}
	return nil, fmt.Errorf("%w: even listing every file by name needs %s tokens, the budget is %s (raise --max-tokens to at least %s, or pack a smaller change%s)",
		ErrBudget, thousands(s.least), thousands(s.opts.Budget.Limit), thousands(s.least), also)
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

// settle checks segments with the gate and counts their tokens.
func (s *shaper) settle(ctx context.Context, segs []*segment) error {
	if err := s.gateSegments(ctx, segs); err != nil {
		return err
	}
	return countAll(ctx, s.counter, s.opts.Counts, segs)
}
