package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/spf13/cobra"
)

// app holds what every command needs from the outside world.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string

	repoOnce sync.Once // see openRepo
	repo     *gitctx.Repo
	repoErr  error

	settings *settings // the command's, once configured: usage errors name where a value came from
}

// openRepo opens the repository the working directory is in, once a run:
// the configuration file is looked for at its root, and the change is
// selected from it.
func (a *app) openRepo(ctx context.Context) (*gitctx.Repo, error) {
	a.repoOnce.Do(func() { a.repo, a.repoErr = gitctx.Open(ctx, ".") })
	return a.repo, a.repoErr
}

// run is gitctx's whole program: it parses args, runs the command and maps
// its outcome to an exit code. It never calls os.Exit, so deferred work
// always runs.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	root := newRootCommand(a)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if a.repo != nil {
		_ = a.repo.Close() // stops what it still does in the background
	}
	if err == nil {
		return exitOK
	}
	code := exitCode(ctx, err)
	switch code {
	case exitCancelled:
		fmt.Fprintln(stderr, "gitctx: interrupted; no output was left half-written (outputs saved before the interrupt are complete, the rest are as they were)")
	default:
		msg := err.Error()
		var uerr *usageError
		if errors.As(err, &uerr) {
			msg = a.settings.nameSources(msg)
		}
		fmt.Fprintf(stderr, "gitctx: %s\n", terminalSafe(redactedMessage(ctx, a, msg)))
		if uerr != nil && uerr.cmd != nil {
			fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", uerr.cmd.CommandPath())
		}
	}
	return code
}

func newRootCommand(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "gitctx",
		Short: "Pack a git change for review by a language model",
		Long: `gitctx turns a git change into a context pack a language model can review:
the diff, the touched files, every credential removed, sized to the model's
token budget, with a transparency record (record.json) of what was sent,
what was left out and why.` + helpFooter,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	// --version, as most commands have it; `gitctx version` says more
	root.Version, _ = buildVersion()
	root.SetVersionTemplate("gitctx {{.Version}}\n")
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetIn(a.stdin)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &usageError{cmd: cmd, err: unknownFlagError(cmd, plainFlagError(err))}
	})
	root.AddCommand(newPackCommand(a), newReviewCommand(a), newActionCommand(a), newHookCommand(a), newConfigCommand(a), newExplainCommand(a), newVersionCommand(a))
	strictCompletion(root)
	strictHelp(root)
	return root
}

// helpFooter ends the long help of every command.
const helpFooter = `

Settings come from, first match wins: a command-line flag, a GITCTX_<KEY>
environment variable (GITCTX_MAX_TOKENS=50000), the configuration file
(.gitctx.yml at the repository root or --config FILE; key max_tokens),
then built-in defaults. gitctx config shows each value and its source.

Exit codes:
  0    success, including "nothing to pack"
  1    error
  2    bad usage: an unknown flag, a bad value, conflicting arguments
  3    secrets found where they block (pre-commit, --fail-on-secrets),
       or a file too large to check for them
  4    the token budget cannot be met
  130  interrupted (no output is left half-written)`

// terminalSafe makes text from a repository safe to print: control
// characters other than newline and tab become visible symbols, and
// bidirectional controls become \u escapes, so a file name cannot move
// the cursor, ring a bell, set a window title or print reordered.
func terminalSafe(s string) string {
	if strings.IndexFunc(s, unsafeRune) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('\u2421')
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeRune reports whether r must not reach a terminal as it is: a
// control character (C0 but newline and tab, DEL, C1) or a bidirectional
// control.
func unsafeRune(r rune) bool {
	switch {
	case (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (0x80 <= r && r < 0xa0):
		return true
	case 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTerminalFd(f.Fd())
}
