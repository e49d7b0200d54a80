package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/secrets"
)

// ownTokenVars name the credentials a run may hold; the gate looks for
// their values in everything it checks.
var ownTokenVars = []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN", "GH_TOKEN", "GEMINI_API_KEY", "INPUT_API_KEY", "INPUT_GITHUB_TOKEN", "GITCTX_API_KEY"}

// newGate builds the secrets gate: gitleaks' default rules, plus the rules
// of the .gitleaks.toml in the change's base commit (never the version the
// change itself brings), plus the run's own credentials.
func newGate(ctx context.Context, a *app, ch *gitctx.Change, defaults *secrets.Defaults) (*secrets.Gate, error) {
	cfg, _, err := ch.ReadBaseFile(ctx, ".gitleaks.toml", 1<<20)
	if err != nil {
		return nil, fmt.Errorf("read .gitleaks.toml: %w", err)
	}
	return newGateWith(a, cfg, defaults)
}

// newGateWith builds the secrets gate with repoConfig, a .gitleaks.toml
// already read from the right commit (nil: none), from the default rules
// built ahead (nil: built here).
func newGateWith(a *app, repoConfig []byte, defaults *secrets.Defaults) (*secrets.Gate, error) {
	var own []string
	for _, name := range ownTokenVars {
		if v := strings.TrimSpace(a.getenv(name)); v != "" {
			own = append(own, v)
		}
	}
	logger := gateLogger(a)
	gate, err := secrets.New(secrets.Options{RepoConfig: repoConfig, OwnTokens: own, Logger: logger, Cache: scanCache(a), Defaults: defaults})
	if err != nil {
		return nil, err
	}
	if ids := gate.Ignored(); len(ids) > 0 {
		logger.Warn("rules of .gitleaks.toml that reuse a default rule's id are ignored (the default rules always apply)",
			"rules", strings.Join(ids, ","))
	}
	return gate, nil
}

// redactedMessage is an error's message as gitctx prints it: a path, a
// command's output or a server's answer in it can hold a credential, so it
// goes through a gate of the default rules and the run's own credentials.
// A message that cannot be checked is withheld.
func redactedMessage(ctx context.Context, a *app, msg string) string {
	ctx = context.WithoutCancel(ctx)
	gate, err := newGateWith(a, nil, nil)
	if err == nil {
		var out secrets.Text
		if out, _, err = gate.RedactString(ctx, msg); err == nil {
			return out.String()
		}
	}
	return "the error's message is withheld: it could not be checked for credentials"
}

// gateLogger is where the secrets gate's warnings go: stderr, messages
// only, warnings and errors.
func gateLogger(a *app) *slog.Logger {
	return slog.New(slog.NewTextHandler(safeWriter{a.stderr}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// failOnSecrets exits 3 when the change adds a credential, naming each
// file, line and rule, never the credential, or has a file too large to
// check.
func failOnSecrets(ctx context.Context, a *app, ch *gitctx.Change, gate *secrets.Gate) error {
	found, unchecked, err := pack.AddedSecrets(ctx, ch, gate)
	if err != nil {
		return err
	}
	lines := make([]string, len(found))
	for i, f := range found {
		lines[i] = f.String()
	}
	return blockOn(a, "the change", lines, unchecked, "remove them from the change (and rotate any that were real)")
}

// blockOn names what stops a change (what: "the change", "the push to
// origin"): the files too large to be checked, then the credentials
// found, and returns the error that exits 3 (nil when there is neither).
func blockOn(a *app, what string, found, unchecked []string, fix string) error {
	if len(unchecked) > 0 {
		fmt.Fprintf(a.stderr, "gitctx: %s has %d file%s too large to check for credentials (the check reads at most %d MiB of a file's change):\n",
			terminalSafe(what), len(unchecked), plural(len(unchecked)), pack.AddedLimit>>20)
		for _, p := range unchecked {
			fmt.Fprintf(a.stderr, "  %s\n", terminalSafe(p))
		}
	}
	if len(found) > 0 {
		fmt.Fprintf(a.stderr, "gitctx: %s adds %d credential%s:\n", terminalSafe(what), len(found), plural(len(found)))
		for _, f := range found {
			fmt.Fprintf(a.stderr, "  %s\n", terminalSafe(f))
		}
		return fmt.Errorf("%w: %s", errSecretsBlocked, fix)
	}
	if len(unchecked) > 0 {
		return fmt.Errorf("%w: a file that cannot be checked is not let through; keep such files out of git (git LFS), or check them another way", errUnchecked)
	}
	return nil
}

// safeWriter keeps control characters from reaching a terminal.
type safeWriter struct {
	w interface{ Write([]byte) (int, error) }
}

func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := s.w.Write([]byte(terminalSafe(string(p)))); err != nil {
		return 0, err
	}
	return len(p), nil
}
