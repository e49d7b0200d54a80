package neighbours

import (
	"maps"
	"math"
	"slices"
	"sort"
)

// Tiers of the score: a file's tier is set by its strongest relation; the
// fraction within a tier ranks files of one tier by the rest of the
// evidence.
const (
	tierTest    = 3.0 // a paired test, or the code a changed test covers
	tierRelated = 2.0 // history, imports, references
	tierSibling = 1.0 // only in the same directory
)

// candidate gathers the evidence for one file.
type candidate struct {
	path     string
	direct   float64            // test, import and reference weight
	bySeed   map[string]float64 // the part of direct each changed file gave (see strongest)
	unseeded float64            // the part of direct no changed file gave alone
	history  float64            // co-change weight
	commits  int                // earlier commits shared with the changed files
	words    float64            // shared words of the changed lines (see words)
	twins    float64            // removed lines the file still holds (see removed)
	alike    float64            // changed in the earlier commits most like the change (see alike)
	sibling  bool
	reasons  []string
	pins     int      // dependencies it pins at a version the change moves from (see pins)
	lock     bool     // a lock file: of a changed manifest (see locks), or holding pins
	paired   bool     // the lock of a changed manifest, or the go.mod of a changed go.sum
	focus    []string // the package names its excerpt is cut to
	names    []string // the names of code it shares with the change (see Neighbour.Names)
	shared   []string // the uncommon words of the changed lines it uses, rarest first (see words)
	imported []string // the names a Go import relation shares with it (see goRelations)
}

// maxNames bounds the names a candidate keeps for its excerpt.
const maxNames = 8

// addName keeps a name of code the candidate shares with the change.
func (c *candidate) addName(name string) {
	if len(c.names) < maxNames && !slices.Contains(c.names, name) {
		c.names = append(c.names, name)
	}
}

// excerptNames are the names a pack's excerpt of the candidate is about,
// at most maxNames: the names of code on the changed lines first, then the
// shared words of the changed lines, then the names its imports share.
func (c *candidate) excerptNames() []string {
	out := slices.Clone(c.names)
	for _, w := range slices.Concat(c.shared, c.imported) {
		if len(out) < maxNames && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// score ranks a candidate: its tier, and within the tier a fraction for the
// rest of its evidence. maxHistory is the largest history weight of all
// candidates, mostPins the most pins any holds.
//
// A file that pins what the change moves ranks by its share of the pins
// before its history: a module that requires all four dependencies a bump
// moves is one the bump changes, one that requires one of them (moved
// along as another's requirement) often is not, however often it changed
// with the change's files. A changed manifest's own lock (and a changed
// lock's own go.mod) ranks above them all: it is sure to change with it.
func (c *candidate) score(maxHistory float64, mostPins int) float64 {
	spread := func(x float64) float64 { return x / (x + 1) } // 0 ≤ … < 1
	switch {
	case c.pins > 0:
		share, own := float64(c.pins)/float64(mostPins), 0.0
		if c.paired {
			share, own = 1, 0.1 // it moves every pin its partner moves: above them all
		}
		return tierTest + 0.8*share + own + 0.09*spread(c.history)
	case c.strongest() >= weightTest:
		return tierTest + 0.5*spread(c.direct) + 0.49*spread(c.history)
	case c.history > 0 || c.direct > 0 || c.words > 0 || c.twins > 0 || c.alike > 0:
		h := 0.0
		if maxHistory > 0 {
			h = historyScale * c.history / maxHistory
		}
		return tierRelated + 0.99*spread(h+directShare*c.direct+c.words+c.twins+c.alike)
	}
	return tierSibling
}

// addDirect adds direct evidence that seed, a changed file, gave alone;
// with seed "", evidence no changed file gave alone.
func (c *candidate) addDirect(seed string, w float64) {
	c.direct += w
	switch {
	case seed == "":
		c.unseeded += w
	case c.bySeed == nil:
		c.bySeed = map[string]float64{seed: w}
	default:
		c.bySeed[seed] += w
	}
}

// strongest is the direct evidence that ranks a file with the paired
// tests: the tests and imports of one changed file, with the evidence of
// the changed lines themselves (the names they define, use or stop
// using), which adds up whichever changed file holds them. The imports of
// several changed files do not add up to a test's: a package that every
// changed file imports is a hub, not the file a change of them changes (on
// commits whose change was replayed over half their files, such hubs took
// the first places from the files that history and the like changes
// named; docs/neighbours.md, twentieth round). A file that defines what
// the changed lines of two files call is another matter: it stays there.
func (c *candidate) strongest() float64 {
	if len(c.bySeed) < 2 {
		return c.direct
	}
	return c.unseeded + slices.Max(slices.Collect(maps.Values(c.bySeed)))
}

// historyScale is what the history of the file that changed most with the
// change's files weighs beside imports, references and shared words; the
// others weigh in proportion. A changed file with a long history links many
// files by many commits, one with a short history few: measured in
// absolute terms, history drowned the other evidence of the first and
// hardly counted for the second. On the eight tuning repositories (two
// samplings, 1,080 samples) weighing it against the best moved the means
// of hit@3 by +0.016 and +0.009, of recall@10 by -0.001 and +0.014, of MRR
// by +0.010 and +0.014; scales of 2.5 to 4 ranked within 0.01 of 3
// (docs/neighbours.md, tenth round).
const historyScale = 3.0

// directShare is what an import or a reference adds to the evidence of
// history. Measured on real commits (see README, "Neighbours"), ranking
// every import above every file linked by history cost 0.05 to 0.20 of
// hit@3 against a plain co-change ranking: a file a registry imports, or
// one of many importers, is weaker evidence than a file that keeps
// changing with the seed. Imports and references therefore add to
// history, and break its ties; only a paired test outranks it.
const directShare = 0.2

// ranked orders the candidates by score, then by path, and keeps Max.
func (f *finder) ranked() []Neighbour {
	maxHistory, mostPins := 0.0, 0
	for _, c := range f.cands {
		maxHistory, mostPins = max(maxHistory, c.history), max(mostPins, c.pins)
	}
	var out []Neighbour
	for _, c := range f.cands {
		if f.guide[c.path] && c.direct == 0 && c.words == 0 && c.twins == 0 && c.commits < 2 {
			continue // a guide beside a changed file, or added with it, is offered as a guide
		}
		out = append(out, Neighbour{Path: c.path, Score: round(c.score(maxHistory, mostPins)), Reasons: c.reasons, Lock: c.lock, Focus: c.focus, Names: c.excerptNames()})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Path < out[j].Path
	})
	if len(out) > f.opts.Max {
		out = out[:f.opts.Max]
	}
	return out
}

func round(x float64) float64 { return math.Round(x*1000) / 1000 }
