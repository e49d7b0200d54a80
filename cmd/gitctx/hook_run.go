package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/secrets"
)

// runPreCommit is `gitctx hook run pre-commit`: the staged additions are
// checked for credentials, and nothing more, so that a commit stays fast.
func runPreCommit(ctx context.Context, a *app, o *hookOptions) error {
	// Loading the rules allocates tens of MB of short-lived memory, and the
	// process ends milliseconds later: no collection below the soft limit
	// saves about a tenth of the hook's time, and near it the heap is kept
	// close to what is live (see hookMemoryLimit).
	defer limitMemory(a.getenv, hookMemoryLimit)()
	repo, err := openHookRepo(ctx)
	if err != nil {
		return err
	}
	defer repo.Close()
	// Loading the rules is the slowest step, so it runs while git lists
	// the staged files. They come from .gitleaks.toml as it is in HEAD,
	// the base of a staged change (none on a branch with no commit yet).
	gates := make(chan gateResult, 1)
	defaults := secrets.LoadDefaults(gateLogger(a)) // the gate builds its rules when it first scans
	go func() {
		cfg, _, err := repo.ReadFileAt(ctx, "HEAD", ".gitleaks.toml", 1<<20)
		if err != nil {
			gates <- gateResult{err: fmt.Errorf("read .gitleaks.toml: %w", err)}
			return
		}
		gate, err := newGateWith(a, cfg, defaults)
		gates <- gateResult{gate, err}
	}()
	gate := func() (*secrets.Gate, error) {
		r := <-gates
		gates <- r
		return r.gate, r.err
	}
	defer gate() // wait for it, so nothing outlives the command
	// git hands the hook the index it is about to commit; for git commit -a
	// or git commit PATH that is a temporary file, not .git/index.
	ch, err := repo.SelectIndex(ctx, a.getenv("GIT_INDEX_FILE"))
	var unmerged *gitctx.UnmergedError
	if errors.As(err, &unmerged) {
		return fmt.Errorf("%w (%s): resolve the conflicts and `git add` (or `git rm`) each, then commit", gitctx.ErrUnmerged, unmerged.List())
	}
	if err != nil {
		return err
	}
	defer ch.Close()
	if len(ch.Files) == 0 {
		return nil
	}
	if o.pack && !o.review { // a review writes its own, once the check is done
		if err := packStaged(ctx, a); err != nil {
			return err
		}
	}
	g, err := gate()
	if err != nil {
		return err
	}
	err = failOnSecrets(ctx, a, ch, g)
	hookHint(a, err, "commit")
	if o.review {
		return reviewChecked(ctx, a, repo, o.pack, err)
	}
	return err
}

// hookHint says how to go on past a hook that blocked (verb: commit,
// push).
func hookHint(a *app, err error, verb string) {
	switch {
	case errors.Is(err, errSecretsBlocked):
		fmt.Fprintf(a.stderr, "gitctx: not a credential? Allow it in .gitleaks.toml, or %s once with GITCTX_SKIP=1\n", verb)
	case errors.Is(err, errUnchecked):
		fmt.Fprintf(a.stderr, "gitctx: sure they hold no credential? Then %s once with GITCTX_SKIP=1\n", verb)
	}
}

// openHookRepo opens the repository a hook runs in. Outside one, the
// advice is a hook's, not pack's (--patch is pack's).
func openHookRepo(ctx context.Context) (*gitctx.Repo, error) {
	repo, err := gitctx.Open(ctx, ".")
	var nwt interface{ NoWorkTree() bool }
	if errors.Is(err, gitctx.ErrNotRepository) && !errors.As(err, &nwt) {
		wd, _ := os.Getwd()
		return nil, fmt.Errorf("%s: %w (git hooks belong to a repository: run gitctx hook inside its work tree)", wd, gitctx.ErrNotRepository)
	}
	return repo, err
}

// gateResult is a secrets gate built in the background.
type gateResult struct {
	gate *secrets.Gate
	err  error
}

// packStaged writes a pack of the staged change, as `gitctx pack --staged`
// does (settings from the environment and .gitctx.yml included). Only a
// cancellation is an error: a pack that cannot be written is a warning,
// since the commit does not need it.
func packStaged(ctx context.Context, a *app) error {
	err := runStaged(ctx, a, newPackCommand(a))
	if err == nil || exitCode(ctx, err) == exitCancelled {
		return err
	}
	fmt.Fprintf(a.stderr, "gitctx: warning: no pack was written: %s\n", terminalSafe(redactedMessage(ctx, a, err.Error())))
	return nil
}

// runStaged runs pack or review on the staged change, with args, as the
// command line would (settings from the environment and .gitctx.yml
// included).
func runStaged(ctx context.Context, a *app, cmd *cobra.Command, args ...string) error {
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	cmd.SetOut(a.stdout)
	cmd.SetErr(a.stderr)
	cmd.SetIn(a.stdin)
	cmd.SetArgs(append([]string{"--staged", "--progress", "never"}, args...))
	return cmd.ExecuteContext(ctx)
}

// pushUpdate is one line of a pre-push hook's input.
type pushUpdate struct {
	localRef, localID, remoteRef, remoteID string
}

// readPushUpdates reads git's pre-push input: one
// "<local ref> <local id> <remote ref> <remote id>" line per ref.
func readPushUpdates(r io.Reader) ([]pushUpdate, error) {
	var out []pushUpdate
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("pre-push input %q: want <local ref> <local sha> <remote ref> <remote sha>", terminalSafe(sc.Text()))
		}
		out = append(out, pushUpdate{f[0], f[1], f[2], f[3]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the pre-push input: %w", err)
	}
	return out, nil
}

// runPrePush is `gitctx hook run pre-push`: every commit the push sends
// that no remote-tracking branch holds yet is checked on its own, so a
// credential added by one commit and removed by the next still blocks.
func runPrePush(ctx context.Context, a *app, o *hookOptions) error {
	updates, err := readPushUpdates(a.stdin)
	if err != nil || len(updates) == 0 {
		return err
	}
	repo, err := openHookRepo(ctx)
	if err != nil {
		return err
	}
	defer repo.Close()
	to := "the push"
	if len(o.args) > 0 {
		to += " to " + o.args[0]
	}
	err = checkPushed(ctx, a, repo, updates, to, func(u pushUpdate) ([]string, error) {
		return repo.Outgoing(ctx, u.localID, u.remoteID)
	})
	hookHint(a, err, "push")
	return err
}

// checkPushed checks each commit the updates bring (as list finds them),
// on its own, and blocks what (to) when one adds a credential or is too
// large to check, or when an update is of a tag of a tree or a blob.
func checkPushed(ctx context.Context, a *app, repo *gitctx.Repo, updates []pushUpdate, to string, list func(pushUpdate) ([]string, error)) error {
	var commits, others []string
	refOf := map[string]string{} // a commit, and the first remote ref the push sends it to
	for _, u := range updates {
		ids, err := list(u)
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
// the files too large to check as "<commit> <file> (to <ref>)". The rules
// are those of the .gitleaks.toml in the first commit's parent (usually a
// commit the remote already has).
func pushedSecrets(ctx context.Context, a *app, repo *gitctx.Repo, commits []string, refOf map[string]string) (found, unchecked []string, err error) {
	var gate *secrets.Gate
	for _, id := range commits {
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
			h, l, err := addedIn(ctx, a, repo, spec, &gate)
			if err != nil {
				return nil, nil, fmt.Errorf("commit %s: %w", shortID(id), err)
			}
			hits, large = append(hits, h), append(large, l)
		}
		to := " (to " + shortRef(refOf[id]) + ")"
		for _, p := range inEvery(large) {
			unchecked = append(unchecked, shortID(id)+" "+p+to)
		}
		for _, h := range inEvery(hits) {
			found = append(found, shortID(id)+" "+h.String()+to)
		}
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
