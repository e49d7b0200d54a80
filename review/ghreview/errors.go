package ghreview

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/gitctx/gitctx/review"
)

// statusOf is the HTTP status of a failed call, or 0 when no answer came.
func statusOf(err error) int {
	var ge *github.ErrorResponse
	var rl *github.RateLimitError
	var ab *github.AbuseRateLimitError
	switch {
	case errors.As(err, &ge) && ge.Response != nil:
		return ge.Response.StatusCode
	case errors.As(err, &rl) && rl.Response != nil:
		return rl.Response.StatusCode
	case errors.As(err, &ab) && ab.Response != nil:
		return ab.Response.StatusCode
	}
	return 0
}

func isRateLimit(err error) bool {
	var rl *github.RateLimitError
	var ab *github.AbuseRateLimitError
	return errors.As(err, &rl) || errors.As(err, &ab) || statusOf(err) == http.StatusTooManyRequests
}

// apiError wraps a failed call with its endpoint and status.
func (p *Poster) apiError(endpoint string, resp *github.Response, err error) error {
	status := statusOf(err)
	if status == 0 && resp != nil && resp.Response != nil {
		status = resp.StatusCode
	}
	var rl *github.RateLimitError
	switch {
	case status == 0:
		err = fmt.Errorf("github %s: no answer: %w", endpoint, err)
	case errors.As(err, &rl) && !rl.Rate.Reset.IsZero():
		err = fmt.Errorf("github %s answered %d: the rate limit is used up until %s; try again then: %w",
			endpoint, status, rl.Rate.Reset.UTC().Format(time.TimeOnly+" MST"), err)
	case isRateLimit(err):
		err = fmt.Errorf("github %s answered %d: rate limited, also after waiting as asked; try again later: %w",
			endpoint, status, err)
	case status == http.StatusUnauthorized:
		err = fmt.Errorf("github %s answered 401: the token is not valid: %w", endpoint, err)
	default:
		err = fmt.Errorf("github %s answered %d: %w", endpoint, status, err)
	}
	return p.scrub(err)
}

// writeError explains a refused write. A 403 (or a 404, which GitHub also
// answers for what a token may not see) on a fork's pull request is the
// read-only token forks get: review.ErrReadOnly. Otherwise it names the
// permission the workflow should grant.
func (p *Poster) writeError(ctx context.Context, endpoint string, resp *github.Response, err error) error {
	wrapped := p.apiError(endpoint, resp, err)
	status := statusOf(err)
	if isRateLimit(err) || (status != http.StatusForbidden && status != http.StatusNotFound) {
		return wrapped
	}
	perm := "`pull-requests: write` (or `issues: write`)"
	if strings.Contains(endpoint, "/pulls/") {
		perm = "`pull-requests: write`"
	}
	fork, ferr := p.fromFork(ctx)
	switch {
	case ferr != nil:
		return fmt.Errorf("the token may not write to %s/%s#%d (add %s to the workflow's permissions; whether the pull request comes from a fork is unknown: %v): %w",
			p.owner, p.repo, p.pr, perm, ferr, wrapped)
	case fork:
		notice := fmt.Sprintf("fork pull request: the token is read-only (GitHub answered %d); the review is kept in the artifact", status)
		if p.hint != "" {
			notice += " (" + p.hint + ")"
		}
		return &readOnlyError{notice: notice, cause: wrapped}
	}
	return fmt.Errorf("the token may not write to %s/%s#%d: add %s to the workflow's permissions: %w",
		p.owner, p.repo, p.pr, perm, wrapped)
}

// fromFork reports whether the pull request's head is in another
// repository (a fork, or a fork since deleted).
func (p *Poster) fromFork(ctx context.Context) (bool, error) {
	pr, resp, err := p.gh.PullRequests.Get(ctx, p.owner, p.repo, p.pr)
	if err != nil {
		return false, p.apiError("GET "+p.path("pulls/%d", p.pr), resp, err)
	}
	head, base := pr.GetHead().GetRepo(), pr.GetBase().GetRepo()
	if head == nil || head.GetFork() {
		return true, nil
	}
	return base != nil && !strings.EqualFold(head.GetFullName(), base.GetFullName()), nil
}

// readOnlyError is a write refused because a fork's token is read-only.
// Its message is the notice to show; it matches review.ErrReadOnly.
type readOnlyError struct {
	notice string
	cause  error
}

func (e *readOnlyError) Error() string   { return e.notice }
func (e *readOnlyError) Unwrap() []error { return []error{review.ErrReadOnly, e.cause} }

// scrub removes the token from err's message, in case a server echoed it.
func (p *Poster) scrub(err error) error {
	if p.token == "" || !strings.Contains(err.Error(), p.token) {
		return err
	}
	return &scrubbedError{msg: strings.ReplaceAll(err.Error(), p.token, "[token]"), err: err}
}

type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }
