package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/pack/profile"
	"github.com/gitctx/gitctx/review"
	"github.com/gitctx/gitctx/review/artifact"
)

// sendReview sends a saved pack to the model and posts the answer. The
// pack and record are already in pr.outDir; the answer joins them before
// anything is posted.
func sendReview(ctx context.Context, a *app, o *reviewOptions, pr *packRun) (*review.Result, error) {
	if o.provider == "none" {
		if !o.quiet && o.notSending == "" {
			fmt.Fprintln(a.stderr, "gitctx: no provider given (--provider): the pack is saved and nothing was sent")
		}
		return nil, nil
	}
	pf, err := preflight(ctx, a, o, pr)
	if err != nil || pf == nil {
		return nil, err
	}
	provider, err := newProvider(a, o)
	if err != nil {
		return nil, err
	}
	poster, target, err := newPoster(ctx, a, o, pr.outDir)
	if err != nil {
		return nil, err
	}
	rec := pr.res.Record
	rec.Delivery.Kind, rec.Delivery.EndpointHost, rec.Delivery.Model = "artifact", provider.Endpoint(), pf.profile.Model
	if pf.estimate.known {
		rec.Delivery.EstimatedCostUSD = pf.estimate.usd
	}
	if poster != nil {
		rec.Delivery.Kind = poster.Kind()
	}
	v, _ := buildVersion()
	job := review.Job{
		Provider: provider, Poster: poster, Model: pf.profile.Model, MaxOutputTokens: pf.maxOut,
		Prompt: pf.prompt, PackHash: rec.Pack.SHA256, Details: func() string { return review.Details(rec) }, Scanner: pr.gate,
		Inline: o.inline, Force: o.force,
		Footer: fmt.Sprintf("<sub>gitctx %s · %s · the pack, record.json and the whole answer are kept with the run</sub>", v, provider.Name()),
		Save:   func(ctx context.Context, r *review.Result) error { return saveReview(ctx, a, o, pr, r, pf.profile) },
	}
	timed, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	res, err := review.Run(timed, job)
	var dial *net.OpError
	switch {
	case err == nil || ctx.Err() != nil || !errors.Is(timed.Err(), context.DeadlineExceeded):
	case errors.As(err, &dial) && dial.Op == "dial":
		err = fmt.Errorf("could not connect to %s within --timeout %s (is the server running, and the base URL right?): %w", provider.Endpoint(), o.timeout, err)
	default:
		err = fmt.Errorf("no answer within --timeout %s (raise it for a large pack or a slow model): %w", o.timeout, err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(a.stderr, "gitctx: warning: %s\n", terminalSafe(w))
	}
	return res, reportReview(a, o, pr, res, target, err)
}

// checkDelivery fails a review that could not be sent or posted (a key,
// a base URL, a repository or a token missing) before anything is packed,
// rather than after: the same adapters are built again to send.
func (o *reviewOptions) checkDelivery(ctx context.Context, a *app) error {
	if o.dryRun || o.provider == "none" {
		return nil
	}
	if _, err := newProvider(a, o); err != nil {
		return err
	}
	if o.provider != "command" && modelProfile(o).Model == "" {
		which := "the name the server serves it by"
		if o.provider == "ollama" {
			which = "one `ollama list` shows"
		}
		return &usageError{err: fmt.Errorf("--provider %s needs --model NAME, the model to ask (%s)", o.provider, which)}
	}
	_, _, err := newPoster(ctx, a, o, "")
	return err
}

// checked is a prompt that passed the pre-flight checks.
type checked struct {
	prompt   review.Prompt
	profile  profile.Profile
	maxOut   int
	estimate costEstimate
}

// preflight builds the prompt and estimates its cost; on --dry-run it
// prints both and returns nil, above --max-cost it refuses.
func preflight(ctx context.Context, a *app, o *reviewOptions, pr *packRun) (*checked, error) {
	instruction, err := readInstructions(o.instructions)
	if err != nil {
		return nil, err
	}
	if instruction == "" {
		instruction = o.settings.extra().ReviewInstructions
	}
	if instruction, err = gateInstructions(ctx, a, pr, instruction); err != nil {
		return nil, err
	}
	c := &checked{profile: modelProfile(o)}
	c.prompt = review.NewPrompt(instruction, pr.res.Record.Pack.Boundary, pr.res.Text)
	c.maxOut = outputCap(o, c.profile)
	c.estimate = estimateCost(c.prompt, pr.counter, c.profile, c.maxOut)
	if o.dryRun {
		fmt.Fprintln(a.stdout, c.prompt.Text())
		fmt.Fprintf(a.stderr, "gitctx: dry run: %s; nothing was sent\n", c.estimate)
		return nil, nil
	}
	if o.maxCost > 0 && c.estimate.known && c.estimate.usd > o.maxCost {
		return nil, fmt.Errorf("the review would cost up to $%.4f (%s), above --max-cost $%.4f: nothing was sent; %s, or raise --max-cost",
			c.estimate.usd, c.estimate, o.maxCost, c.estimate.cheaper())
	}
	return c, nil
}

// gateInstructions passes the review instruction (--instructions, or
// review_instructions in a .gitctx.yml anyone who can commit may write)
// through the gate the pack went through: it is sent beside the pack, so
// a credential in it is replaced by its placeholder, recorded with side
// "instructions", and said on stderr.
func gateInstructions(ctx context.Context, a *app, pr *packRun, instruction string) (string, error) {
	if instruction == "" {
		return "", nil
	}
	red, hits, err := pr.gate.RedactString(ctx, instruction)
	if err != nil {
		return "", fmt.Errorf("check the review instructions for credentials: %w", err)
	}
	if len(hits) == 0 {
		return instruction, nil
	}
	rec := pr.res.Record
	rec.Redactions.Items = withoutSide(rec.Redactions.Items, "instructions")
	for _, h := range hits {
		rec.Redactions.Items = append(rec.Redactions.Items,
			pack.RedactionItem{Side: "instructions", Line: h.Line + 1, Rule: h.Rule, Placeholder: h.Placeholder})
	}
	fmt.Fprintf(a.stderr, "gitctx: warning: %d credential%s removed from the review instructions before sending them\n", len(hits), plural(len(hits)))
	return red.String(), nil
}

// reportReview says what became of the review, and whether that is an
// error: a fork's read-only token is a notice, anything else that kept
// the review from its destination is.
func reportReview(a *app, o *reviewOptions, pr *packRun, res *review.Result, target string, err error) error {
	saved := filepath.Join(pr.outDir, reviewFile)
	switch {
	case errors.Is(err, review.ErrReadOnly):
		fmt.Fprintf(a.stderr, "gitctx: notice: %s; the review is saved in %s\n", terminalSafe(err.Error()), saved)
		return nil
	case err != nil && res.Answer != "":
		return fmt.Errorf("%w (the answer is saved in %s, the pack and record.json beside it)", err, saved)
	case err != nil:
		return fmt.Errorf("%w (the pack and record.json are saved in %s)", err, pr.outDir)
	}
	if o.quiet {
		return nil
	}
	if res.Reused {
		fmt.Fprintln(a.stderr, "gitctx: the pack is the one already reviewed: the comment was refreshed without asking the model (--force asks again)")
		fmt.Fprintln(a.stderr, "gitctx: no findings files were written: the comment does not keep the findings")
	}
	if len(res.Redactions) > 0 {
		fmt.Fprintf(a.stderr, "gitctx: %d credential%s removed from the model's answer\n", len(res.Redactions), plural(len(res.Redactions)))
	}
	where := res.Delivery.URL
	if where == "" || where == "-" {
		where = target
	}
	if where == saved {
		fmt.Fprintf(a.stderr, "gitctx: review saved in %s (--post stdout prints it)\n", saved)
		return nil
	}
	fmt.Fprintf(a.stderr, "gitctx: review posted to %s (answer: %s)\n", terminalSafe(where), saved)
	return nil
}

// The files a review writes into the output directory beside the pack and
// record.json (design §8): the answer, and its findings as SARIF and as
// reviewdog's rdjson.
const (
	reviewFile = "review.md"
	sarifFile  = "findings.sarif"
	rdjsonFile = "findings.rdjson"
)

// saveReview keeps the answer, its findings and the record's delivery in
// the output directory, and the findings in the files asked for. A review
// reused from the pull request's comment has no findings to write (the
// comment does not keep them): its findings files are not written.
func saveReview(ctx context.Context, a *app, o *reviewOptions, pr *packRun, r *review.Result, prof profile.Profile) error {
	rec := pr.res.Record
	rec.Delivery.Model = r.Model
	rec.Delivery.CommentURL = r.Delivery.URL
	switch cost, ok := prof.CostUSD(r.Usage.InputTokens, r.Usage.OutputTokens); {
	case r.Reused:
		rec.Delivery.EstimatedCostUSD = 0 // the model was not asked
	case ok && r.Usage.InputTokens > 0:
		rec.Delivery.EstimatedCostUSD = cost // the answer's usage at list price, not the estimate made before sending
	}
	rec.Redactions.Items = append(withoutSide(rec.Redactions.Items, "answer"), r.Redactions...)
	pr.extra = []artifact.File{{Name: reviewFile, Data: []byte(strings.TrimRight(r.Answer, "\n") + "\n")}}
	var found findingsFiles
	if !r.Reused {
		var err error
		if found, err = encodeFindings(r.Findings); err != nil {
			return err
		}
		pr.extra = append(pr.extra, artifact.File{Name: sarifFile, Data: found.sarif}, artifact.File{Name: rdjsonFile, Data: found.rdjson})
	}
	if err := saveOutputs(ctx, a, &o.packOptions, pr); err != nil {
		return fmt.Errorf("save the answer: %w", err)
	}
	if r.Reused {
		return nil
	}
	return saveFindings(ctx, o, found)
}

// saveReviewed saves a review's pack and record once the review is done,
// whatever became of it (runErr): nothing when the run was interrupted,
// so the previous outputs stay as they were; else the pack and record,
// the answer when there is one, and the error that stopped the review
// among the record's errors. An earlier run's answer is removed when
// there is no new one.
func saveReviewed(ctx context.Context, a *app, o *reviewOptions, pr *packRun, runErr error) error {
	if ctx.Err() != nil || (runErr == nil && pr.saved) {
		return runErr
	}
	if runErr != nil {
		rec := pr.res.Record
		rec.Errors = append(rec.Errors, pack.Problem{Kind: pack.ProblemReview, Message: redactedMessage(ctx, a, runErr.Error())})
	}
	if err := saveOutputs(ctx, a, &o.packOptions, pr); err != nil {
		return errors.Join(runErr, err)
	}
	return runErr
}

func withoutSide(items []pack.RedactionItem, side string) []pack.RedactionItem {
	out := items[:0:0]
	for _, it := range items {
		if it.Side != side {
			out = append(out, it)
		}
	}
	return out
}

// findingsFiles are a review's findings, encoded.
type findingsFiles struct{ sarif, rdjson []byte }

func encodeFindings(fs []review.Finding) (findingsFiles, error) {
	v, _ := buildVersion()
	s, err := review.SARIF(fs, v)
	if err != nil {
		return findingsFiles{}, fmt.Errorf("encode the findings as SARIF: %w", err)
	}
	r, err := review.RDJSON(fs)
	if err != nil {
		return findingsFiles{}, fmt.Errorf("encode the findings as rdjson: %w", err)
	}
	return findingsFiles{s, r}, nil
}

// saveFindings writes --sarif and --rdjson.
func saveFindings(ctx context.Context, o *reviewOptions, found findingsFiles) error {
	for _, out := range []struct {
		path string
		data []byte
	}{{o.sarif, found.sarif}, {o.rdjson, found.rdjson}} {
		if out.path == "" {
			continue
		}
		if err := artifact.SaveFile(ctx, out.path, out.data); err != nil {
			return err
		}
	}
	return nil
}

func readInstructions(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read --instructions: %w", err)
	}
	return string(data), nil
}
