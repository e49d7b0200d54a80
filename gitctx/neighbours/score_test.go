package neighbours

import (
	"cmp"
	"slices"
	"testing"
)

// TestScoreHistoryRelative: history counts in proportion to the file that
// changed most with the change's files, so the same evidence ranks alike
// whether the changed file has 5 past commits or 500, and shared words or
// a reference outweigh a small lead in history either way; a paired test
// stays first and a bare sibling last.
func TestScoreHistoryRelative(t *testing.T) {
	for _, scale := range []float64{0.5, 1, 10, 100} {
		cands := []*candidate{
			{path: "test", direct: weightTest, history: 1 * scale},
			{path: "most-history", history: 4 * scale},
			{path: "words", history: 3.5 * scale, words: weightWords},
			{path: "reference", history: 3.8 * scale, direct: weightDefinition},
			{path: "history", history: 3.9 * scale},
			{path: "words-only", words: 1},
			{path: "sibling", sibling: true},
		}
		maxHistory := 4 * scale
		slices.SortStableFunc(cands, func(a, b *candidate) int {
			return cmp.Compare(b.score(maxHistory, 0), a.score(maxHistory, 0))
		})
		var got []string
		for _, c := range cands {
			got = append(got, c.path)
		}
		want := []string{"test", "words", "reference", "most-history", "history", "words-only", "sibling"}
		if !slices.Equal(got, want) {
			t.Errorf("history ×%v: ranked %q, want %q", scale, got, want)
		}
	}
}

// TestScoreNoHistory: with no history at all, the other evidence ranks
// the files (no division by zero).
func TestScoreNoHistory(t *testing.T) {
	a := (&candidate{direct: weightImporter}).score(0, 0)
	b := (&candidate{words: 1}).score(0, 0)
	if !(a > tierRelated && b > a) {
		t.Errorf("scores without history: importer %v, words %v; want both above %v, words higher", a, b, tierRelated)
	}
}
