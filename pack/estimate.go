package pack

import (
	"iter"

	"github.com/gitctx/gitctx/gitctx"
)

// estimate is the pack's estimated size in tokens.
func (s *shaper) estimate() int { return s.files + s.fixed }

// reestimate recomputes every estimate, after a calibration or a global
// change.
func (s *shaper) reestimate() {
	s.reestimateFiles()
	s.fixed = 0
	for _, text := range s.fixedParts() {
		s.fixed += s.tokensOf(len(text))
	}
}

// reestimateFiles recomputes every entry's estimate.
func (s *shaper) reestimateFiles() {
	s.files = 0
	for _, e := range s.v.Entries {
		c := s.entryCost(e)
		s.cost[e] = c
		s.files += c
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
	n, lines := e.diffSize()
	if e.diffCap > 0 && lines > e.diffCap {
		n = n * e.diffCap / lines
	}
	return n
}

// diffOverCap reports whether the entry's diff, as it would be shown now
// (a lock's with its like lines counted), is longer than a cut diff keeps.
func (e *entry) diffOverCap() bool {
	_, lines := e.diffSize()
	return lines > diffCapLines
}

// diffSize is the length and the lines of the entry's diff with its
// context lines, uncut. The shaper asks again and again, for every entry
// and after every step: the answer for each number of context lines is
// worked out once (40 ms of CPU for terraform's last 1,000 commits).
func (e *entry) diffSize() (n, lines int) {
	size := hunkSize
	if e.generated == genLock {
		size = lockDiffSize
	}
	if e.diffContext < 0 || e.diffContext >= len(e.diffSizes) {
		return size(e.patch.Hunks, e.diffContext)
	}
	m := &e.diffSizes[e.diffContext]
	if !m.known {
		m.bytes, m.lines = size(e.patch.Hunks, e.diffContext)
		m.known = true
	}
	return m.bytes, m.lines
}

// hunkSize is the length and the lines of hunks shown with context lines:
// those of withContext(hunks, context), worked out without building them
// (re-cutting every hunk of a large change made a third of the shaper's
// garbage).
func hunkSize(hunks []gitctx.Hunk, context int) (n, lines int) {
	for _, h := range hunks {
		if context >= 3 {
			n += 24 + len(h.Section)
			lines++
			for _, l := range h.Lines {
				n += len(l.Text) + 2
			}
			lines += len(h.Lines)
			continue
		}
		hn, hl := recutSize(h, context)
		n += hn
		lines += hl
	}
	return n, lines
}

// recutSize is the length and the lines of the hunks withContext cuts h
// into: the lines within n of a change, each run of them a hunk with its
// header.
func recutSize(h gitctx.Hunk, n int) (size, lines int) {
	for i, first := range keptLines(h, n) {
		if first {
			size += 24 + len(sectionOf(h.Lines[:i], h.Section))
			lines++
		}
		size += len(h.Lines[i].Text) + 2
		lines++
	}
	return size, lines
}

// recutSections adds the section of each hunk withContext cuts h into,
// without building them: the gate sees every header a pack may show
// (re-cutting the hunks three times was 4 ms of the CPU of a warm run over
// prometheus' last 100 commits).
func recutSections(h gitctx.Hunk, n int, add func(string)) {
	for i, first := range keptLines(h, n) {
		if first {
			add(sectionOf(h.Lines[:i], h.Section))
		}
	}
}

// keptLines yields the index of each line of h that withContext keeps
// with n lines of context (those within n lines of a change), and whether
// it starts a hunk.
func keptLines(h gitctx.Hunk, n int) iter.Seq2[int, bool] {
	return func(yield func(int, bool) bool) {
		last, next := -1<<30, 0 // the change at or before i, at or after i
		inRun := false
		for i, l := range h.Lines {
			if l.Op != ' ' {
				last = i
			}
			for next < len(h.Lines) && (next < i || h.Lines[next].Op == ' ') {
				next++
			}
			keep := i-last <= n || (next < len(h.Lines) && next-i <= n)
			if keep && !yield(i, !inRun) {
				return
			}
			inRun = keep
		}
	}
}
