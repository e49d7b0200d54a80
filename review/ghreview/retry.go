package ghreview

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	// maxAttempts bounds the tries of one rate-limited call.
	maxAttempts = 3
	// maxWait is the longest wait worth making; a limit that resets later
	// fails at once, with a clear error.
	maxWait = time.Minute
)

// retryTransport retries a call GitHub refused for its rate limits: a 429,
// or a 403 with Retry-After, with x-ratelimit-remaining: 0, or whose
// message names a rate limit. It waits as the answer says, at most maxWait,
// and tries at most maxAttempts times. A call that failed with a server
// error is tried again after a second or two when trying it again cannot
// do it twice (see serverErrorWait). It works below go-github so that
// the client's own bookkeeping of the limits only sees the last answer.
type retryTransport struct {
	base  http.RoundTripper
	sleep func(ctx context.Context, d time.Duration) error
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	for attempt := 1; ; attempt++ {
		resp, err := base.RoundTrip(req)
		if err != nil || attempt == maxAttempts || (req.Body != nil && req.GetBody == nil) {
			return resp, err
		}
		wait, ok := retryAfter(resp, time.Now())
		if !ok {
			wait, ok = serverErrorWait(req, resp, attempt)
		}
		if !ok || wait > maxWait {
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		_ = resp.Body.Close()
		if err := t.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
		next := req.Clone(req.Context())
		if req.GetBody != nil {
			if next.Body, err = req.GetBody(); err != nil {
				return nil, err
			}
		}
		req = next
	}
}

// retryAfter says how long to wait before trying resp's request again,
// and whether it is a rate limit at all. It may read (and then restore)
// the body of a 403 to tell a secondary rate limit from a refusal.
func retryAfter(resp *http.Response, now time.Time) (time.Duration, bool) {
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests {
		return 0, false
	}
	if v := strings.TrimSpace(resp.Header.Get("Retry-After")); v != "" {
		if s, err := strconv.Atoi(v); err == nil {
			return time.Duration(max(s, 0)) * time.Second, true
		}
		if at, err := http.ParseTime(v); err == nil {
			return max(at.Sub(now), 0), true
		}
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if s, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			return max(time.Unix(s, 0).Sub(now)+time.Second, 0), true
		}
		return maxWait, true
	}
	if resp.StatusCode == http.StatusTooManyRequests || mentionsRateLimit(resp) {
		return maxWait, true // GitHub's advice: wait at least a minute
	}
	return 0, false
}

// serverErrorWait says how long to wait before trying again a call
// GitHub answered with a 5xx, and whether to: only for a method that does
// the same however often it is made (reading, editing the sticky comment
// with the same body), never for a POST, which may have created the
// comment or review before the error and would create a second one.
func serverErrorWait(req *http.Request, resp *http.Response, attempt int) (time.Duration, bool) {
	if resp.StatusCode < 500 || resp.StatusCode == http.StatusNotImplemented {
		return 0, false
	}
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodPatch, http.MethodPut, http.MethodDelete:
		return time.Duration(attempt) * time.Second, true
	}
	return 0, false
}

func mentionsRateLimit(resp *http.Response) bool {
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	resp.Body = readCloser{io.MultiReader(bytes.NewReader(data), resp.Body), resp.Body}
	return err == nil && bytes.Contains(bytes.ToLower(data), []byte("rate limit"))
}

// readCloser puts back the part of a body that was read.
type readCloser struct {
	io.Reader
	io.Closer
}

// defaultTransport bounds each attempt rather than the whole call, which
// may wait for a rate limit.
func defaultTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = 30 * time.Second
	return t
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
