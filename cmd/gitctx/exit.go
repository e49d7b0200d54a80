package main

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/gitctx/gitctx/pack"
)

// Exit codes (see helpFooter).
const (
	exitOK        = 0
	exitError     = 1
	exitUsage     = 2
	exitSecrets   = 3
	exitBudget    = 4
	exitCancelled = 130
)

// usageError is a mistake in how gitctx was called.
type usageError struct {
	cmd *cobra.Command
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(cmd *cobra.Command, err error) error { return &usageError{cmd: cmd, err: err} }

// errSecretsBlocked means a change adds secrets where they block.
var errSecretsBlocked = errors.New("secrets found")

// errUnchecked means a change has a file too large to check for secrets
// where they block: a check that cannot look does not let it through.
var errUnchecked = errors.New("not checked for credentials")

// blocked reports whether err is the credential check's verdict (exit 3).
func blocked(err error) bool {
	return errors.Is(err, errSecretsBlocked) || errors.Is(err, errUnchecked)
}

// exitCode maps an error to gitctx's exit code; this is the only place
// that does.
func exitCode(ctx context.Context, err error) int {
	var uerr *usageError
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return exitCancelled
	case errors.As(err, &uerr), isCobraUsage(err):
		return exitUsage
	case blocked(err):
		return exitSecrets
	case errors.Is(err, pack.ErrBudget):
		return exitBudget
	}
	return exitError
}

// isCobraUsage recognises the argument errors cobra returns itself.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires ", "invalid argument"} {
		if len(msg) >= len(prefix) && msg[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}
