package ghreview

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
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

// apiError wraps a failed call with its endpoint and status, and what
// GitHub said (not go-github's own text, which repeats the method and
// URL and ends in the list of field errors, often "[]").
func (p *Poster) apiError(endpoint string, resp *github.Response, err error) error {
	status := statusOf(err)
	if status == 0 && resp != nil && resp.Response != nil {
		status = resp.StatusCode
	}
	var rl *github.RateLimitError
	var msg string
	switch {
	case status == 0:
		msg = fmt.Sprintf("github %s: no answer: %v", endpoint, err)
	case errors.As(err, &rl) && !rl.Rate.Reset.IsZero():
		msg = fmt.Sprintf("github %s answered %d: the rate limit is used up until %s; try again then (%s)",
			endpoint, status, rl.Rate.Reset.UTC().Format(time.TimeOnly+" MST"), says(err, status))
	case isRateLimit(err):
		msg = fmt.Sprintf("github %s answered %d: rate limited, also after waiting as asked; try again later (%s)",
			endpoint, status, says(err, status))
	case status == http.StatusUnauthorized:
		msg = fmt.Sprintf("github %s answered 401: the token is not valid (%s)", endpoint, says(err, status))
	case status == http.StatusNotFound && strings.HasPrefix(endpoint, "GET ") && strings.HasSuffix(endpoint, p.path("pulls/%d", p.pr)):
		msg = fmt.Sprintf("github %s answered 404: %s/%s has no pull request %d, or the token cannot see it", endpoint, p.owner, p.repo, p.pr)
	default:
		msg = fmt.Sprintf("github %s answered %d: %s", endpoint, status, says(err, status))
	}
	return p.scrub(&worded{msg: msg, err: err})
}

// says is what GitHub's answer said went wrong: its message and its
// errors' messages, else the status's name.
func says(err error, status int) string {
	var ge *github.ErrorResponse
	var rl *github.RateLimitError
	var ab *github.AbuseRateLimitError
	var parts []string
	switch {
	case errors.As(err, &ge):
		parts = append(parts, ge.Message)
		for _, e := range ge.Errors {
			switch {
			case e.Message != "":
				parts = append(parts, e.Message)
			case e.Code != "":
				parts = append(parts, strings.TrimSpace(e.Resource+" "+e.Field+" "+e.Code))
			}
		}
	case errors.As(err, &rl):
		parts = append(parts, rl.Message)
	case errors.As(err, &ab):
		parts = append(parts, ab.Message)
	}
	parts = slices.DeleteFunc(parts, func(s string) bool { return strings.TrimSpace(s) == "" })
	if len(parts) == 0 {
		return http.StatusText(status)
	}
	return strings.Join(parts, "; ")
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
	return &worded{msg: strings.ReplaceAll(err.Error(), p.token, "[token]"), err: err}
}

// worded is an error with a message of its own, wrapping the cause.
type worded struct {
	msg string
	err error
}

func (e *worded) Error() string { return e.msg }
func (e *worded) Unwrap() error { return e.err }
