package gitctx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
)

// Spreading a range's patches over several git runs. Below minSplitFiles
// files, the runs' start costs more than they save (terraform's last 10
// commits, 82 files: 73 -> 81 ms packed again); above maxSplitFiles, git
// matching every file of both trees against that many paths does
// (prometheus' last 1,000 commits, 1,014 files: 392 -> 421 ms).
const (
	minSplitFiles     = 128
	maxSplitFiles     = 512
	splitWithoutPairs = 2 // runs for the files that are not renamed or copied
)

// patchGroups splits a range's files into groups whose patches separate
// `git diff` runs print, limited by pathspec, or returns nil when one run
// is better: one core, too few files or too many.
//
// Only renames and copies depend on the other files of a diff: git paired
// them while listing the range, among every file deleted and added. Their
// patches come from one run (-M) limited to the pairs' own paths, where
// each pair is again the best match of each side; every other file's
// patch is the same with renames off (--no-renames), so those files are
// cut, in git's order, into runs of about the same weight (what printing a
// file's patch costs, about), so that the runs end together. A run of
// files next to each other walks less of the trees than every other file
// does (terraform's last 100 commits, each run alone: 75 ms for the two
// halves in git's order, 81 for every other file).
func patchGroups(files []*File, weight func(*File) int64) [][]*File {
	if runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	if len(files) < minSplitFiles || len(files) > maxSplitFiles {
		return nil
	}
	var pairs, others []*File
	for _, f := range files {
		if f.OldPath != "" {
			pairs = append(pairs, f)
		} else {
			others = append(others, f)
		}
	}
	if len(others) < splitWithoutPairs {
		return nil
	}
	groups := cutByWeight(others, weight, splitWithoutPairs)
	if len(pairs) > 0 {
		groups = append(groups, pairs)
	}
	return groups
}

// cutByWeight cuts files, in their order, into n runs of about the same
// weight: each cut falls where the weight so far is nearest its share.
func cutByWeight(files []*File, weight func(*File) int64, n int) [][]*File {
	prefix := make([]int64, len(files)+1) // prefix[i]: the weight of files[:i]
	for i, f := range files {
		prefix[i+1] = prefix[i] + weight(f)
	}
	var runs [][]*File
	start := 0
	for j := 1; j < n; j++ {
		share := prefix[len(files)] * int64(j) / int64(n)
		end := start + 1 // every run holds a file, and leaves one for each run after it
		for end < len(files)-(n-j) && prefix[end+1]-share < share-prefix[end] {
			end++
		}
		runs = append(runs, files[start:end])
		start = end
	}
	return append(runs, files[start:])
}

// patchWeight is about what printing a file's patch costs git: reading
// both sides, taken to be as large as the file in the work tree, which
// mostly holds the range's head (a file not there weighs as a small one).
func (c *Change) patchWeight(f *File) int64 {
	const perFile = 4 << 10
	if c.repo.Bare {
		return 2 * perFile
	}
	if info, err := os.Lstat(filepath.Join(c.repo.Root, filepath.FromSlash(f.Path))); err == nil && info.Mode().IsRegular() {
		return perFile + 2*info.Size()
	}
	return 2 * perFile
}

// SpreadPatches has the patches the first Patches reads printed by
// several git runs at once (see patchGroups) instead of the one that
// listed the files, where there are enough of them. Printing patches is
// most of a range's diff (inflating both sides of every file, diffing
// them) and takes one core: call it when the other would wait for git.
// (On two cores, prometheus' last 100 commits' patches took 50 ms instead
// of 77; where both cores are busy anyway, the runs' overhead made packs
// 4 to 13 ms slower.) It reports whether it did.
func (c *Change) SpreadPatches(ctx context.Context) bool {
	c.pendingMu.Lock()
	defer c.pendingMu.Unlock()
	if len(c.pending) != 1 || c.pending[0].files != nil || len(c.diffArgs) != 2 {
		return false
	}
	groups := patchGroups(c.Files, c.patchWeight)
	if groups == nil {
		return false
	}
	split, err := c.repo.startGroups(ctx, c.diffArgs[0], c.diffArgs[1], groups)
	if err != nil {
		return false // the listing's run prints them
	}
	_ = c.pending[0].finish(errSpread)
	c.pending = split
	return true
}

// errSpread stops a listing's run whose patches other runs print.
var errSpread = errors.New("patches printed by several runs")

// startGroups starts the `git diff -p` of each group (see patchGroups).
func (r *Repo) startGroups(ctx context.Context, base, head string, groups [][]*File) ([]*pendingPatches, error) {
	var started []*pendingPatches
	for _, g := range groups {
		flags := diffFlags
		if g[0].OldPath == "" { // a group of files neither renamed nor copied
			flags = slices.Clone(diffFlags)
			flags[slices.Index(flags, "-M")] = "--no-renames"
		}
		args := append(append([]string{"diff", "-p"}, patchFlags...), flags...)
		args = append(args, base, head, "--")
		for _, f := range g {
			if f.OldPath != "" {
				args = append(args, f.OldPath)
			}
			args = append(args, f.Path)
		}
		p, err := r.git.start(ctx, nil, args...)
		if err != nil {
			for _, pp := range started {
				_ = pp.finish(err)
			}
			return nil, fmt.Errorf("print the diff: %w", err)
		}
		started = append(started, newPending(p, g))
	}
	return started, nil
}

// readGroups reads the patches of several runs (see patchGroups) at once,
// and calls fn for each wanted file in the order of files, from the
// goroutine that called it, as Patches does.
func readGroups(ctx context.Context, pps []*pendingPatches, files []*File, want func(*File) bool, maxBytes int64, fn func(*File, *Patch) error) error {
	wanted := make(map[*File]bool, len(files))
	for _, f := range files {
		wanted[f] = want(f)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		f *File
		p *Patch
	}
	results := make(chan result, 64)
	done := make(chan error, len(pps))
	for _, pp := range pps {
		go func() {
			err := splitPatches(ctx, pp.rd, pp.files, func(f *File) bool { return wanted[f] }, maxBytes, func(f *File, p *Patch) error {
				select {
				case results <- result{f, p}:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			})
			done <- pp.finish(err)
		}()
	}
	got := make(map[*File]*Patch)
	next, running := 0, len(pps)
	var first error
	emit := func(all bool) error {
		for ; next < len(files); next++ {
			f := files[next]
			p, ok := got[f]
			switch {
			case !wanted[f]:
			case ok:
				delete(got, f)
				if err := fn(f, p); err != nil {
					return err
				}
			case !all:
				return nil // still to come
			}
		}
		return nil
	}
	for running > 0 {
		select {
		case r := <-results:
			got[r.f] = r.p
			if first == nil {
				if err := emit(false); err != nil {
					first = err
					cancel()
				}
			}
		case err := <-done:
			running--
			if err != nil && first == nil {
				first = err
				cancel()
			}
		}
	}
	for len(results) > 0 { // sent before their run ended, still in the buffer
		r := <-results
		got[r.f] = r.p
	}
	if first != nil {
		return first
	}
	return emit(true)
}

// readPendingAll reads the pending runs' patches as Patches does: one run,
// or several at once.
func (c *Change) readPendingAll(ctx context.Context, pps []*pendingPatches, want func(*File) bool, maxBytes int64, fn func(*File, *Patch) error) error {
	if len(pps) == 1 && pps[0].files == nil {
		pp := pps[0]
		return pp.finish(splitPatches(ctx, pp.rd, c.Files, want, maxBytes, fn))
	}
	return readGroups(ctx, pps, c.Files, want, maxBytes, fn)
}
