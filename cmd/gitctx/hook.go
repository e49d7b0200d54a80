package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// The git hooks gitctx can be: hookNames[0] is the default.
var hookNames = []string{"pre-commit", "pre-push", "pre-receive"}

// hookOptions are the settings of `gitctx hook install|uninstall|run`.
type hookOptions struct {
	hook   string   // pre-commit, pre-push or pre-receive
	args   []string // what git passes the hook (pre-push: remote name and URL)
	force  bool     // install: replace a hook chained by an earlier install
	pack   bool     // pre-commit: also write a pack of the staged change
	review bool     // pre-commit: also review the staged change, once it passes
}

func newHookCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook install|uninstall|run [pre-commit|pre-push|pre-receive]",
		Short: "Block commits and pushes that add credentials (a git hook)",
		Long: `Check each commit, before git records it, for credentials on the lines it
adds, with gitleaks' default rules (and those of .gitleaks.toml as it is in
HEAD). A commit that adds one is stopped with exit status 3 and a list of
file, line and rule; the credential itself is never printed.

  gitctx hook install [HOOK]            write the hook git runs (HOOK: pre-commit,
                                        the default; pre-push; pre-receive)
  gitctx hook uninstall [HOOK]          remove it, put back what was there
  gitctx hook run pre-commit            what the hook runs (the pre-commit
                                        framework's entry too)
  gitctx hook run pre-push REMOTE URL   check the commits being pushed
  gitctx hook run pre-receive           on the server: check the commits a
                                        push brings

The pre-commit check reads the index git is about to commit (GIT_INDEX_FILE,
as git commit -a and git commit PATH set it), never the work tree, and does
nothing else: no neighbours, no history, no token counts. Skip it once with
GITCTX_SKIP=1 (git commit --no-verify skips every hook).` + helpFooter,
		Example: `  gitctx hook install
  GITCTX_SKIP=1 git commit -m "wip"
  gitctx hook uninstall`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usagef(cmd, fmt.Errorf("hook needs a subcommand: install, uninstall or run"))
		},
	}
	cmd.AddCommand(newHookInstallCommand(a), newHookUninstallCommand(a), newHookRunCommand(a))
	return cmd
}

func newHookInstallCommand(a *app) *cobra.Command {
	o := &hookOptions{}
	cmd := &cobra.Command{
		Use:   "install [pre-commit|pre-push|pre-receive]",
		Short: "Install the git hook (pre-commit by default)",
		Long: `Write the hook where git runs hooks from (git rev-parse --git-path hooks:
core.hooksPath when set, and the directory a linked worktree shares with the
main one). The hook is a small sh script marked "# gitctx-hook v1"; running
install again rewrites it.

A hook of another tool that is already there is kept: it is renamed
HOOK.gitctx-chained, runs first with the same arguments and input, and
its failure stops the commit. gitctx hook uninstall puts it back as it was.
If a hook chained by an earlier install is still there next to another
tool's hook, install stops unless --force is given, which replaces the old
chained hook with the current one.` + helpFooter,
		Args: hookArgs(&o.hook, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (o.pack || o.review) && o.hook != "pre-commit" {
				return usagef(cmd, fmt.Errorf("--pack and --review are for the pre-commit hook"))
			}
			return runHookInstall(cmd.Context(), a, o)
		},
	}
	cmd.Flags().BoolVar(&o.force, "force", false, "replace a hook chained by an earlier install with the hook now in place")
	hookRunFlags(cmd, o)
	return cmd
}

func newHookUninstallCommand(a *app) *cobra.Command {
	o := &hookOptions{}
	return &cobra.Command{
		Use:   "uninstall [pre-commit|pre-push|pre-receive]",
		Short: "Remove gitctx's git hook and put back the one it replaced",
		Long: `Remove the hook gitctx hook install wrote, and put the hook it replaced
back, byte for byte and with its mode. A hook gitctx did not write is left
alone; with no gitctx hook installed, uninstall says so and exits 0.` + helpFooter,
		Args: hookArgs(&o.hook, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runHookUninstall(cmd.Context(), a, o)
		},
	}
}

func newHookRunCommand(a *app) *cobra.Command {
	o := &hookOptions{}
	cmd := &cobra.Command{
		Use:   "run pre-commit|pre-push|pre-receive [ARGS...]",
		Short: "Run the hook's check now (what the installed hook calls)",
		Long: `pre-commit: check what is staged (the index in GIT_INDEX_FILE, else the
repository's index) against HEAD — against nothing on a branch with no
commit yet — for credentials on added lines. Nothing staged: exit 0,
quietly. With --pack, a pack of the staged change is also written to
.gitctx/ (redacted, as gitctx pack --staged writes it), for a review
before the commit. With --review, a change the check lets through is
reviewed as gitctx review --staged reviews it (the provider of .gitctx.yml
or GITCTX_PROVIDER) and the answer printed; a review never blocks the
commit. install --pack/--review writes a hook that passes them.

pre-push REMOTE URL: read git's pre-push input from stdin, one
"<local ref> <local sha> <remote ref> <remote sha>" line per ref, and check
every commit being pushed that no remote-tracking branch holds yet (merge
commits are not checked on their own; the commits they bring are).

pre-receive: in the repository pushed to (a server's bare repository), read
git's pre-receive input from stdin, one "<old sha> <new sha> <ref>" line per
ref, and check every commit the push brings that no ref holds yet, with the
rules of the .gitleaks.toml the push builds on. A credential rejects the
whole push; git shows the pusher the list.

A credential found: its file, line and rule on stderr, and exit status 3.
GITCTX_SKIP=1: a one-line notice and exit 0.` + helpFooter,
		Args: hookArgs(&o.hook, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				o.args = args[1:]
			}
			if o.hook != "pre-push" && len(o.args) > 0 {
				return usagef(cmd, fmt.Errorf("%s takes no arguments, got %s", o.hook, strings.Join(o.args, " ")))
			}
			if (o.pack || o.review) && o.hook != "pre-commit" {
				return usagef(cmd, fmt.Errorf("--pack and --review are for the pre-commit hook"))
			}
			if skipHook(a) {
				fmt.Fprintf(a.stderr, "gitctx: GITCTX_SKIP is set: the %s credential check is skipped\n", o.hook)
				return nil
			}
			switch o.hook {
			case "pre-push":
				return runPrePush(cmd.Context(), a, o)
			case "pre-receive":
				return runPreReceive(cmd.Context(), a)
			}
			return runPreCommit(cmd.Context(), a, o)
		},
	}
	hookRunFlags(cmd, o)
	return cmd
}

// hookRunFlags are the flags of the pre-commit hook's run, which install
// writes into the hook it installs.
func hookRunFlags(cmd *cobra.Command, o *hookOptions) {
	cmd.Flags().BoolVar(&o.pack, "pack", false, "pre-commit: also write a pack of the staged change to .gitctx/ for review")
	cmd.Flags().BoolVar(&o.review, "review", false, "pre-commit: once the check passes, also review the staged change with the provider of .gitctx.yml or GITCTX_PROVIDER and print the review (it never blocks the commit)")
}

// runFlags are the flags install writes into the hook it installs.
func (o *hookOptions) runFlags() []string {
	var out []string
	if o.pack {
		out = append(out, "--pack")
	}
	if o.review {
		out = append(out, "--review")
	}
	return out
}

// hookArgs checks that the first argument, if any, names a hook (stored
// in *hook, pre-commit when absent) and that at most extra more follow.
func hookArgs(hook *string, extra int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		*hook = hookNames[0]
		if len(args) == 0 {
			return nil
		}
		if !slices.Contains(hookNames, args[0]) {
			return usagef(cmd, fmt.Errorf("unknown hook %q: want %s or %s", args[0], strings.Join(hookNames[:len(hookNames)-1], ", "), hookNames[len(hookNames)-1]))
		}
		*hook = args[0]
		if len(args) > 1+extra {
			return usagef(cmd, fmt.Errorf("too many arguments: %s", strings.Join(args[1:], " ")))
		}
		return nil
	}
}

// skipHook reports GITCTX_SKIP set to anything but "", "0" or "false".
func skipHook(a *app) bool {
	switch strings.TrimSpace(a.getenv("GITCTX_SKIP")) {
	case "", "0", "false":
		return false
	}
	return true
}
