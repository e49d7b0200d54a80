package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/secrets"
)

// packOptions are the settings of `gitctx pack`.
type packOptions struct {
	spec      string // RANGE or REV, if given
	staged    bool
	worktree  bool
	patch     string
	out       string
	output    string
	format    string
	mode      string
	maxTokens int
	provider  string
	model     string
	include   []string
	exclude   []string
	maxFileKB int
	failOn    bool
	split     bool
	noNeigh   bool
	maxNeigh  int
	history   int
	quiet     bool
	progress  string
	config    string
	maxFiles  int
	maxBytes  int64
	ctx       contextOptions
	settings  *settings // where each value came from; set by configure
}

func (o *packOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&o.staged, "staged", false, "pack what is staged in the index, against HEAD (the pre-commit case)")
	f.BoolVar(&o.worktree, "worktree", false, "pack every uncommitted change against HEAD, untracked files included (the default)")
	f.StringVar(&o.patch, "patch", "", "pack a unified diff read from `FILE` (- for stdin)")
	f.StringVar(&o.out, "out", "", "write pack and record.json into `DIR` (default .gitctx/ at the repository root)")
	f.StringVarP(&o.output, "output", "o", "", "write the pack alone to `FILE` (- for stdout); record.json still goes to --out")
	f.StringVar(&o.format, "format", "markdown", "pack format: markdown, xml or json")
	f.StringVar(&o.mode, "mode", "auto", "pack type: auto (full if it fits, else summary), full or summary")
	f.IntVar(&o.maxTokens, "max-tokens", 0, "token budget of the pack (default: from --model's limits, 128000 without a provider)")
	f.StringVar(&o.provider, "provider", "", "size the pack for this provider: openai, anthropic, gemini, ollama, compatible, command or none")
	f.StringVar(&o.model, "model", "", "size the pack for this model (default: the provider's usual one)")
	f.StringSliceVar(&o.include, "include", nil, "pack only files matching `GLOB` (repeatable, or comma-separated)")
	f.StringSliceVar(&o.exclude, "exclude", nil, "leave out files matching `GLOB` (repeatable, or comma-separated)")
	f.IntVar(&o.maxFileKB, "max-file-size-kb", pack.DefaultMaxFileBytes/1024, "files larger than this are not shown whole")
	f.BoolVar(&o.split, "split", false, "when the full pack does not fit, write it as several parts (pack-1.md, pack-2.md, …), each within the budget, instead of a summary")
	f.BoolVar(&o.noNeigh, "no-neighbours", false, "leave out neighbour files (tests, imports, importers, co-changed files); guide files stay")
	f.IntVar(&o.maxNeigh, "max-neighbours", 12, "pack at most `N` neighbour files (0: none)")
	f.IntVar(&o.history, "history-depth", 10000, "mine the `N` most recent commits for files that change together (0: none)")
	f.BoolVar(&o.failOn, "fail-on-secrets", false, "exit 3 when the change adds a credential (the outputs, redacted, are still written)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print nothing but errors")
	f.StringVar(&o.progress, "progress", "auto", "progress on stderr: auto (on a terminal), always or never")
	f.StringVar(&o.config, "config", "", "read settings from `FILE` instead of .gitctx.yml at the repository root")
	f.IntVar(&o.maxFiles, "max-files", pack.DefaultMaxFiles, "a full pack shows at most `N` files whole")
	f.Int64Var(&o.maxBytes, "max-content-bytes", pack.DefaultMaxContentBytes, "a full pack holds at most `N` bytes of file content")
	o.ctx.addFlags(f)
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
  REV             one commit against its first parent (a root commit against nothing)
  --staged        the index against HEAD
  --patch FILE    a unified diff (- reads stdin)
  --worktree      every uncommitted change against HEAD (the default)

Outputs go to .gitctx/ at the repository root (kept out of git by a
.gitignore there), or to --out DIR: pack.md (or pack.xml, pack.json) and
record.json. Writes are atomic: a failed or interrupted run leaves earlier
outputs intact.` + helpFooter,
		Example: `  gitctx pack HEAD~3..HEAD
  gitctx pack main...feature --format xml
  gitctx pack --staged -o - | llm "review this"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef(cmd, fmt.Errorf("pack takes at most one range or revision, got %d: %s", len(args), strings.Join(args, " ")))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := configure(cmd.Context(), cmd, a, o.config)
			if err != nil {
				return err
			}
			o.settings = s
			if len(args) == 1 {
				o.spec = args[0]
			}
			if err := o.validate(cmd); err != nil {
				return err
			}
			return runPack(cmd.Context(), a, o)
		},
	}
	o.addFlags(cmd)
	return cmd
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
	if o.maxTokens < 0 {
		return usagef(cmd, fmt.Errorf("--max-tokens must be positive, got %d", o.maxTokens))
	}
	if o.maxNeigh < 0 || o.history < 0 {
		return usagef(cmd, fmt.Errorf("--max-neighbours and --history-depth cannot be negative"))
	}
	if o.maxFileKB <= 0 {
		return usagef(cmd, fmt.Errorf("--max-file-size-kb must be positive, got %d", o.maxFileKB))
	}
	if o.maxFiles <= 0 || o.maxBytes <= 0 {
		return usagef(cmd, errors.New("--max-files and --max-content-bytes must be positive"))
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
	if err := saveOutputs(ctx, a, o, pr.format, pr.res, pr.outDir, pr.defaultDir); err != nil {
		return err
	}
	prog.done()
	if !o.quiet {
		printWarnings(a, pr.res.Record, o.ctx.errorMode)
		fmt.Fprintln(a.stderr, terminalSafe(summaryLine(pr.res.Record, pr.outDir, o)))
	}
	if o.failOn {
		return failOnSecrets(ctx, a, pr.ch, pr.gate)
	}
	return nil
}

// packRun is a built pack and what it was built from.
type packRun struct {
	ch         *gitctx.Change // the caller closes it
	gate       *secrets.Gate
	counter    pack.Counter
	res        *pack.Result
	format     pack.Format
	outDir     string
	defaultDir bool // outDir is .gitctx/, which gitctx keeps ignored
	empty      bool // the change touches nothing: res holds only a record
}

// buildPack selects the change the options name and packs it.
func buildPack(ctx context.Context, a *app, o *packOptions, prog *progress) (*packRun, error) {
	prog.stage("selecting the change")
	ch, err := selectChange(ctx, a, o)
	if err != nil {
		return nil, err
	}
	pr := &packRun{ch: ch}
	if err := pr.build(ctx, a, o, prog); err != nil {
		ch.Close()
		return nil, err
	}
	return pr, nil
}

func (pr *packRun) build(ctx context.Context, a *app, o *packOptions, prog *progress) error {
	budget, counter, err := resolveBudget(a, o)
	if err != nil {
		return err
	}
	gate, err := newGate(ctx, a, pr.ch)
	if err != nil {
		return err
	}
	format, _ := pack.ParseFormat(o.format)
	extra := o.settings.extra()
	rules := pack.DefaultRules()
	rules.Include, rules.Exclude = o.include, o.exclude
	rules.ExcludeDirs(extra.ExcludedDirectories...)
	rules.ExcludeExtensions(extra.ExcludedExtensions...)
	uctx, err := o.ctx.options(ctx, a, pr.ch, o.settings)
	if err != nil {
		return err
	}
	v, _ := buildVersion()
	res, err := pack.Build(ctx, pr.ch, pack.Options{
		Format:          format,
		Mode:            o.effectiveMode(),
		Rules:           rules,
		MaxFileBytes:    int64(o.maxFileKB) * 1024,
		MaxFiles:        o.maxFiles,
		MaxContentBytes: o.maxBytes,
		Context:         uctx,
		Truncation: pack.Truncation{
			MaxFileBytes: int64(extra.Truncation.MaxFileBytes),
			HeadLines:    extra.Truncation.PreserveHeadLines,
			TailLines:    extra.Truncation.PreserveTailLines,
		},
		KeyFiles: pack.KeyFiles{
			MaxPerCategory:         extra.KeyFiles.MaxPerCategory,
			MaxTotal:               extra.KeyFiles.MaxTotal,
			MaxContentPerFileBytes: int64(extra.KeyFiles.MaxContentPerFileBytes),
		},
		Budget:        budget,
		Split:         o.split,
		NoNeighbours:  o.noNeigh || o.maxNeigh == 0,
		MaxNeighbours: o.maxNeigh,
		HistoryDepth:  historyDepth(o.history),
		Counter:       counter,
		Gate:          gate,
		Tool:          pack.Tool{Name: "gitctx", Version: v},
		Progress:      prog.stage,
	})
	pr.empty = errors.Is(err, pack.ErrEmpty)
	if err != nil && !pr.empty {
		return err
	}
	pr.gate, pr.counter, pr.res, pr.format = gate, counter, res, format
	pr.outDir, pr.defaultDir = outputDir(pr.ch, o)
	return nil
}

// selectChange selects the change the options name.
func selectChange(ctx context.Context, a *app, o *packOptions) (*gitctx.Change, error) {
	repo, err := gitctx.Open(ctx, ".")
	if err != nil && !(o.patch != "" && errors.Is(err, gitctx.ErrNotRepository)) {
		return nil, err
	}
	switch {
	case o.patch != "":
		var in io.Reader = a.stdin
		if o.patch != "-" {
			f, err := os.Open(o.patch)
			if err != nil {
				return nil, fmt.Errorf("read --patch (a file written by git diff or diff -u, or - for stdin): %w", err)
			}
			defer f.Close()
			in = f
		}
		return gitctx.ReadPatch(ctx, repo, o.patch, in)
	case o.staged:
		return repo.SelectStaged(ctx)
	case o.spec != "":
		return repo.SelectRange(ctx, o.spec)
	}
	return repo.SelectWorktree(ctx)
}

// outputDir is --out, or .gitctx/ at the repository root (then
// defaultDir is true and gitctx keeps it ignored by git).
func outputDir(ch *gitctx.Change, o *packOptions) (dir string, defaultDir bool) {
	if o.out != "" {
		return o.out, false
	}
	if r := ch.Repo(); r != nil {
		return filepath.Join(r.Root, ".gitctx"), true
	}
	return ".gitctx", true
}

// summaryLine is the one line a run prints: what was packed and where.
func summaryLine(rec *pack.Record, outDir string, o *packOptions) string {
	where := filepath.Join(outDir, rec.Pack.Path)
	switch o.output {
	case "-":
		where = "stdout"
	case "":
	default:
		where = o.output
	}
	shown := 0
	for _, f := range rec.Files {
		if f.Included && f.Representation != pack.RepNameOnly {
			shown++
		}
	}
	size := fmt.Sprintf("%s of %s tokens", thousands(rec.Pack.Tokens), thousands(rec.Budget.Limit))
	if rec.Pack.Parts > 1 {
		size = fmt.Sprintf("%d parts, the largest %s of %s tokens", rec.Pack.Parts, thousands(rec.Budget.Used), thousands(rec.Budget.Limit))
		where = filepath.Join(outDir, "pack-*."+filepath.Ext(rec.Pack.Path)[1:])
	}
	return fmt.Sprintf("gitctx: %s pack, %d file%s (%d shown, %d listed by name), %s, %d redaction%s → %s (record: %s)",
		rec.Pack.Type, len(rec.Files), plural(len(rec.Files)), shown, len(rec.Files)-shown,
		size, rec.Redactions.Total, plural(rec.Redactions.Total), where, filepath.Join(outDir, "record.json"))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// historyDepth maps --history-depth to pack's option, where 0 means the
// default and a negative depth mines nothing.
func historyDepth(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// effectiveMode is --mode, or summary when the configuration prefers it
// and --mode was left at its default.
func (o *packOptions) effectiveMode() string {
	if o.mode == "auto" && o.settings.source("mode") == "default" && o.settings.extra().PreferSummary {
		return "summary"
	}
	return o.mode
}

// printWarnings shows the record's warnings (problems with context files,
// files that could not be read), at most a screenful; with --error-mode
// ignore only how many there are.
func printWarnings(a *app, rec *pack.Record, mode string) {
	const most = 20
	if mode == string(pack.ErrorIgnore) {
		if n := len(rec.Warnings); n > 0 {
			fmt.Fprintf(a.stderr, "gitctx: %d problem%s recorded in record.json (--error-mode ignore)\n", n, plural(n))
		}
		return
	}
	for i, w := range rec.Warnings {
		if i == most {
			fmt.Fprintf(a.stderr, "gitctx: warning: … %d more in record.json\n", len(rec.Warnings)-most)
			return
		}
		fmt.Fprintf(a.stderr, "gitctx: warning: %s: %s\n", terminalSafe(w.Path), terminalSafe(w.Message))
	}
}
