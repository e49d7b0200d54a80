package gitctx

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ErrUnknownRevision means a revision does not name a commit.
var ErrUnknownRevision = errors.New("unknown revision")

// ErrUnsupportedRevision means git resolves a revision, but not to the one
// commit gitctx needs: to a set of commits (HEAD^@, HEAD^-), or to an
// object that is not a commit (HEAD^{tree}, a blob's id).
var ErrUnsupportedRevision = errors.New("unsupported revision")

// resolveBoth resolves two revisions at once; a's error comes first.
func (r *Repo) resolveBoth(ctx context.Context, a, b string) (idA, idB string, err error) {
	err = both(func() (err error) {
		idA, err = r.resolve(ctx, a)
		return err
	}, func() (err error) {
		idB, err = r.resolve(ctx, b)
		return err
	})
	return idA, idB, err
}

// both runs f and g at once (each mostly waits for a git process of its
// own) and returns f's error, else g's.
func both(f, g func() error) error {
	done := make(chan error, 1)
	go func() { done <- g() }()
	errF := f()
	errG := <-done
	if errF != nil {
		return errF
	}
	return errG
}

func orHead(rev string) string {
	if rev == "" {
		return "HEAD"
	}
	return rev
}

// resolve turns a revision into a commit id. In a shallow clone a revision
// that walks past the available history is reported as ErrShallow.
func (r *Repo) resolve(ctx context.Context, rev string) (string, error) {
	if strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("%q: %w (a revision cannot start with '-')", rev, ErrUnknownRevision)
	}
	out, err := r.git.output(ctx, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err == nil {
		return strings.TrimSpace(string(out)), nil
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if id, err := r.resolveOther(ctx, rev); id != "" || err != nil {
		return id, err
	}
	if r.Shallow {
		return "", fmt.Errorf("%s: %w: this clone's history does not reach it; fetch more history with `git fetch --deepen=100` or `git fetch --unshallow` (in GitHub Actions, set fetch-depth: 0 on actions/checkout)", rev, ErrShallow)
	}
	if base, depth, n := r.historyShort(ctx, rev); n == 1 {
		return "", fmt.Errorf("%s: %w: %s's history is 1 commit long, so it has no ancestor %d back (gitctx pack %s packs that one commit)",
			rev, ErrUnknownRevision, base, depth, base)
	} else if n > 1 {
		return "", fmt.Errorf("%s: %w: %s's history is %d commits long, so it has no ancestor %d back (the oldest is %s~%d)",
			rev, ErrUnknownRevision, base, n, depth, base, n-1)
	}
	if branch, ok := r.unbornHead(ctx, rev); ok {
		return "", fmt.Errorf("%s: %w: the branch %s has no commits yet (gitctx pack --staged packs what is staged, gitctx pack --worktree all of the work tree's changes)",
			rev, ErrUnknownRevision, branch)
	}
	return "", fmt.Errorf("%s: %w: no commit by that name (check the spelling, or fetch the branch or tag first)", rev, ErrUnknownRevision)
}

// resolveOther resolves a revision that git reads, but not with
// ^{commit} appended: a search of commit messages (":/fix typo", whose
// text would take in the suffix) resolves to its commit. A set of
// commits (HEAD^@, HEAD^-, "A B") or an object that is not a commit fail
// with ErrUnsupportedRevision, saying which. Neither id nor error: git does
// not know the revision either.
func (r *Repo) resolveOther(ctx context.Context, rev string) (string, error) {
	const use = "use A..B, A...B, or a single commit (R, or R^!)"
	out, err := r.git.output(ctx, nil, "rev-parse", "--revs-only", "--end-of-options", rev)
	if err != nil {
		return "", nil
	}
	revs := strings.Fields(string(out))
	switch {
	case len(revs) == 0:
		return "", nil
	case len(revs) > 1 || strings.HasPrefix(revs[0], "^") || strings.HasSuffix(rev, "^@"):
		// (R^@ is R's parents: one revision only when R has one parent)
		return "", fmt.Errorf("%s: %w syntax: git reads it as a set of commits, and gitctx packs one change; %s", rev, ErrUnsupportedRevision, use)
	}
	kind, err := r.git.output(ctx, nil, "cat-file", "-t", revs[0]+"^{}")
	if err != nil {
		return "", nil
	}
	if k := strings.TrimSpace(string(kind)); k != "commit" {
		return "", fmt.Errorf("%s: %w: it names a %s, not a commit; %s", rev, ErrUnsupportedRevision, k, use)
	}
	out, err = r.git.output(ctx, nil, "rev-parse", "--verify", "--quiet", revs[0]+"^{commit}")
	if err != nil {
		return "", nil
	}
	return strings.TrimSpace(string(out)), nil
}

// unbornHead reports whether rev is HEAD (or @, or an ancestor of either)
// on a branch with no commits yet, a new repository's or an orphan's, and
// names that branch.
func (r *Repo) unbornHead(ctx context.Context, rev string) (string, bool) {
	base := rev
	if m := ancestry.FindStringSubmatch(rev); m != nil {
		base = m[1]
	}
	if base != "HEAD" && base != "@" {
		return "", false
	}
	if _, err := r.git.output(ctx, nil, "rev-parse", "--verify", "--quiet", "HEAD"); err == nil {
		return "", false
	}
	out, err := r.git.output(ctx, nil, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(out)), true
}

// ancestry is a revision that walks first parents back from a base:
// HEAD~3, main^^, v1.2~1^; ancestryStep is one of its steps.
var (
	ancestry     = regexp.MustCompile(`^(.+?)((?:~[0-9]*|\^1?)+)$`)
	ancestryStep = regexp.MustCompile(`~[0-9]*|\^1?`)
)

// historyShort says, of a revision such as HEAD~3 that git cannot
// resolve, whether its base exists and its first-parent history is too
// short: the base, how far back the revision asks, and how many commits
// the history has (0 when that is not why).
func (r *Repo) historyShort(ctx context.Context, rev string) (base string, depth, n int) {
	m := ancestry.FindStringSubmatch(rev)
	if m == nil {
		return "", 0, 0
	}
	for _, step := range ancestryStep.FindAllString(m[2], -1) {
		k := 1
		if len(step) > 1 && step[0] == '~' {
			k, _ = strconv.Atoi(step[1:])
		}
		depth += k
	}
	out, err := r.git.output(ctx, nil, "rev-list", "--count", "--first-parent", "--end-of-options", m[1]+"^{commit}")
	if err != nil {
		return "", 0, 0
	}
	n, err = strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || n > depth {
		return "", 0, 0
	}
	return m[1], depth, n
}
