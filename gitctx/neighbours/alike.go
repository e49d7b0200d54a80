package neighbours

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gitctx/gitctx/gitctx"
)

// Like changes: of the earlier commits of the changed files, the few whose
// changed lines use the words the change's changed lines use, the rarer
// the word in that history the more it counts. A bump of the Go version in
// go.mod is like the earlier bumps, which changed the CI workflows too, and
// unlike the dependency updates that make up most of go.mod's history; a
// new rule registered in a list is like the earlier rules registered there.
// The files those commits changed gain weight beside their history.
//
// On the eight tuning repositories (two samplings, 1,080 samples;
// docs/neighbours.md, fourteenth round) the means of hit@3, recall@10 and
// MRR rose from 0.817 / 0.787 / 0.716 to 0.831 / 0.799 / 0.727 and from
// 0.804 / 0.803 / 0.709 to 0.808 / 0.810 / 0.718; on the four held out,
// pooled over five samplings, hit@3 by 0.010 to 0.044 and recall@10 by
// 0.009 to 0.013. In a replay, 3, 8 or 12 commits ranked within 0.005 of
// 5 (the sum of the six means), weights of 1 and 3 within 0.016 of 2, and
// a floor on likeness (0.05 to 0.3) lower.
const (
	maxAlikeCommits = 5   // the most like earlier commits whose files gain weight
	weightAlike     = 2.0 // what the file most changed in them adds; the others in proportion
)

// alike adds weight to the candidates that the earlier commits most like
// the change changed too. It needs the changed lines of those commits, read
// with the parts of a change of at most maxEntitySeeds files (see
// startHistory).
func (f *finder) alike(ctx context.Context) error {
	if f.pastHunks == nil || f.pastCommits == nil {
		return nil
	}
	past, err := f.pastHunks()
	if err != nil || len(past) == 0 {
		return err
	}
	commits, err := f.pastCommits()
	if err != nil {
		return err
	}
	patches, err := f.patches(ctx)
	if err != nil {
		return err
	}
	var changed []byte
	for l := range seedLines(f.seeds(), f.ch.Files, patches) {
		changed = append(append(changed, l.Text...), '\n')
	}
	weight, via := f.alikeWeights(mostAlike(changed, past), commits)
	best := 0.0
	for _, w := range weight {
		best = max(best, w)
	}
	for p, w := range weight {
		if c := f.cands[p]; c != nil && w > 0 {
			c.alike = weightAlike * w / best
			f.record(p, 0, 0, fmt.Sprintf("changed in %s, an earlier commit with a like change", gitctx.ShortID(via[p])))
		}
	}
	return nil
}

// alikeWeights weighs the files of the like commits: each commit as
// history weighs it, times its likeness. via is the most like commit that
// changed a file.
func (f *finder) alikeWeights(like []likeCommit, commits []gitctx.HistoryCommit) (weight map[string]float64, via map[string]string) {
	index := make(map[string]int, len(commits))
	for i, c := range commits {
		index[c.SHA] = i
	}
	isSeed := f.historySeeds()
	weight, via = map[string]float64{}, map[string]string{}
	for _, m := range like {
		i, ok := index[m.sha]
		if !ok || len(commits[i].Files) > maxCommitFiles {
			continue
		}
		w := commitWeight(i, len(commits[i].Files), false) * m.likeness
		for _, p := range commits[i].Files {
			if p = f.movedTo(p); p != "" && !isSeed[p] {
				weight[p] += w
				if via[p] == "" {
					via[p] = m.sha
				}
			}
		}
	}
	return weight, via
}

// likeCommit is an earlier commit and how like the change it is.
type likeCommit struct {
	sha      string
	likeness float64
}

// mostAlike returns the maxAlikeCommits commits of past whose changed
// words (likeWords) are most like those of changed, the change's changed
// lines, most like first (more on a tie at the last place), none with no
// word in common. Likeness is the cosine of the two sets of words, each
// word weighed by its rarity in past: ln((N+1)/(n+1)) for a word that n
// of the N commits use. A word that every one of them uses tells none
// apart, and weighs nothing: when the change shares no other, no commit is
// like it.
func mostAlike(changed []byte, past []gitctx.HunkCommit) []likeCommit {
	var v vocabulary
	query := v.set(changed, nil)
	if len(query) == 0 {
		return nil
	}
	words := make([][]int32, len(past)) // each sorted: a sum of floats depends on its order
	for i, c := range past {
		words[i] = v.set(c.Changed, nil)
		slices.Sort(words[i])
		for _, w := range words[i] {
			v.users[w]++
		}
	}
	rarity := make([]float64, len(v.users))
	for w, n := range v.users {
		r := math.Log(float64(len(past)+1) / float64(n+1))
		rarity[w] = r * r
	}
	norm := func(ws []int32) float64 {
		n := 0.0
		for _, w := range ws {
			n += rarity[w]
		}
		return math.Sqrt(n)
	}
	inQuery := make([]bool, len(v.users))
	for _, w := range query {
		inQuery[w] = true
	}
	slices.Sort(query)
	qn := norm(query)
	var out []likeCommit
	for i, c := range past {
		shared := 0.0
		for _, w := range words[i] {
			if inQuery[w] {
				shared += rarity[w]
			}
		}
		if shared > 0 {
			out = append(out, likeCommit{c.SHA, shared / (qn * norm(words[i]))})
		}
	}
	slices.SortStableFunc(out, func(a, b likeCommit) int { return cmp.Compare(b.likeness, a.likeness) })
	if len(out) > maxAlikeCommits {
		last := out[maxAlikeCommits-1].likeness
		n := maxAlikeCommits
		for n < len(out) && out[n].likeness == last {
			n++
		}
		out = out[:n]
	}
	return out
}

// vocabulary numbers the words of a comparison, in the order first seen,
// and counts the commits that use each.
type vocabulary struct {
	ids   map[string]int32
	users []int  // by id
	seen  []int  // by id: the last set (numbered from 1) that had the word
	sets  int    // sets made
	lower []byte // a buffer for a word in lower case
}

// set returns the distinct words of text, appended to ws.
func (v *vocabulary) set(text []byte, ws []int32) []int32 {
	if v.ids == nil {
		v.ids = map[string]int32{}
	}
	v.sets++
	likeWords(text, func(w []byte) {
		v.lower = v.lower[:0]
		for _, c := range w {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			v.lower = append(v.lower, c)
		}
		id, ok := v.ids[string(v.lower)]
		if !ok {
			id = int32(len(v.users))
			v.ids[string(v.lower)] = id
			v.users = append(v.users, 0)
			v.seen = append(v.seen, 0)
		}
		if v.seen[id] != v.sets {
			v.seen[id] = v.sets
			ws = append(ws, id)
		}
	})
	return ws
}

// likeWords calls fn with each word of text that likeness compares: a
// name of three characters or more, or one that holds a version number
// (1.22, go1.22.0, v3.0.1), which a bump of a version says and little else
// does. A word is a run of letters, digits, '_', and dots between digits.
func likeWords(text []byte, fn func([]byte)) {
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		j, dotted := i, false
		for j < len(text) && (isWordByte(text[j]) || text[j] == '.' && j > i && isDigit(text[j-1]) && j+1 < len(text) && isDigit(text[j+1])) {
			dotted = dotted || text[j] == '.'
			j++
		}
		if dotted || j-i >= 3 && !isDigit(text[i]) {
			fn(text[i:j])
		}
		i = j
	}
}
