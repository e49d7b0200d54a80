package pack

// estimate is the pack's estimated size in tokens.
func (s *shaper) estimate() int { return s.files + s.fixed }

// reestimate recomputes every estimate, after a calibration or a global
// change.
func (s *shaper) reestimate() {
	s.files = 0
	for _, e := range s.v.Entries {
		c := s.entryCost(e)
		s.cost[e] = c
		s.files += c
	}
	s.fixed = 0
	for _, text := range s.fixedParts() {
		s.fixed += s.tokensOf(len(text))
	}
}

// update re-estimates one entry after it was shaped again.
func (s *shaper) update(e *entry) {
	e.invalidate()
	c := s.entryCost(e)
	s.saved += s.cost[e] - c
	s.files += c - s.cost[e]
	s.cost[e] = c
}

func (s *shaper) tokensOf(bytes int) int { return int(float64(estimate(bytes))*s.ratio) + 1 }

// fixedParts renders everything but the files, for an estimate.
func (s *shaper) fixedParts() []string {
	v, r := s.v, s.r
	parts := []string{r.head(v), r.manifest(v), r.change(v), r.focus(v), r.index(v), r.tail(v)}
	if v.ShowTree {
		parts = append(parts, treeText(v, r))
	}
	return parts
}

// entryCost is an entry's tokens as shaped now: exact when its segments
// are counted, else estimated from the bytes it would show.
func (s *shaper) entryCost(e *entry) int {
	if !e.included() || e.nameOnly {
		return 0
	}
	n := 0
	if e.showsDiff() {
		if e.diffSeg != nil && e.diffSeg.tokens >= 0 {
			n += e.diffSeg.tokens
		} else {
			n += s.tokensOf(headingBytes + diffBytes(e))
		}
	}
	if e.showContent != "" {
		if e.contentSeg != nil && e.contentSeg.tokens >= 0 {
			n += e.contentSeg.tokens
		} else {
			n += s.tokensOf(headingBytes + e.shownBytes())
		}
	}
	return n
}

// diffBytes is the length of the diff an entry would show.
func diffBytes(e *entry) int {
	hunks := e.patch.Hunks
	if e.diffContext < 3 {
		hunks = withContext(hunks, e.diffContext)
	}
	n, lines := 0, 0
	for _, h := range hunks {
		n += 24 + len(h.Section)
		lines++
		for _, l := range h.Lines {
			n += len(l.Text) + 2
			lines++
		}
	}
	if e.diffCap > 0 && lines > e.diffCap {
		n = n * e.diffCap / lines
	}
	return n
}
