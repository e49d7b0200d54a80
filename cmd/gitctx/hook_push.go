package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/secrets"
)

// pushUpdate is one line of a pre-push hook's input.
type pushUpdate struct {
	localRef, localID, remoteRef, remoteID string
}

// readPushUpdates reads git's pre-push input: one
// "<local ref> <local id> <remote ref> <remote id>" line per ref.
func readPushUpdates(r io.Reader) ([]pushUpdate, error) {
	return readUpdates(r, "pre-push", "<local ref> <local sha> <remote ref> <remote sha>", 4, func(f []string) pushUpdate {
		return pushUpdate{f[0], f[1], f[2], f[3]}
	})
}

// readUpdates reads a hook's input, one update a line of the n fields
// want names, made into an update by mk.
func readUpdates(r io.Reader, hook, want string, n int, mk func([]string) pushUpdate) ([]pushUpdate, error) {
	var out []pushUpdate
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != n {
			return nil, fmt.Errorf("%s input %q: want %s", hook, terminalSafe(sc.Text()), want)
		}
		out = append(out, mk(f))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the %s input: %w", hook, err)
	}
	return out, nil
}

// runPrePush is `gitctx hook run pre-push`: every commit the push sends
// that no remote-tracking branch holds yet is checked on its own, so a
// credential added by one commit and removed by the next still blocks.
func runPrePush(ctx context.Context, a *app, o *hookOptions) error {
	updates, err := readPushUpdates(a.stdin)
	if err != nil {
		return err
	}
	to := "the push"
	if len(o.args) > 0 {
		to += " to " + o.args[0]
	}
	err = checkPushed(ctx, a, updates, to, func(repo *gitctx.Repo, u pushUpdate) ([]string, error) {
		return repo.Outgoing(ctx, u.localID, u.remoteID)
	})
	hookHint(a, err, "push")
	return err
}

// checkPushed checks each commit the updates bring (as list finds them in
// the repository the hook runs in), on its own, and blocks what (to) when
// one adds a credential or is too large to check, or when an update is of
// a tag of a tree or a blob.
func checkPushed(ctx context.Context, a *app, updates []pushUpdate, to string, list func(*gitctx.Repo, pushUpdate) ([]string, error)) error {
	if len(updates) == 0 {
		return nil
	}
	repo, err := openHookRepo(ctx)
	if err != nil {
		return err
	}
	defer repo.Close()
	var commits, others []string
	refOf := map[string]string{} // a commit, and the first remote ref the push sends it to
	for _, u := range updates {
		ids, err := list(repo, u)
		var nc *gitctx.NotCommitError
		if errors.As(err, &nc) {
			others = append(others, fmt.Sprintf("%s (a %s, %s)", shortRef(u.remoteRef), nc.Kind, shortID(nc.ID)))
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", terminalSafe(u.localRef), err)
		}
		for _, id := range ids {
			if _, seen := refOf[id]; !seen {
				refOf[id] = u.remoteRef
				commits = append(commits, id)
			}
		}
	}
	if len(commits) > 100 {
		fmt.Fprintf(a.stderr, "gitctx: checking %s commits for credentials…\n", thousands(len(commits)))
	}
	found, unchecked, err := pushedSecrets(ctx, a, repo, commits, refOf)
	if err != nil {
		return err
	}
	err = blockOn(a, to, found, unchecked, "remove them from those commits (git rebase -i) and rotate any that were real")
	if len(others) > 0 {
		fmt.Fprintf(a.stderr, "gitctx: %s sends %d tag%s of a tree or a blob, which no commit shows and gitctx does not check:\n",
			terminalSafe(to), len(others), plural(len(others)))
		for _, o := range others {
			fmt.Fprintf(a.stderr, "  %s\n", terminalSafe(o))
		}
		if err == nil {
			err = fmt.Errorf("%w: push tags of commits, or check what the tree or blob holds another way", errUnchecked)
		}
	}
	return err
}

// pushedSecrets checks each commit against its first parent (a merge
// against each of its parents: see mergeSecrets) and lists the
// credentials found as "<commit> <file>:<line>: <rule> (to <ref>)", and
// the files too large to check as "<commit> <file> (to <ref>)", in the
// order of the commits. The rules are those of the .gitleaks.toml in the
// first commit's parent (usually a commit the remote already has); the
// first commit builds the gate, and the others are checked with it, as
// many at once as there are CPUs.
func pushedSecrets(ctx context.Context, a *app, repo *gitctx.Repo, commits []string, refOf map[string]string) (found, unchecked []string, err error) {
	if len(commits) == 0 {
		return nil, nil, nil
	}
	type result struct{ found, unchecked []string }
	results := make([]result, len(commits))
	var gate *secrets.Gate
	check := func(ctx context.Context, i int) error {
		f, u, err := commitSecrets(ctx, a, repo, commits[i], refOf[commits[i]], &gate)
		results[i] = result{f, u}
		return err
	}
	if err := check(ctx, 0); err != nil {
		return nil, nil, err
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := 1; i < len(commits); i++ {
		g.Go(func() error { return check(gctx, i) })
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	for _, r := range results {
		found, unchecked = append(found, r.found...), append(unchecked, r.unchecked...)
	}
	return found, unchecked, nil
}

// commitSecrets is pushedSecrets' check of one commit, pushed to ref;
// *gate is built from it when nil.
func commitSecrets(ctx context.Context, a *app, repo *gitctx.Repo, id, ref string, gate **secrets.Gate) (found, unchecked []string, err error) {
	parents, err := repo.Parents(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	specs := []string{id} // against the first parent
	if len(parents) > 1 {
		specs = nil
		for _, p := range parents {
			specs = append(specs, p+".."+id)
		}
	}
	var hits [][]pack.AddedSecret
	var large [][]string
	for _, spec := range specs {
		h, l, err := addedIn(ctx, a, repo, spec, gate)
		if err != nil {
			return nil, nil, fmt.Errorf("commit %s: %w", shortID(id), err)
		}
		hits, large = append(hits, h), append(large, l)
	}
	to := " (to " + shortRef(ref) + ")"
	for _, p := range inEvery(large) {
		unchecked = append(unchecked, shortID(id)+" "+p+to)
	}
	for _, h := range inEvery(hits) {
		found = append(found, shortID(id)+" "+h.String()+to)
	}
	return found, unchecked, nil
}

// addedIn is pack.AddedSecrets of the change spec names, with the gate
// made from its first change when *gate is nil.
func addedIn(ctx context.Context, a *app, repo *gitctx.Repo, spec string, gate **secrets.Gate) ([]pack.AddedSecret, []string, error) {
	ch, err := repo.SelectRange(ctx, spec)
	if err != nil {
		return nil, nil, err
	}
	defer ch.Close()
	if *gate == nil {
		if *gate, err = newGate(ctx, a, ch, nil); err != nil {
			return nil, nil, err
		}
	}
	return pack.AddedSecrets(ctx, ch, *gate)
}

// inEvery returns what was found against every parent of a commit (the
// credentials, or the files too large to check): in a merge, its own
// lines, which no parent holds. What one parent already has came with that
// parent's commits, which are checked on their own.
func inEvery[T comparable](found [][]T) []T {
	var out []T
	for _, x := range found[0] {
		all := true
		for _, other := range found[1:] {
			all = all && slices.Contains(other, x)
		}
		if all {
			out = append(out, x)
		}
	}
	return out
}

// shortRef is a ref as git names it in messages: refs/heads/x is x.
func shortRef(ref string) string {
	for _, p := range []string{"refs/heads/", "refs/tags/"} {
		if s, ok := strings.CutPrefix(ref, p); ok {
			return s
		}
	}
	return ref
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
