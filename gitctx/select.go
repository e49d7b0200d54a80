package gitctx

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrShallow means the history a change needs is missing from a shallow clone.
var ErrShallow = errors.New("shallow clone")

// diffFlags are the options every diff of gitctx uses, for the raw listing
// and the patches alike, so both see the same files and renames.
var diffFlags = []string{"-M", "--no-ext-diff", "--no-textconv", "--no-relative", "--ignore-submodules=none"}

// SelectRange selects the change of a revision range: "A..B" (the tree of A
// against the tree of B), "A...B" (from their merge base to B, what a pull
// request shows), or a single revision R (R's first parent to R; a root
// commit against the empty tree), which may be written "R^!" as git log
// takes one commit. An empty side of ".." or "..." means HEAD.
func (r *Repo) SelectRange(ctx context.Context, spec string) (*Change, error) {
	src := Source{Kind: KindRange, Spec: spec, Shallow: r.Shallow}
	var listCommits func() ([]Commit, error)
	switch {
	case strings.Contains(spec, "..."):
		a, b, _ := strings.Cut(spec, "...")
		base, head, err := r.resolveBoth(ctx, orHead(a), orHead(b))
		if err != nil {
			return nil, err
		}
		mb, err := r.mergeBase(ctx, spec, base, head)
		if err != nil {
			return nil, err
		}
		src.Base, src.Head, src.MergeBase = mb, head, mb
		listCommits = func() ([]Commit, error) { return r.rangeCommits(ctx, mb, head) }
	case strings.Contains(spec, ".."):
		a, b, _ := strings.Cut(spec, "..")
		base, head, err := r.resolveBoth(ctx, orHead(a), orHead(b))
		if err != nil {
			return nil, err
		}
		src.Base, src.Head = base, head
		listCommits = func() ([]Commit, error) { return r.rangeCommits(ctx, base, head) }
	default:
		rev := strings.TrimSuffix(spec, "^!") // R^!: R and none of its parents, the one commit
		head, err := r.resolve(ctx, rev)
		if err != nil {
			return nil, err
		}
		base, err := r.firstParent(ctx, rev, head)
		if err != nil {
			return nil, err
		}
		src.Base, src.Head = base, head
		listCommits = func() ([]Commit, error) { return r.commits(ctx, []string{"-n", "1", head}) }
	}
	// The commits are listed while git lists the files, and the change
	// is handed on without waiting for them: in a repository without a
	// commit-graph git walks the base's history to tell which commits are
	// the range's (20 ms after the files were listed on prometheus' last 10
	// commits), and the commit messages are needed only once the pack's
	// files are on their way.
	c := &Change{Source: src, repo: r, diffArgs: []string{src.Base, src.Head}, diskFirst: !r.Bare}
	listed := make(chan struct{})
	var commitsErr error
	go func() {
		defer close(listed)
		if c.Commits, commitsErr = listCommits(); commitsErr == nil {
			c.cut, commitsErr = r.cutCommits(c.Commits)
		}
	}()
	c.commits = func() error {
		<-listed
		return commitsErr
	}
	var err error
	if c.Files, c.pending, err = r.rawWithPatches(ctx, src.Base, src.Head); err != nil {
		_ = c.WaitCommits()
		return nil, err
	}
	return c, nil
}

// cutCommits lists the commits whose parents a shallow clone lacks: a
// walk of the history stops at them, not knowing what came before. Only
// a shallow clone has any.
func (r *Repo) cutCommits(commits []Commit) ([]string, error) {
	boundary, err := r.shallowBoundary()
	if err != nil || len(boundary) == 0 {
		return nil, err
	}
	var cut []string
	for _, c := range commits {
		if boundary[c.SHA] {
			cut = append(cut, c.SHA)
		}
	}
	return cut, nil
}

// firstParent is the base of a single-revision change: the first parent, or
// the empty tree for a root commit.
func (r *Repo) firstParent(ctx context.Context, rev, id string) (string, error) {
	boundary, err := r.shallowBoundary()
	if err != nil {
		return "", err
	}
	if boundary[id] {
		return "", fmt.Errorf("%s: %w: the parent of %s is not in this clone; fetch more history with `git fetch --deepen=1` (in GitHub Actions, set fetch-depth: 0 on actions/checkout)", rev, ErrShallow, ShortID(id))
	}
	out, err := r.git.output(ctx, nil, "rev-list", "--parents", "-n", "1", id)
	if err != nil {
		return "", fmt.Errorf("parents of %s: %w", rev, err)
	}
	fields := strings.Fields(string(out))
	if len(fields) < 2 {
		return r.EmptyTree(ctx)
	}
	return fields[1], nil
}

func (r *Repo) mergeBase(ctx context.Context, spec, a, b string) (string, error) {
	out, err := r.git.output(ctx, nil, "merge-base", a, b)
	if err == nil {
		return strings.TrimSpace(string(out)), nil
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if r.Shallow {
		return "", fmt.Errorf("%s: %w: the merge base is not in this clone's history; fetch more with `git fetch --deepen=100` or `git fetch --unshallow` (in GitHub Actions, set fetch-depth: 0 on actions/checkout)", spec, ErrShallow)
	}
	return "", fmt.Errorf("%s: the two sides have no common ancestor (use A..B to compare their trees directly): %w", spec, err)
}

// rawDiff lists the changed files between two endpoints, and the paths
// git lists as unmerged (only a diff of the index has them).
func (r *Repo) rawDiff(ctx context.Context, env []string, endpoints ...string) (files []*File, unmerged []string, err error) {
	args := append([]string{"diff", "--raw", "-z", "--no-abbrev"}, diffFlags...)
	args = append(append(args, endpoints...), "--")
	g := r.git
	g.env = append(slices.Clip(g.env), env...)
	out, err := g.output(ctx, nil, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("list changed files: %w", err)
	}
	return parseRawListing(out)
}

// commits lists the commits of a range, newest first.
func (r *Repo) commits(ctx context.Context, revs []string) ([]Commit, error) {
	args := append([]string{"log", "-z", "--format=%H%n%B"}, revs...)
	out, err := r.git.output(ctx, nil, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("list commits: %w", err)
	}
	var commits []Commit
	for _, rec := range strings.Split(string(out), "\x00") {
		sha, msg, ok := strings.Cut(rec, "\n")
		if !ok || sha == "" {
			continue
		}
		msg = strings.TrimRight(msg, "\n")
		subject, _, _ := strings.Cut(msg, "\n")
		commits = append(commits, Commit{SHA: sha, Subject: subject, Message: msg})
	}
	return commits, nil
}

// ShortID is a commit's id cut to 12 characters, to show.
func ShortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
