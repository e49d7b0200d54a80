package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/pack/profile"
	"github.com/gitctx/gitctx/review"
)

// reviewOptions are the settings of `gitctx review`: those of pack, and
// where the pack and the answer go.
type reviewOptions struct {
	packOptions
	pr           int
	post         string
	postFile     string
	dryRun       bool
	maxCost      float64
	inline       bool
	force        bool
	sarif        string
	rdjson       string
	baseURL      string
	command      string
	maxOutput    int
	timeout      time.Duration
	instructions string
	notSending   string // why the provider was set to none, when something else (the Action) decided it
	unposted     string // where the answer goes instead with --post none, when something else (the Action) takes it
}

func (o *reviewOptions) addFlags(cmd *cobra.Command) {
	o.packOptions.addFlags(cmd)
	f := cmd.Flags()
	intFlag(f, &o.pr, "pr", 0, "the pull request `N` to post on (default: the one in GITHUB_EVENT_PATH)")
	f.StringVar(&o.post, "post", "auto", "where the review goes: github (a sticky PR comment), stdout, file (review.md in --out, or --post-file), none, or auto (github with a pull request, else file)")
	f.StringVar(&o.postFile, "post-file", "", "write the review to `FILE` (implies --post file)")
	f.BoolVar(&o.dryRun, "dry-run", false, "print the prompt and its token and cost estimate; send nothing, post nothing")
	f.Float64Var(&o.maxCost, "max-cost", 0, "refuse to send a prompt whose estimated cost is above `USD` (0: no limit)")
	f.BoolVar(&o.inline, "inline", false, "also post findings as inline review comments on the lines they point at")
	f.BoolVar(&o.force, "force", false, "ask the model even when this pack was already reviewed on the pull request")
	f.StringVar(&o.sarif, "sarif", "", "also write the findings as SARIF 2.1.0 to `FILE`")
	f.StringVar(&o.rdjson, "rdjson", "", "also write the findings in reviewdog's rdjson format to `FILE`")
	f.StringVar(&o.baseURL, "base-url", "", "the provider's API base `URL` (default: OPENAI_BASE_URL or ANTHROPIC_BASE_URL, else the provider's own)")
	f.StringVar(&o.command, "command", "", "with --provider command: the `CMD` that reads the prompt on stdin and prints the review (run with sh -c)")
	intFlag(f, &o.maxOutput, "max-output-tokens", 0, "cap the answer at `N` tokens (default: the model's reserved output, at most 8192)")
	f.DurationVar(&o.timeout, "timeout", 10*time.Minute, "give up on the model after this long, retries included")
	f.StringVar(&o.instructions, "instructions", "", "replace the review instruction with the text of `FILE` (the safety statement and answer format stay)")
	completeValues(cmd, map[string][]string{"post": {"auto", "github", "stdout", "file", "none"}})
}

func newReviewCommand(a *app) *cobra.Command { return reviewCommand(a, &reviewOptions{}) }

// reviewCommand is the review command with its options in o.
func reviewCommand(a *app, o *reviewOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "review [RANGE|REV]",
		Short: "Pack a change, ask a language model to review it, and post the answer",
		Long: `Pack a change as gitctx pack does, send the pack to a language model, and post
its review: as one sticky comment on a pull request (found by a hidden marker
and edited in place on later runs), on stdout (--post stdout), or in a file
(without a pull request, the default: review.md in --out).

The pack, record.json, the model's answer (review.md) and its findings
(findings.sarif, findings.rdjson) are saved in --out before anything is
posted, so a failed post loses nothing. The answer is
checked for credentials (the run's own API keys too) and workflow commands
before it is saved or posted. When the pack is the one the pull request's
comment already reviewed, the model is not asked again.

Providers (--provider):
  openai       OPENAI_API_KEY, OPENAI_BASE_URL (Azure OpenAI by its host)
  anthropic    ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL
  compatible   any OpenAI-compatible API at --base-url or OPENAI_BASE_URL
               (vLLM, LiteLLM, llama.cpp); OPENAI_API_KEY if it needs one
  ollama       a local Ollama (http://localhost:11434/v1 unless --base-url)
  gemini       Gemini's OpenAI-compatible API, GEMINI_API_KEY
  command      pipe the prompt to --command (llm, claude -p, …)
  none         pack only (the default)

Posting on GitHub needs GITHUB_TOKEN, GITHUB_REPOSITORY (owner/name),
--pr N or a pull request event in GITHUB_EVENT_PATH, and GITHUB_API_URL for
GitHub Enterprise.` + helpFooter,
		Example: `  gitctx review main...HEAD --provider openai --model gpt-4.1 --pr 12
  gitctx review --staged --provider command --command 'llm -m gpt-4o'
  gitctx review main...HEAD --provider anthropic --dry-run`,
		Args: atMostOneSpec,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.settle(cmd, a, args); err != nil {
				return err
			}
			if err := o.validate(cmd); err != nil {
				return err
			}
			warnIgnored(a.stderr, &o.packOptions, o)
			return runReview(cmd.Context(), a, o)
		},
	}
	o.addFlags(cmd)
	return cmd
}

func (o *reviewOptions) validate(cmd *cobra.Command) error {
	if err := o.packOptions.validate(cmd); err != nil {
		return err
	}
	if o.output != "" || o.split {
		return usagef(cmd, errors.New("review sends one pack: -o and --split are for gitctx pack"))
	}
	o.reviewFiles = []namedFile{{"--post-file", o.postFile}, {"--sarif", o.sarif}, {"--rdjson", o.rdjson}}
	switch o.post {
	case "auto":
		if o.postFile != "" {
			o.post = "file" // --post-file alone says where the review goes
		}
	case "github", "stdout", "none":
		if o.postFile != "" {
			return usagef(cmd, fmt.Errorf("--post-file is for --post file, not --post %s: drop one of them", o.post))
		}
	case "file": // without --post-file: the answer saved in --out
	default:
		return usagef(cmd, fmt.Errorf("unknown --post %q (use github, stdout, file, none or auto)", o.post))
	}
	for _, f := range []struct{ flag, path string }{{"--post-file", o.postFile}, {"--sarif", o.sarif}, {"--rdjson", o.rdjson}} {
		if err := notDirectory(cmd, f.flag, f.path, "name a file"); err != nil {
			return err
		}
	}
	if o.provider == "" {
		o.provider = "none"
	}
	if !slices.Contains(providerNames, o.provider) {
		return usagef(cmd, unknownProvider(o.provider))
	}
	if o.provider == "command" && strings.TrimSpace(o.command) == "" {
		return usagef(cmd, errors.New("--provider command needs --command 'CMD' (for example --command 'llm -m gpt-4o')"))
	}
	if cmd.Flags().Changed("pr") && o.pr == 0 {
		return usagef(cmd, errors.New("--pr 0: pull request numbers start at 1"))
	}
	if err := checkLimits(cmd,
		nonNegative("--max-cost", o.maxCost),
		nonNegative("--max-output-tokens", o.maxOutput),
		nonNegative("--pr", o.pr),
		positive("--timeout", o.timeout),
	); err != nil {
		return err
	}
	return o.checkOutputCap(cmd)
}

// checkOutputCap refuses, before anything is packed, an answer cap above
// what a known model can write: the provider would refuse the request
// after the pack was made.
func (o *reviewOptions) checkOutputCap(cmd *cobra.Command) error {
	if o.maxOutput == 0 || o.provider == "none" || o.provider == "command" {
		return nil
	}
	table, err := profile.Load()
	if err != nil {
		return nil
	}
	p, exact, err := table.Lookup(o.provider, o.model)
	if err != nil || !exact || p.MaxOutput == 0 || o.maxOutput <= p.MaxOutput {
		return nil
	}
	return usagef(cmd, fmt.Errorf("--max-output-tokens %d is more than %s can write (%d tokens): lower it, or leave it out to take %d",
		o.maxOutput, p.Known, p.MaxOutput, min(p.MaxOutput, profile.MaxReserved)))
}

// runReview packs the change, saves pack and record, and unless the
// provider is none or this is a dry run, sends the pack and posts the answer.
func runReview(ctx context.Context, a *app, o *reviewOptions) error {
	_, err := reviewChange(ctx, a, o)
	return err
}

// reviewOutcome is what a review run left, for gitctx action's outputs.
type reviewOutcome struct {
	record *pack.Record // nil when no pack was built
	outDir string
	empty  bool           // the change had nothing to pack
	result *review.Result // nil when nothing was sent
}

func reviewChange(ctx context.Context, a *app, o *reviewOptions) (*reviewOutcome, error) {
	if err := o.prRange(ctx, a); err != nil {
		return nil, err
	}
	if err := o.checkDelivery(ctx, a); err != nil {
		return nil, err
	}
	prog := newProgress(a.stderr, o.progress, o.quiet)
	defer prog.done()
	pr, err := buildPack(ctx, a, &o.packOptions, prog)
	if err != nil {
		return nil, err
	}
	defer pr.ch.Close()
	out := &reviewOutcome{record: pr.res.Record, outDir: pr.outDir, empty: pr.empty}
	if pr.empty {
		prog.done()
		return out, saveEmpty(ctx, a, &o.packOptions, pr.res.Record, pr.outDir, pr.defaultDir)
	}
	// A pack to be sent is saved once its review is done (saveReviewed),
	// so that an interrupted run leaves the previous outputs as they were.
	sending := o.provider != "none" && !o.dryRun
	if !sending {
		prog.stage("writing")
		if err := saveOutputs(ctx, a, &o.packOptions, pr); err != nil {
			return out, err
		}
	}
	prog.done()
	if !o.quiet {
		printReport(a, pr, &o.packOptions)
	}
	out.result, err = sendReview(ctx, a, o, pr)
	if sending {
		err = saveReviewed(ctx, a, o, pr, err)
	}
	if err != nil {
		return out, err
	}
	if o.failOn {
		return out, failOnSecrets(ctx, a, pr.ch, pr.gate)
	}
	return out, nil
}

// prRange reads the pull request --pr N names from GitHub: its title and
// description join the pack, and with --pr alone its change is the one
// reviewed, from the merge base of its base to its head. With a range
// given as well, the description is asked for only when the pack is to be
// sent (not on --dry-run or --provider none) and the change is not empty;
// and a GitHub that cannot be asked (no token, no repository) leaves the
// pack without it, while posting says what is missing.
func (o *reviewOptions) prRange(ctx context.Context, a *app) error {
	if o.pr == 0 || o.pullRequest != nil {
		return nil
	}
	alone := o.spec == "" && !o.staged && !o.worktree && o.patch == ""
	p, _, err := githubPoster(a, o)
	switch {
	case err != nil && alone:
		return fmt.Errorf("--pr %d without a range: %w", o.pr, err)
	case err != nil:
		return nil
	}
	number := o.pr
	if !alone {
		if o.dryRun || o.provider == "none" {
			return nil // nothing will be sent: nothing is asked of GitHub either
		}
		// asked once the change is known not to be empty
		o.pullRequest = func(ctx context.Context) (*pack.PullRequest, error) {
			pr, err := p.PullRequest(ctx)
			if err != nil {
				return nil, fmt.Errorf("--pr %d: %w", number, err)
			}
			return &pack.PullRequest{Number: number, Title: pr.Title, Body: pr.Body}, nil
		}
		return nil
	}
	pr, err := p.PullRequest(ctx)
	if err != nil {
		return fmt.Errorf("--pr %d: %w", number, err)
	}
	o.spec = pr.Base + "..." + pr.Head
	described := &pack.PullRequest{Number: number, Title: pr.Title, Body: pr.Body}
	o.pullRequest = func(context.Context) (*pack.PullRequest, error) { return described, nil }
	return nil
}
