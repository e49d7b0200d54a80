package neighbours

import (
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
)

// History weights.
const (
	maxCommitFiles = 50  // commits touching more files (renames, formatting) say little
	halfLife       = 200 // a commit this many commits older weighs half as much…
	recentHalfLife = 30  // …and the most recent ones count twice: work in progress changes the same files
	maxLoneCommit  = 8   // a file that shared one commit only counts if that commit was this small

	maxHistoryCommits = 300 // commits of the changed files read, at most (see history)

	// sameEntityWeight multiplies the weight of a commit that changed the
	// same part of a changed file as the change (see sameEntity).
	sameEntityWeight = 2
)

// history adds the files that changed together with the changed files,
// in the history before the change. A commit weighs more the more recent it
// is and the fewer files it touched. Recency counts twice over: slowly
// (halfLife), and sharply for the last few dozen commits (recentHalfLife),
// which are most often the same piece of work as the change. Measured on
// the tuning repositories (two samplings of 40 commits each), the sharp
// term raised hit@3 by 0 to 0.05 and MRR by 0.003 to 0.022, and moved
// recall@10 by 0.012 or less either way.
//
// At most maxHistoryCommits commits are read: 100, 200, 300 and 1,000
// ranked the tuning samples alike (hit@3 within 0.025), while on
// terraform's last 10 commits (85 files) `git log` needs 0.15 s for 300
// and 0.48 s for 1,000, walking 80µs a commit to find them.
//
// A commit that changed the same part of a changed file as the change (a
// definition of the same name, or lines near the changed ones) counts
// sameEntityWeight times, after ROSE's co-change of functions rather than
// files (Zimmermann et al., 2004). On the six tuning repositories (420
// samples) it ranked the first right file higher in 31 samples and lower
// in 9: hit@3 +0.02 in the mean, recall@10 and MRR +0.006 and +0.009;
// weights 3 and 4 gained less hit@3, and ranking every such file above
// the others nothing (docs/neighbours.md, eighth round).
func (f *finder) history(ctx context.Context) error {
	if f.pastCommits == nil {
		return nil
	}
	commits, err := f.pastCommits()
	if err != nil {
		return err
	}
	same, err := f.sameEntity(ctx)
	if err != nil {
		return err
	}
	isSeed := f.historySeeds()
	entityCount := map[string]int{}
	weight := map[string]float64{}
	count := map[string]int{}
	smallest := map[string]int{} // files of the smallest commit a file shared
	inCommit := map[string]bool{}
	for i, c := range commits {
		if len(c.Files) > maxCommitFiles || len(c.Files) < 2 {
			continue
		}
		hit := same[c.SHA]
		w := commitWeight(i, len(c.Files), hit) * seedsTouched(c.Files, isSeed)
		clear(inCommit)
		for _, p := range c.Files {
			if p = f.movedTo(p); p != "" && !isSeed[p] && !inCommit[p] {
				inCommit[p] = true // a move lists the old path and the new
				weight[p] += w
				if hit {
					entityCount[p]++
				}
				count[p]++
				if smallest[p] == 0 || len(c.Files) < smallest[p] {
					smallest[p] = len(c.Files)
				}
			}
		}
	}
	for p, w := range weight {
		if count[p] < 2 && smallest[p] > maxLoneCommit {
			continue // once, in a big commit, is chance
		}
		f.add(p, 0, w, historyReason(count[p], entityCount[p]))
		if c := f.cands[p]; c != nil {
			c.commits = count[p]
		}
	}
	return nil
}

// seedsTouched is the factor of a commit's weight for the changed files
// it touched: the square of their number. A commit that changed two of the
// change's files together is more like the change than one that changed
// either alone (ROSE's rules with more than one file on their left side,
// Zimmermann et al., 2004). Replayed over half the files of 600 commits of
// ten repositories, the means of hit@3, recall@10 and MRR rose by +0.008,
// +0.009 and +0.003 (by the number alone, +0.007, +0.004, +0.003;
// docs/neighbours.md, twentieth round). A change of one file weighs every
// commit as before.
func seedsTouched(files []string, isSeed map[string]bool) float64 {
	n := 0
	for _, p := range files {
		if isSeed[p] {
			n++
		}
	}
	n = max(n, 1)
	return float64(n * n)
}

// historySeeds is the set of the changed files whose history is read: the
// seeds, and the quiet seeds. They are never neighbours of their own.
func (f *finder) historySeeds() map[string]bool {
	out := map[string]bool{}
	for _, s := range slices.Concat(f.seeds(), f.quietSeeds()) {
		out[s] = true
	}
	return out
}

// historyReason says how many earlier commits a file shared with the
// changed files, and in how many of them the same code changed.
func historyReason(commits, sameCode int) string {
	r := fmt.Sprintf("changed together with the change's files in %d earlier commit%s", commits, plural(commits))
	switch {
	case sameCode == commits:
		r += ", in the same code"
	case sameCode > 0:
		r += fmt.Sprintf(", %d of them in the same code", sameCode)
	}
	return r
}

// commitWeight is the weight of the i-th commit of the history (0: the
// most recent) of files files.
func commitWeight(i, files int, sameEntity bool) float64 {
	w := (math.Pow(0.5, float64(i)/halfLife) + math.Pow(0.5, float64(i)/recentHalfLife)) / math.Log2(1+float64(files))
	if sameEntity {
		w *= sameEntityWeight
	}
	return w
}

// movedTo returns the path a file of the history has now: its own, or,
// for a file that no longer exists, the one file whose path ends with it
// or that it ends with (requests/sessions.py moved to
// src/requests/sessions.py, or back); "" when there is none, or more than
// one.
func (f *finder) movedTo(p string) string {
	if _, ok := f.files[p]; ok {
		return p
	}
	if to, ok := f.moved[p]; ok {
		return to
	}
	if f.byBase == nil {
		f.byBase = map[string][]string{}
		for q := range f.files {
			f.byBase[path.Base(q)] = append(f.byBase[path.Base(q)], q)
		}
	}
	to := ""
	for _, q := range f.byBase[path.Base(p)] {
		if strings.HasSuffix(q, "/"+p) || strings.HasSuffix(p, "/"+q) {
			if to != "" {
				to = "" // more than one: no telling which
				break
			}
			to = q
		}
	}
	f.moved[p] = to
	return to
}

// startHistory starts reading the history in the background, while the
// other signals are computed: `git log` takes its own process, and on a
// large repository as long as the import index. For a change of few files
// it then reads the parts of them each of those commits changed (see
// sameEntity).
func (f *finder) startHistory(ctx context.Context) {
	seeds := f.seeds()
	all := slices.Concat(seeds, f.quietSeeds())
	if len(all) == 0 || len(seeds) > 200 || f.opts.HistoryDepth < 0 {
		return // a change that large is its own context
	}
	type result struct {
		commits []gitctx.HistoryCommit
		err     error
	}
	type hunks struct {
		commits []gitctx.HunkCommit
		err     error
	}
	done := make(chan result, 1)
	hunksDone := make(chan hunks, 1)
	go func() {
		commits, err := f.ch.History(ctx, all, maxHistoryCommits, f.opts.HistoryDepth)
		done <- result{commits, err}
		if err != nil || len(seeds) == 0 || len(seeds) > maxEntitySeeds {
			hunksDone <- hunks{}
			return
		}
		shas := make([]string, len(commits))
		for i, c := range commits {
			shas[i] = c.SHA
		}
		hc, err := f.ch.HunkHistory(ctx, seeds, shas)
		hunksDone <- hunks{hc, err}
	}()
	f.pastCommits = sync.OnceValues(func() ([]gitctx.HistoryCommit, error) {
		r := <-done
		return r.commits, r.err
	})
	f.pastHunks = sync.OnceValues(func() ([]gitctx.HunkCommit, error) {
		r := <-hunksDone
		return r.commits, r.err
	})
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// patches are the change's patches: the caller's, or streamed once. The
// names' search and the lock files may both ask; WaitPatches answers once.
func (f *finder) patches(ctx context.Context) (map[*gitctx.File]*gitctx.Patch, error) {
	f.patchesOnce.Do(func() { f.patchList, f.patchErr = f.readPatches(ctx) })
	return f.patchList, f.patchErr
}

func (f *finder) readPatches(ctx context.Context) (map[*gitctx.File]*gitctx.Patch, error) {
	if f.opts.WaitPatches != nil {
		return f.opts.WaitPatches()
	}
	if f.opts.Patches != nil {
		return f.opts.Patches, nil
	}
	out := map[*gitctx.File]*gitctx.Patch{}
	err := f.ch.Patches(ctx, func(c *gitctx.File) bool { return c.Status != gitctx.Deleted }, 1<<20,
		func(c *gitctx.File, p *gitctx.Patch) error {
			out[c] = p
			return nil
		})
	return out, err
}
