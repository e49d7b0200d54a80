// Package retry sends a request to a model provider's HTTP API and sends
// it again when waiting may cure the failure: a 408, a 429, a 5xx other
// than 501 (529 is Anthropic's "overloaded"), or a transient network error
// such as a reset connection or an attempt that timed out. The server may
// say so itself with x-should-retry: true or false.
//
// The waits grow exponentially from Policy.Base to Policy.Cap, with
// jitter, unless the server names one in retry-after-ms or retry-after
// (seconds or an HTTP date). A server that asks for more than
// Policy.MaxWait is not waited for: Do gives up at once and says why. Every
// wait ends early when ctx is done, and a cancelled ctx is never retried.
//
// When the attempts run out, or the refusal is not one to retry (a 400 or
// a 401, say), the error is a *review.StatusError carrying the provider's
// own message from its JSON error envelope, with the request's credentials
// removed; request headers never appear in an error.
package retry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gitctx/gitctx/review"
)

// Defaults and bounds of a Policy.
const (
	DefaultAttempts = 4
	MaxAttempts     = 10
	DefaultBase     = time.Second
	DefaultCap      = 20 * time.Second
	DefaultMaxWait  = 60 * time.Second
	DefaultMaxBody  = 32 << 20 // bytes of a successful answer
	maxErrorBody    = 64 << 10 // bytes of an error answer worth reading
)

// Policy says how often to try and how long to wait. Only Provider needs
// setting; zero fields take the defaults above.
type Policy struct {
	// Provider names the service in errors (openai, anthropic, …).
	Provider string
	// Attempts is the number of tries in all, clamped to 1..MaxAttempts.
	Attempts int
	// AttemptTimeout bounds one attempt, reading the answer included; an
	// attempt that runs out is retried. Zero means no bound but ctx's.
	AttemptTimeout time.Duration
	// Base is the first backoff, doubled each attempt up to Cap.
	Base, Cap time.Duration
	// MaxWait is the longest retry-after honoured.
	MaxWait time.Duration
	// MaxBody bounds a successful answer's size in bytes.
	MaxBody int64
	// Redact lists strings (the API key) removed from error messages.
	Redact []string
	// Sleep waits d or until ctx is done; tests replace it.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock that retry-after dates are read against.
	Now func() time.Time
}

// Do sends the request that build makes, once per attempt (build gets the
// attempt's context and must return a fresh request with a fresh body),
// and returns the body of the first 2xx answer.
func Do(ctx context.Context, client *http.Client, p Policy, build func(context.Context) (*http.Request, error)) ([]byte, error) {
	p = p.withDefaults()
	for attempt := 1; ; attempt++ {
		o, err := p.send(ctx, client, build)
		if err != nil {
			return nil, err
		}
		if o.status >= 200 && o.status < 300 {
			return o.body, nil
		}
		if !o.retryable() || attempt == p.Attempts {
			return nil, p.failure(o, attempt)
		}
		wait, err := p.wait(o, attempt)
		if err != nil {
			return nil, err
		}
		if err := p.Sleep(ctx, wait); err != nil {
			return nil, &stoppedError{
				msg:    fmt.Sprintf("%s: stopped while waiting %s to retry after %s: %v", p.Provider, wait.Round(time.Millisecond), o.describe(), err),
				causes: []error{err, o.err},
			}
		}
	}
}

// NoRedirects returns a copy of c (a zero client when c is nil) that does
// not follow redirects: a provider's API does not redirect a POST, and a
// header such as x-api-key would follow a redirect to another host. A
// redirect comes back as an answer that Do reports as a failure.
func NoRedirects(c *http.Client) *http.Client {
	var cp http.Client
	if c != nil {
		cp = *c
	}
	cp.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &cp
}

// outcome is one attempt's result: an answer (status set) or a transient
// network error (status 0).
// stoppedError is a wait for the next attempt cut short: it is the
// context's error, and the last attempt's (a refused connection), for
// errors.Is and errors.As.
type stoppedError struct {
	msg    string
	causes []error
}

func (e *stoppedError) Error() string   { return e.msg }
func (e *stoppedError) Unwrap() []error { return e.causes }

type outcome struct {
	status int
	header http.Header
	body   []byte
	err    error
}

func (o outcome) describe() string {
	if o.status == 0 {
		return o.err.Error()
	}
	return fmt.Sprintf("status %d", o.status)
}

func (p Policy) withDefaults() Policy {
	switch {
	case p.Attempts <= 0:
		p.Attempts = DefaultAttempts
	case p.Attempts > MaxAttempts:
		p.Attempts = MaxAttempts
	}
	if p.Base <= 0 {
		p.Base = DefaultBase
	}
	if p.Cap <= 0 {
		p.Cap = DefaultCap
	}
	if p.MaxWait <= 0 {
		p.MaxWait = DefaultMaxWait
	}
	if p.MaxBody <= 0 {
		p.MaxBody = DefaultMaxBody
	}
	if p.Sleep == nil {
		p.Sleep = sleep
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	return p
}

// send makes one attempt. The error is one that retrying cannot cure: ctx
// is done, the request cannot be built, the answer is too large.
func (p Policy) send(ctx context.Context, client *http.Client, build func(context.Context) (*http.Request, error)) (outcome, error) {
	actx, cancel := ctx, context.CancelFunc(func() {})
	if p.AttemptTimeout > 0 {
		actx, cancel = context.WithTimeout(ctx, p.AttemptTimeout)
	}
	defer cancel()
	req, err := build(actx)
	if err != nil {
		return outcome{}, fmt.Errorf("%s: build the request: %w", p.Provider, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return p.networkFailure(ctx, err)
	}
	defer resp.Body.Close()
	ok := resp.StatusCode >= 200 && resp.StatusCode < 300
	limit := int64(maxErrorBody)
	if ok {
		limit = p.MaxBody
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return p.networkFailure(ctx, fmt.Errorf("read the answer: %w", err))
	}
	if int64(len(body)) > limit {
		if ok {
			return outcome{}, fmt.Errorf("%s: the answer is larger than %d MiB", p.Provider, limit>>20)
		}
		body = body[:limit]
	}
	return outcome{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

// networkFailure sorts an error without an answer into transient (an
// outcome to retry) and final.
func (p Policy) networkFailure(ctx context.Context, err error) (outcome, error) {
	if ctx.Err() != nil {
		return outcome{}, fmt.Errorf("%s: %w", p.Provider, err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("attempt timed out after %s: %w", p.AttemptTimeout, err)
	}
	if transient(err) {
		return outcome{err: err}, nil
	}
	return outcome{}, fmt.Errorf("%s: %w", p.Provider, err)
}

func (o outcome) retryable() bool {
	if o.status == 0 {
		return true
	}
	switch o.header.Get("X-Should-Retry") {
	case "true":
		return true
	case "false":
		return false
	}
	return o.status == http.StatusRequestTimeout || o.status == http.StatusTooManyRequests ||
		(o.status >= 500 && o.status != http.StatusNotImplemented)
}

// failure is the error for the last outcome after attempts tries.
func (p Policy) failure(o outcome, attempts int) error {
	if o.status == 0 {
		return fmt.Errorf("%s: no answer after %d attempt%s: %w", p.Provider, attempts, plural(attempts), o.err)
	}
	return p.statusError(o, attempts)
}

func (p Policy) statusError(o outcome, attempts int) *review.StatusError {
	return &review.StatusError{
		Provider: p.Provider,
		Status:   o.status,
		Message:  p.message(o),
		Attempts: attempts,
	}
}

// wait is how long to wait before the attempt after attempt.
func (p Policy) wait(o outcome, attempt int) (time.Duration, error) {
	if d, ok := retryAfter(o.header, p.Now()); ok {
		if d > p.MaxWait {
			return 0, fmt.Errorf("%s asks to wait %s before trying again, more than the %s allowed: %w",
				p.Provider, d, p.MaxWait, p.statusError(o, attempt))
		}
		return d, nil
	}
	return backoff(p.Base, p.Cap, attempt), nil
}

// sleep waits d, or less if ctx is done first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
