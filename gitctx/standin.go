package gitctx

import (
	"bytes"
	"context"
	"strings"
)

// maxDiffering is the most files of the work tree that may differ from a
// range's head commit for the work tree to stand in for it in a search.
const maxDiffering = 100

// maxUnsure is the most files whose state the index's stat data leaves
// open (see unsureFiles) that git is asked about by name; past it, git
// compares the whole work tree.
const maxUnsure = 256

// standIn reports whether the work tree can stand in for the head commit
// of a range in a search, and which of its files differ from that commit
// (those are searched in the commit). Reading files from disk is much
// cheaper than inflating every blob of a commit: on terraform, the
// references' `git grep` took 0.15 CPU-s on the work tree against 0.28 on
// the commit. It cannot stand in for a sparse checkout (whose search
// leaves out the files outside it), nor when more than maxDiffering files
// differ. The answer is worked out once.
func (c *Change) standIn(ctx context.Context) (map[string]bool, bool) {
	c.standInOnce.Do(func() {
		c.differ, c.standInOK = c.repo.worktreeDiffers(ctx, c.Source.Head)
	})
	return c.differ, c.standInOK
}

// worktreeDiffers lists the files of the work tree (and the index) that
// differ from a commit's, if at most maxDiffering do and the checkout is
// not sparse.
//
// `git diff-index <commit>` answers that, but on a fresh checkout (a CI
// job's, a clone's) it hashes most files again: git compares timestamps
// to the second, and every file written in the second the index was
// written is "racily clean" to it (55 of 85 ms on terraform's 5,457
// files). So the work tree is compared in two halves: the index with the
// commit (`git diff-index --cached`, which reads no file), and the work
// tree with the index, where the index's stat data, compared to the
// nanosecond, settles most files (unsureFiles) and git is asked about the
// others by name (`git diff-files`). Where the index cannot be read so,
// git compares the whole work tree as before. Only an index with files
// marked skip-worktree (or one not read) may be a sparse checkout's: git's
// configuration is asked then.
func (r *Repo) worktreeDiffers(ctx context.Context, commit string) (map[string]bool, bool) {
	if r.Bare {
		return nil, false
	}
	staged := r.inBackground(ctx, "diff-index", "--cached", "--name-only", "-z", "--no-renames", "--ignore-submodules=none", commit, "--")
	unsure, skipWorktree, ok := r.unsureFiles(commit)
	sparse := func() ([]byte, error) { return nil, nil }
	if !ok || skipWorktree {
		sparse = r.inBackground(ctx, "config", "--get", "--bool", "core.sparseCheckout")
	}
	var out []byte
	var err error
	if ok && len(unsure) <= maxUnsure {
		if out, err = staged(); err == nil && len(unsure) > 0 {
			var files []byte
			files, err = r.git.output(ctx, nil, append([]string{"diff-files", "--name-only", "-z", "--ignore-submodules=none", "--"}, unsure...)...)
			out = append(append(out, 0), files...)
		}
	} else {
		_, _ = staged()
		out, err = r.git.output(ctx, nil, "diff-index", "--name-only", "-z", "--no-renames", "--ignore-submodules=none", commit, "--")
	}
	// exit 1 without output: not set
	if set, _ := sparse(); strings.TrimSpace(string(set)) == "true" || err != nil {
		return nil, false
	}
	differ := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			differ[string(p)] = true
		}
	}
	return differ, len(differ) <= maxDiffering
}

// inBackground starts a git command whose output is awaited later.
func (r *Repo) inBackground(ctx context.Context, args ...string) func() ([]byte, error) {
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := r.git.output(ctx, nil, args...)
		done <- result{out, err}
	}()
	return func() ([]byte, error) {
		res := <-done
		return res.out, res.err
	}
}
