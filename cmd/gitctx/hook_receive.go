package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gitctx/gitctx/gitctx"
)

// readReceiveUpdates reads git's pre-receive input, one
// "<old id> <new id> <ref>" line per ref the push updates, as the updates
// checkPushed takes (the ref is both the local and the remote one).
func readReceiveUpdates(r io.Reader) ([]pushUpdate, error) {
	return readUpdates(r, "pre-receive", "<old sha> <new sha> <ref>", 3, func(f []string) pushUpdate {
		return pushUpdate{localRef: f[2], localID: f[1], remoteRef: f[2], remoteID: f[0]}
	})
}

// runPreReceive is `gitctx hook run pre-receive`, on the repository pushed
// to (a server's bare one): every commit the push brings that no ref holds
// yet is checked on its own, and a credential found rejects the whole
// push, which then updates no ref. The rules are those of the
// .gitleaks.toml the push builds on, never one it brings.
func runPreReceive(ctx context.Context, a *app) error {
	updates, err := readReceiveUpdates(a.stdin)
	if err != nil {
		return err
	}
	err = checkPushed(ctx, a, updates, "the push", func(repo *gitctx.Repo, u pushUpdate) ([]string, error) {
		return repo.Incoming(ctx, u.localID)
	})
	if errors.Is(err, errSecretsBlocked) || errors.Is(err, errUnchecked) {
		// the pusher reads this (git shows it as "remote: …"); GITCTX_SKIP
		// is the server's to set
		fmt.Fprintln(a.stderr, "gitctx: not a credential? Allow it in .gitleaks.toml in a commit the server has, or ask its administrators")
	}
	return err
}
