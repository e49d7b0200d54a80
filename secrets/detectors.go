package secrets

import (
	"sync"
	"sync/atomic"

	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// newDetector is a gitleaks detector of the rules that decodes depth
// rounds.
func newDetector(cfg config.Config, depth int) *detect.Detector {
	d := detect.NewDetector(cfg)
	d.MaxDecodeDepth = depth
	d.IgnoreGitleaksAllow = true // an author's comment must not open the gate
	return d
}

// detectors are a gate's gitleaks detectors: plain (every rule) scans a
// text that nothing in decodes (see mayDecode), decoding every other text
// (with the rules that never decode, see decodedRule, alone in their regions).
// Past the first skipAfter bytes, a text that some costly rules cannot
// match (see costlyRules) is scanned by cheap, without them, and by each
// of the others alone (the generic rule in its regions only). All but
// plain are built when first needed.
type detectors struct {
	plain    *detect.Detector
	decoding func() *detect.Detector
	costly   []costlyRule
	cheap    func() *detect.Detector   // every rule but the costly ones
	alone    []func() *detect.Detector // each costly rule alone
	// undecoded are the costly rules that never decode (see decodedRule):
	// decoding leaves them out, and they are run in their regions.
	undecoded []int
	// skippable counts the bytes of the texts some costly rule cannot
	// match, scanned so far (see passesFor).
	skippable *atomic.Int64
}

// skipAfter is how many bytes of text a costly rule cannot match are
// scanned by plain before the other detectors are built. Building cheap
// costs about 1.4 ms (it indexes every rule's keywords); plain runs the
// generic rule over a whole text wherever one of its words is, at about
// 0.23 ms a KB, where alone it reads only the lines that may hold a match.
// A small scan (a commit's added lines in the pre-commit hook) never
// builds them. With 64 KB, the generic rule took 16 ms of a pack of
// terraform's last 10 commits, 7 ms with 8 KB.
const skipAfter = 8 << 10

func newDetectors(cfg config.Config) detectors {
	ds := detectors{
		plain:     newDetector(cfg, 0),
		costly:    activeCostly(cfg),
		skippable: new(atomic.Int64),
	}
	isCostly := map[string]bool{}
	for i, c := range ds.costly {
		isCostly[c.id] = true
		ds.alone = append(ds.alone, sync.OnceValue(func() *detect.Detector {
			return newDetector(keepRules(cfg, func(id string) bool { return id == c.id }), 0)
		}))
		if !decodedRule(c.id) {
			ds.undecoded = append(ds.undecoded, i)
		}
	}
	ds.decoding = sync.OnceValue(func() *detect.Detector {
		return newDetector(keepRules(cfg, func(id string) bool { return decodedRule(id) || !isCostly[id] }), decodeDepth)
	})
	ds.cheap = sync.OnceValue(func() *detect.Detector {
		return newDetector(keepRules(cfg, func(id string) bool { return !isCostly[id] }), 0)
	})
	return ds
}

// pass is one detector's scan of a text: of the whole, or of the regions
// where the detector's one rule can match.
type pass struct {
	d       *detect.Detector
	regions func(text string) []region
}

// passesFor picks the detectors for a text. Every choice finds the same:
// a costly rule is left out only where it cannot match, and every rule
// is in one detector of the choice.
func (ds detectors) passesFor(text string) []pass {
	if mayDecode(text) {
		out := []pass{{d: ds.decoding()}}
		for _, i := range ds.undecoded {
			if ds.costly[i].mayHold(text) {
				out = append(out, pass{ds.alone[i](), ds.costly[i].regions})
			}
		}
		return out
	}
	var may []int
	for i, c := range ds.costly {
		if c.mayHold(text) {
			may = append(may, i)
		}
	}
	if len(may) == len(ds.costly) || ds.skippable.Add(int64(len(text))) <= skipAfter {
		return []pass{{d: ds.plain}}
	}
	out := []pass{{d: ds.cheap()}}
	for _, i := range may {
		out = append(out, pass{ds.alone[i](), ds.costly[i].regions})
	}
	return out
}
