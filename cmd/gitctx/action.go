package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/review"
)

func newActionCommand(a *app) *cobra.Command {
	o := &reviewOptions{}
	cmd := &cobra.Command{
		Use:   "action",
		Short: "The GitHub Action's entry: pack the event's change, review it and comment on the pull request",
		Long: `Run as the step of the gitctx GitHub Action (action.yml). It reads the event
(GITHUB_EVENT_NAME, GITHUB_EVENT_PATH): for a pull request it packs the
change from the merge base of its base to its head, fetching the history a
shallow checkout lacks; for a push, before..after. Settings come from the
step's GITCTX_* variables and from .gitctx.yml as it is in the base commit,
never as the pull request changes it.

With a provider and its key it sends the pack and keeps one sticky comment
on the pull request; without a key (a fork's pull request gets no secrets)
it packs only, with a notice. It writes the outputs pack-path, record-path,
pack-type, tokens, redactions and comment-url to GITHUB_OUTPUT and a summary
to GITHUB_STEP_SUMMARY, and stops the runner from reading workflow commands
from its output while it runs.` + helpFooter,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runAction(cmd.Context(), cmd, a, o)
		},
	}
	o.addFlags(cmd)
	return cmd
}

// runAction is gitctx action.
func runAction(ctx context.Context, cmd *cobra.Command, a *app, o *reviewOptions) error {
	gh := newActionsIO(a)
	defer gh.resume()
	ev, err := readEvent(a.getenv("GITHUB_EVENT_NAME"), a.getenv("GITHUB_EVENT_PATH"))
	if err != nil {
		gh.failure(ctx, err)
		return err
	}
	repo, err := gitctx.Open(ctx, ".")
	if err != nil {
		gh.failure(ctx, err)
		return err
	}
	defer repo.Close()
	if err := o.actionRange(ctx, a, repo, ev); err != nil {
		gh.failure(ctx, err)
		return err
	}
	s, err := configureWith(ctx, cmd, a, baseConfig(repo, ev.base, &o.config))
	if err != nil {
		gh.failure(ctx, err)
		return err
	}
	o.settings, a.settings = s, s // a bad value is named where it was given (GITCTX_MAX_TOKENS, the max-tokens input)
	notice := o.actionDefaults(a, ev)
	if ev.name == "pull_request_target" {
		fmt.Fprintln(a.stderr, "gitctx: warning: pull_request_target runs with a write token and secrets even for forks; gitctx reads the pull request as data only, but trigger reviews on pull_request (see the README)")
	}
	if notice != "" {
		fmt.Fprintf(a.stderr, "gitctx: notice: %s\n", notice)
	}
	if err := o.validate(cmd); err != nil {
		gh.failure(ctx, err)
		return err
	}
	out, err := reviewChange(ctx, a, o)
	if out != nil && out.result != nil && out.result.Delivery.Notice != "" {
		notice = out.result.Delivery.Notice
	}
	if errors.Is(err, review.ErrReadOnly) {
		notice, err = err.Error(), nil
	}
	gh.report(ctx, out, notice, err)
	return err
}

// actionRange sets the change the event names, fetching the history a
// shallow checkout lacks.
func (o *reviewOptions) actionRange(ctx context.Context, a *app, repo *gitctx.Repo, ev *actionEvent) error {
	envPR, _ := strconv.Atoi(a.getenv("GITCTX_PR")) // the pr-number input; the settings are applied later
	o.pr = firstPositive(o.pr, envPR, ev.pr)
	if ev.name != "workflow_run" && ev.pr > 0 && o.pr == ev.pr { // a workflow run's pull request is read from GitHub
		described := &pack.PullRequest{Number: ev.pr, Title: ev.title, Body: ev.body}
		o.pullRequest = func(context.Context) (*pack.PullRequest, error) { return described, nil }
	}
	if ev.name == "workflow_run" {
		if o.pr == 0 {
			return errors.New("the workflow_run event names no pull request: pass its number with the pr-number input (GITCTX_PR)")
		}
		if err := o.prRange(ctx, a); err != nil {
			return err
		}
		base, head, _ := splitThreeDot(o.spec)
		if head != ev.head {
			return fmt.Errorf("pull request #%d's head is %s, not the workflow run's %s: refusing to review another change", o.pr, short(head), short(ev.head))
		}
		ev.base = base
	}
	token := firstNonEmpty(a.getenv("GITHUB_TOKEN"), a.getenv("GH_TOKEN"))
	switch {
	case ev.headOnly:
		o.spec = ev.head
		return repo.FetchMergeBase(ctx, ev.head, ev.head, gitctx.FetchOptions{Token: token})
	case ev.name == "push":
		o.spec = ev.base + ".." + ev.head
	default:
		o.spec = ev.base + "..." + ev.head
	}
	return repo.FetchMergeBase(ctx, ev.base, ev.head, gitctx.FetchOptions{Token: token})
}

// actionDefaults fills what the Action decides by itself: the output
// directory under RUNNER_TEMP, where the review goes, and no provider
// call without a key. It returns a notice when the run is degraded.
func (o *reviewOptions) actionDefaults(a *app, ev *actionEvent) string {
	if o.out == "" {
		o.out = filepath.Join(firstNonEmpty(a.getenv("RUNNER_TEMP"), os.TempDir()), "gitctx")
	}
	o.post, o.unposted = "none", "the step summary (no pull request to comment on)"
	if o.pr > 0 {
		o.post = "github"
	}
	o.progress, o.dryRun = "never", false
	if o.provider == "" || o.provider == "none" {
		o.provider = "none"
		return ""
	}
	if hasProviderKey(a, o.provider) {
		return ""
	}
	o.provider, o.notSending = "none", "no API key"
	if ev.fork {
		return "fork pull request: GitHub gives its workflow no secrets (no API key) and a read-only token, so the change is packed and kept as an artifact, and no review is posted"
	}
	return "no API key for the provider (set the api-key input or the provider's key as a secret), so the change is packed and no review is posted"
}

// hasProviderKey reports whether the provider has what it needs to be
// called; the api-key input (GITCTX_API_KEY) serves any provider.
func hasProviderKey(a *app, provider string) bool {
	var name string
	switch provider {
	case "openai":
		name = "OPENAI_API_KEY"
	case "anthropic":
		name = "ANTHROPIC_API_KEY"
	case "gemini":
		name = "GEMINI_API_KEY"
	default:
		return true // compatible servers, Ollama and commands need no key
	}
	return a.getenv(name) != "" || a.getenv("GITCTX_API_KEY") != ""
}

// baseConfig reads the configuration from the base commit, so that a pull
// request cannot change how it is reviewed (nor run a --context-cmd of
// its own).
func baseConfig(repo *gitctx.Repo, base string, explicit *string) configLoader {
	return func(ctx context.Context) (string, []byte, error) {
		if base == "" {
			return "", nil, nil
		}
		names := configNames
		if *explicit != "" { // --config or GITCTX_CONFIG, applied before the file is read
			names = []string{filepath.ToSlash(*explicit)}
		}
		for _, name := range names {
			data, ok, err := repo.ReadFileAt(ctx, base, name, 1<<20)
			if err != nil {
				return "", nil, fmt.Errorf("read %s from the base commit: %w", name, err)
			}
			if ok {
				return name + "@" + short(base), data, nil
			}
		}
		return "", nil, nil
	}
}

// splitThreeDot splits "A...B".
func splitThreeDot(spec string) (base, head string, ok bool) {
	for i := 0; i+3 <= len(spec); i++ {
		if spec[i:i+3] == "..." {
			return spec[:i], spec[i+3:], true
		}
	}
	return "", spec, false
}

// short is a commit id's first twelve characters.
func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
