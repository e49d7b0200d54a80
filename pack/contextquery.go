package pack

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sort"
)

// addQuery adds the files that best match a description: the repository's
// tracked text files, ranked with BM25 over their paths, identifiers and
// text, the best QueryLimit with a score above zero. Files the rules
// exclude, binary files and files over the size limit are not ranked.
func (g *gatherer) addQuery(ctx context.Context, q string) error {
	qterms := queryTerms(q)
	if len(qterms) == 0 {
		return nil
	}
	want := make(map[string]bool, len(qterms))
	for _, t := range qterms {
		want[t] = true
	}
	paths, err := g.repo.ListFiles(ctx, false)
	if err != nil {
		return fmt.Errorf("list the files to rank: %w", err)
	}
	var cands []string
	for _, p := range paths {
		if g.b.opts.Rules.ExcludeReason(p, true) == "" && !underGit(p) {
			cands = append(cands, p)
		}
	}
	docs := make([]queryDoc, len(cands))
	ok := make([]bool, len(cands))
	idx := make([]int, len(cands))
	for i := range idx {
		idx[i] = i
	}
	err = parallel(ctx, idx, func(i int) error {
		text, isText := g.queryText(cands[i])
		if isText {
			docs[i], ok[i] = indexDoc(cands[i], text, want), true
		}
		return nil
	})
	if err != nil {
		return err
	}
	var ranked []queryDoc
	for i, d := range docs {
		if ok[i] {
			ranked = append(ranked, d)
		}
	}
	if g.addBest(ranked, bm25(ranked, qterms)) == 0 {
		g.b.warn("", ProblemNoMatch, "--context-query matched no file the pack does not hold already: it added no context (try other words)")
	}
	return nil
}

// queryText reads a file to rank: a regular text file within the size
// limit, or nothing.
func (g *gatherer) queryText(p string) (string, bool) {
	info, err := g.fsys.Lstat(filepath.FromSlash(p))
	if err != nil || !info.Mode().IsRegular() || info.Size() > g.opts.MaxFileBytes {
		return "", false
	}
	_, data, err := g.b.readWorktree(p, g.opts.MaxFileBytes)
	if err != nil {
		return "", false
	}
	d := decode(data)
	return d.Text, d.Kind == KindText
}

// addBest adds the best-scoring files not in the pack yet, the best first,
// with their score as the reason, and says how many it added.
func (g *gatherer) addBest(docs []queryDoc, scores []float64) int {
	order := make([]int, 0, len(docs))
	for i := range docs {
		if scores[i] > 0 && !g.seen[docs[i].path] {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		if scores[order[a]] != scores[order[b]] {
			return scores[order[a]] > scores[order[b]]
		}
		return docs[order[a]].path < docs[order[b]].path
	})
	for _, i := range order[:min(len(order), g.opts.QueryLimit)] {
		p := docs[i].path
		score := math.Round(scores[i]*100) / 100
		g.seen[p] = true
		e := g.add(p, fmt.Sprintf("query score %.2f", score))
		e.score = &score
		g.read(e, false)
	}
	return min(len(order), g.opts.QueryLimit)
}
