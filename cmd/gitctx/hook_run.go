package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/gitctx/gitctx/gitctx"
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
