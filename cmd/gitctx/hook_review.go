package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// reviewChecked is the pre-commit hook's --review once the credential
// check is done (checked is its outcome): a change it let through is
// reviewed; of one it blocked, which is never sent, a pack is written if
// --pack asks for one.
func reviewChecked(ctx context.Context, a *app, repo *gitctx.Repo, pack bool, checked error) error {
	if checked == nil {
		return reviewStaged(ctx, a, repo)
	}
	if pack {
		if err := packStaged(ctx, a); err != nil {
			return err
		}
	}
	return checked
}

// reviewStaged is the pre-commit hook's --review: the staged change is
// reviewed as `gitctx review --staged` reviews it (the provider and model
// of .gitctx.yml or the environment), and the answer, saved as review.md
// in the output directory, is printed. A review that cannot be had is a
// warning: it never blocks the commit, which the check has let through.
func reviewStaged(ctx context.Context, a *app, repo *gitctx.Repo) error {
	cmd := newReviewCommand(a)
	if err := runStaged(ctx, a, cmd, "--post", "file"); err != nil {
		if exitCode(ctx, err) == exitCancelled {
			return err
		}
		fmt.Fprintf(a.stderr, "gitctx: warning: no review: %s\n", terminalSafe(redactedMessage(ctx, a, err.Error())))
		return nil
	}
	out := cmd.Flags().Lookup("out").Value.String() // as the flag, the environment or the file set it
	if out == "" {
		out = filepath.Join(repo.Top(), ".gitctx")
	}
	answer, err := os.ReadFile(filepath.Join(out, reviewFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no provider: review said so, and saved the pack
	}
	if err != nil {
		fmt.Fprintf(a.stderr, "gitctx: warning: the review was saved, but cannot be read back: %v\n", err)
		return nil
	}
	_, err = fmt.Fprintf(a.stdout, "%s\n", terminalSafe(strings.TrimRight(string(answer), "\n")))
	return err
}
