package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gitctx/gitctx/pack"
)

// packOptions are the settings of `gitctx pack`.
type packOptions struct {
	reviewFiles []namedFile // the files review's flags name, checked with -o (see checkOutputPaths)
	spec        string      // RANGE or REV, if given
	staged      bool
	worktree    bool
	patch       string
	out         string
	output      string
	format      string
	mode        string
	maxTokens   int
	provider    string
	model       string
	include     []string
	exclude     []string
	maxFileKB   int
	failOn      bool
	split       bool
	noNeigh     bool
	maxNeigh    int
	history     int
	quiet       bool
	progress    string
	config      string
	maxFiles    int
	maxBytes    int64
	ctx         contextOptions
	settings    *settings // where each value came from; set by configure
	// pullRequest gives the pull request the change belongs to, when a
	// review knows it (the Action's event, --pr N): its title and
	// description join the pack. It is asked only for a change that is not
	// empty (nothing is asked of GitHub for an empty one).
	pullRequest func(context.Context) (*pack.PullRequest, error)
}

func (o *packOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&o.staged, "staged", false, "pack what is staged in the index, against HEAD (the pre-commit case)")
	f.BoolVar(&o.worktree, "worktree", false, "pack every uncommitted change against HEAD, untracked files included (the default)")
	f.StringVar(&o.patch, "patch", "", "pack a unified diff, or a series (git format-patch --stdout, git log -p), read from `FILE` (- for stdin)")
	f.StringVar(&o.out, "out", "", "write pack and record.json into `DIR` (default .gitctx/ at the repository root)")
	f.StringVarP(&o.output, "output", "o", "", "write the pack alone to `FILE` (- for stdout); record.json still goes to --out")
	f.StringVar(&o.format, "format", "markdown", "pack format: markdown, xml or json")
	f.StringVar(&o.mode, "mode", "auto", "pack type: auto (full if it fits, else summary), full or summary")
	intFlag(f, &o.maxTokens, "max-tokens", 0, "token budget of the pack, `N` tokens (default: from --model's limits, 128000 without a provider)")
	f.StringVar(&o.provider, "provider", "", "size the pack for this provider: openai, anthropic, gemini, ollama, compatible, command or none")
	f.StringVar(&o.model, "model", "", "size the pack for this model (default: the provider's usual one)")
	f.StringSliceVar(&o.include, "include", nil, "pack only files matching `GLOB` (repeatable, or comma-separated)")
	f.StringSliceVar(&o.exclude, "exclude", nil, "leave out files matching `GLOB` (repeatable, or comma-separated)")
	intFlag(f, &o.maxFileKB, "max-file-size-kb", pack.DefaultMaxFileBytes/1024, "files larger than `N` KB are not shown whole")
	f.BoolVar(&o.split, "split", false, "when the full pack does not fit, write it as several parts (pack-1.md, pack-2.md, …), each within the budget, instead of a summary")
	f.BoolVar(&o.noNeigh, "no-neighbours", false, "leave out neighbour files (tests, imports, importers, co-changed files); guide files stay")
	intFlag(f, &o.maxNeigh, "max-neighbours", 12, "pack at most `N` neighbour files (0: none)")
	intFlag(f, &o.history, "history-depth", 10000, "mine the `N` most recent commits for files that change together (0: none)")
	f.BoolVar(&o.failOn, "fail-on-secrets", false, "exit 3 when the change adds a credential (the outputs, redacted, are still written)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print nothing but errors")
	f.StringVar(&o.progress, "progress", "auto", "progress on stderr: auto (on a terminal), always or never")
	f.StringVar(&o.config, "config", "", "read settings from `FILE` instead of .gitctx.yml at the repository root")
	intFlag(f, &o.maxFiles, "max-files", pack.DefaultMaxFiles, "a full pack shows at most `N` files whole")
	intFlag(f, &o.maxBytes, "max-content-bytes", pack.DefaultMaxContentBytes, "a full pack holds at most `N` bytes of file content")
	o.ctx.addFlags(f)
	completeValues(cmd, map[string][]string{
		"format":     {"markdown", "xml", "json"},
		"mode":       {"auto", "full", "summary"},
		"provider":   {"openai", "anthropic", "gemini", "ollama", "compatible", "command", "none"},
		"progress":   {"auto", "always", "never"},
		"error-mode": {"strict", "flexible", "ignore"},
	})
}

func newPackCommand(a *app) *cobra.Command {
	o := &packOptions{}
	cmd := &cobra.Command{
		Use:   "pack [RANGE|REV]",
		Short: "Build a context pack and its transparency record",
		Long: `Build a context pack of a change and its transparency record.

The change is, by the first that applies:
  A..B            the tree of A against the tree of B
  A...B           from the merge base of A and B to B (what a pull request shows)
  REV, REV^!      one commit against its first parent (a root commit against nothing)
  --staged        the index against HEAD
  --patch FILE    a unified diff, or a series of commits' patches (- reads stdin)
  --worktree      every uncommitted change against HEAD (the default)

Outputs go to .gitctx/ at the repository root (kept out of git by a
.gitignore there), or to --out DIR: pack.md (or pack.xml, pack.json) and
record.json. Writes are atomic: a failed or interrupted run leaves earlier
outputs intact.` + helpFooter,
		Example: `  gitctx pack HEAD~3..HEAD
  gitctx pack main...feature --format xml
  gitctx pack --staged -o - | llm "review this"`,
		Args: atMostOneSpec,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.settle(cmd, a, args); err != nil {
				return err
			}
			if err := o.validate(cmd); err != nil {
				return err
			}
			warnIgnored(a.stderr, o, nil)
			return runPack(cmd.Context(), a, o)
		},
	}
	o.addFlags(cmd)
	return cmd
}

// atMostOneSpec is the argument check of pack and review: one range or
// revision at most.
func atMostOneSpec(cmd *cobra.Command, args []string) error {
	if dash := cmd.ArgsLenAtDash(); dash > 0 && dash < len(args) {
		// a revision before --, paths after it: git diff's form (a lone
		// -- only ends the flags, for a revision that starts with "-")
		return usagef(cmd, fmt.Errorf("%s does not take paths after -- as git diff does (got %s): to pack some files only, give --include with a glob, as in --include '%s/**'", cmd.Name(), strings.Join(args[dash:], " "), strings.TrimSuffix(args[dash], "/")))
	}
	if len(args) > 1 {
		return usagef(cmd, fmt.Errorf("%s takes at most one range or revision, got %d: %s", cmd.Name(), len(args), strings.Join(args, " ")))
	}
	return nil
}

// settle applies the environment and the configuration file to the
// flags, and takes the range or revision argument.
func (o *packOptions) settle(cmd *cobra.Command, a *app, args []string) error {
	s, err := configure(cmd.Context(), cmd, a, o.config)
	if err != nil {
		return err
	}
	if err := s.checkTrust(cmd, a); err != nil {
		return err
	}
	o.settings = s
	if len(args) == 1 {
		o.spec = args[0]
	}
	return nil
}

func (o *packOptions) validate(cmd *cobra.Command) error {
	n := 0
	for _, set := range []bool{o.spec != "", o.staged, o.worktree, o.patch != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return usagef(cmd, errors.New("give one of RANGE, --staged, --worktree and --patch"))
	}
	if o.split && o.output != "" {
		return usagef(cmd, errors.New("--split writes several files: use --out DIR, not -o"))
	}
	if err := notDirectory(cmd, "-o", o.output, "name a file, or use --out "+o.output); err != nil {
		return err
	}
	if _, err := pack.ParseFormat(o.format); err != nil {
		return usagef(cmd, err)
	}
	switch o.mode {
	case "auto", "full", "summary":
	default:
		return usagef(cmd, fmt.Errorf("unknown --mode %q (use auto, full or summary)", o.mode))
	}
	switch o.progress {
	case "auto", "always", "never":
	default:
		return usagef(cmd, fmt.Errorf("unknown --progress %q (use auto, always or never)", o.progress))
	}
	if err := checkLimits(cmd,
		nonNegative("--max-tokens", o.maxTokens),
		nonNegative("--max-neighbours", o.maxNeigh),
		nonNegative("--history-depth", o.history),
		positive("--max-file-size-kb", o.maxFileKB),
		positive("--max-files", o.maxFiles),
		positive("--max-content-bytes", o.maxBytes),
	); err != nil {
		return err
	}
	rules := pack.Rules{Include: o.include, Exclude: o.exclude}
	if err := rules.Validate(); err != nil {
		return usagef(cmd, err)
	}
	return o.ctx.validate(cmd)
}

func runPack(ctx context.Context, a *app, o *packOptions) error {
	prog := newProgress(a.stderr, o.progress, o.quiet)
	defer prog.done()
	pr, err := buildPack(ctx, a, o, prog)
	if err != nil {
		return err
	}
	defer pr.ch.Close()
	if pr.empty {
		prog.done()
		return saveEmpty(ctx, a, o, pr.res.Record, pr.outDir, pr.defaultDir)
	}
	prog.stage("writing")
	if err := saveOutputs(ctx, a, o, pr); err != nil {
		return err
	}
	prog.done()
	if !o.quiet {
		printReport(a, pr, o)
	}
	if o.failOn {
		return failOnSecrets(ctx, a, pr.ch, pr.gate)
	}
	return nil
}

// effectiveMode is --mode, or summary when the configuration prefers it
// and --mode was left at its default.
func (o *packOptions) effectiveMode() string {
	if o.mode == "auto" && o.settings.source("mode") == "default" && o.settings.extra().PreferSummary {
		return "summary"
	}
	return o.mode
}
