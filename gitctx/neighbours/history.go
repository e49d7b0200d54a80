package neighbours

import (
	"context"
	"fmt"
	"math"

	"github.com/gitctx/gitctx/gitctx"
)

// History weights.
const (
	maxCommitFiles = 50  // commits touching more files (renames, formatting) say little
	halfLife       = 200 // a commit this many commits older weighs half as much
	maxLoneCommit  = 8   // a file that shared one commit only counts if that commit was this small

	maxHistoryCommits = 1000 // commits of the changed files read, at most: beyond the 1,000th a commit weighs under 3% (halfLife)
)

// history adds the files that changed together with the changed files,
// in the history before the change. A commit weighs more the more recent it
// is and the fewer files it touched.
func (f *finder) history(ctx context.Context) error {
	if f.pastCommits == nil {
		return nil
	}
	commits, err := f.pastCommits()
	if err != nil {
		return err
	}
	seeds := f.seeds()
	isSeed := map[string]bool{}
	for _, s := range seeds {
		isSeed[s] = true
	}
	weight := map[string]float64{}
	count := map[string]int{}
	smallest := map[string]int{} // files of the smallest commit a file shared
	for i, c := range commits {
		if len(c.Files) > maxCommitFiles || len(c.Files) < 2 {
			continue
		}
		w := math.Pow(0.5, float64(i)/halfLife) / math.Log2(1+float64(len(c.Files)))
		for _, p := range c.Files {
			if !isSeed[p] {
				weight[p] += w
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
		f.add(p, 0, w, fmt.Sprintf("changed together with the change's files in %d earlier commit%s", count[p], plural(count[p])))
		if c := f.cands[p]; c != nil {
			c.commits = count[p]
		}
	}
	return nil
}

// startHistory starts reading the history in the background, while the
// other signals are computed: `git log` takes its own process, and on a
// large repository as long as the import index.
func (f *finder) startHistory(ctx context.Context) {
	seeds := f.seeds()
	if len(seeds) == 0 || len(seeds) > 200 || f.opts.HistoryDepth < 0 {
		return // a change that large is its own context
	}
	type result struct {
		commits []gitctx.HistoryCommit
		err     error
	}
	done := make(chan result, 1)
	go func() {
		commits, err := f.ch.History(ctx, seeds, maxHistoryCommits, f.opts.HistoryDepth)
		done <- result{commits, err}
	}()
	f.pastCommits = func() ([]gitctx.HistoryCommit, error) {
		r := <-done
		return r.commits, r.err
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// patches are the change's patches: the caller's, or streamed once.
func (f *finder) patches(ctx context.Context) (map[*gitctx.File]*gitctx.Patch, error) {
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
