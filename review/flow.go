package review

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/pack"
)

// Job is one review: the prompt for a pack, the model to send it to, and
// where the answer goes.
type Job struct {
	Provider        Provider
	Poster          Poster // nil: the answer is saved, not posted
	Model           string
	MaxOutputTokens int
	Prompt          Prompt
	PackHash        string        // the pack's sha256, kept in the comment's marker
	Details         func() string // "what the model saw", markdown, rendered once the answer is saved (its cost known); nil: none
	Footer          string
	Scanner         Scanner
	Inline          bool
	// Force sends the pack even when the earlier comment reviewed the
	// same pack.
	Force bool
	// Save keeps the answer (and the record) before anything is posted;
	// it is called again with the delivery once the post is done.
	Save func(ctx context.Context, r *Result) error
}

// Result is what a review produced.
type Result struct {
	Answer     string // the model's answer, sanitised
	Model      string
	Usage      Usage
	Truncated  bool
	Findings   []Finding
	Redactions []pack.RedactionItem
	// Reused is set when the pack was the one already reviewed: the
	// earlier answer was posted again and the model was not asked.
	Reused   bool
	Delivery Delivery
	Warnings []string
}

// Run asks the model for a review of the pack, unless the poster's
// earlier comment already reviewed this very pack, makes the answer safe,
// saves it, and posts it.
func Run(ctx context.Context, job Job) (*Result, error) {
	res := &Result{Model: job.Model}
	if err := answer(ctx, job, res); err != nil {
		return res, err
	}
	if err := job.Save(ctx, res); err != nil {
		return res, err
	}
	if job.Poster == nil {
		return res, nil
	}
	shown := WithoutFindingsBlock(res.Answer)
	if res.Truncated {
		shown += "\n\n_… the model's answer was truncated at its output limit (--max-output-tokens); it may be incomplete._"
	}
	c := Comment{PackHash: job.PackHash, Answer: shown, Footer: job.Footer}
	if job.Details != nil {
		c.Details = job.Details()
	}
	d, err := job.Poster.Post(ctx, c, res.Findings, job.Inline)
	res.Delivery = d
	if err != nil {
		if errors.Is(err, ErrReadOnly) {
			res.Delivery.Notice = err.Error()
		}
		return res, fmt.Errorf("post the review (%s): %w", job.Poster.Kind(), err)
	}
	if d.Notice != "" {
		res.Warnings = append(res.Warnings, d.Notice)
	}
	return res, job.Save(ctx, res)
}

// answer fills res with the model's answer, or the earlier one.
func answer(ctx context.Context, job Job, res *Result) error {
	text := ""
	if job.Poster != nil && !job.Force {
		body, found, err := job.Poster.Previous(ctx)
		switch {
		case err != nil:
			res.Warnings = append(res.Warnings, fmt.Sprintf("could not look for an earlier review: %v", err))
		case found && SamePack(PackHashOf(body), job.PackHash):
			text = AnswerOf(body)
			res.Reused = text != ""
		}
	}
	if !res.Reused {
		ans, err := job.Provider.Complete(ctx, Request{
			Model: job.Model, System: job.Prompt.System, Prompt: job.Prompt.User, MaxOutputTokens: job.MaxOutputTokens,
		})
		if err != nil {
			return fmt.Errorf("ask %s (%s): %w", job.Provider.Name(), job.Provider.Endpoint(), err)
		}
		if strings.TrimSpace(ans.Text) == "" {
			return fmt.Errorf("ask %s: %w", job.Provider.Name(), ErrNoAnswer)
		}
		text, res.Usage, res.Truncated = ans.Text, ans.Usage, ans.Truncated
		if ans.Model != "" {
			res.Model = ans.Model
		}
	}
	clean, items, err := Sanitise(ctx, job.Scanner, text)
	if err != nil {
		return err
	}
	res.Answer, res.Redactions = clean, items
	if !res.Reused {
		res.Findings = ParseFindings(clean)
	}
	return nil
}

// WithoutFindingsBlock drops the fenced json block of findings from an
// answer meant for people; the findings are in its prose too.
func WithoutFindingsBlock(answer string) string {
	i := strings.LastIndex(answer, "```json")
	if i < 0 {
		return answer
	}
	rest := answer[i+len("```json"):]
	end := strings.Index(rest, "```")
	if end < 0 {
		return answer
	}
	if _, ok := decodeFindings(rest[:end]); !ok {
		return answer
	}
	return strings.TrimSpace(answer[:i] + rest[end+3:])
}
