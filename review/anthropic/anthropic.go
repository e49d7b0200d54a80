// Package anthropic sends a review to Anthropic's Messages API
// (POST {base}/v1/messages) with the x-api-key and anthropic-version
// headers. The base URL is the API root without /v1, as
// ANTHROPIC_BASE_URL is; a trailing /v1 is tolerated, not doubled.
//
// The request has a top-level system instruction, one user message, the
// required max_tokens (DefaultMaxTokens unless the request says), no tools
// and no streaming. The answer's text blocks are joined; a stop at
// max_tokens marks it truncated. Failures, 529 "overloaded" among them,
// are retried as package retry says; the key never appears in an error.
package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gitctx/gitctx/review"
	"github.com/gitctx/gitctx/review/internal/retry"
)

const (
	// DefaultBaseURL is Anthropic's API root, without /v1.
	DefaultBaseURL = "https://api.anthropic.com"
	// DefaultMaxTokens is the output cap sent when a request sets none;
	// the API requires one.
	DefaultMaxTokens = 4096
	// DefaultTimeout bounds one attempt, the answer included.
	DefaultTimeout = 10 * time.Minute
	// APIVersion is the anthropic-version header's value.
	APIVersion = "2023-06-01"
	name       = "anthropic"
)

// Config says where requests go and how they are sent.
type Config struct {
	// BaseURL is the API root without /v1; DefaultBaseURL when empty.
	BaseURL string
	// APIKey is sent in x-api-key; it is required.
	APIKey string
	// HTTPClient sends the requests (a copy that follows no redirects is
	// used); http.DefaultClient's settings when nil.
	HTTPClient *http.Client
	// Timeout bounds one attempt; DefaultTimeout when zero.
	Timeout time.Duration
	// MaxAttempts bounds the tries; retry.DefaultAttempts when zero.
	MaxAttempts int
	// Sleep replaces the wait between attempts, for tests.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client is a review.Provider for the Messages API.
type Client struct {
	key      string
	url      string
	endpoint string
	http     *http.Client
	policy   retry.Policy
}

var _ review.Provider = (*Client)(nil)

// New checks cfg and returns a client.
func New(cfg Config) (*Client, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s: base URL %q is not an http(s) URL", name, redacted(cfg.BaseURL))
	}
	if cfg.APIKey == "" {
		return nil, fmt.Errorf("%s: an API key is required", name)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &Client{
		key:      cfg.APIKey,
		url:      messagesURL(u),
		endpoint: u.Host,
		http:     retry.NoRedirects(cfg.HTTPClient),
		policy: retry.Policy{
			Provider:       name,
			Attempts:       cfg.MaxAttempts,
			AttemptTimeout: cfg.Timeout,
			Redact:         []string{cfg.APIKey},
			Sleep:          cfg.Sleep,
		},
	}, nil
}

// Name is "anthropic".
func (c *Client) Name() string { return name }

// Endpoint is the API's host (and port).
func (c *Client) Endpoint() string { return c.endpoint }

// Complete sends req and returns the model's answer.
func (c *Client) Complete(ctx context.Context, req review.Request) (review.Answer, error) {
	switch {
	case req.Model == "":
		return review.Answer{}, fmt.Errorf("%s: no model given", name)
	case strings.TrimSpace(req.Prompt) == "":
		return review.Answer{}, fmt.Errorf("%s: the prompt is empty", name)
	}
	body, err := json.Marshal(newMessagesRequest(req))
	if err != nil {
		return review.Answer{}, fmt.Errorf("%s: encode the request: %w", name, err)
	}
	raw, err := retry.Do(ctx, c.http, c.policy, func(ctx context.Context) (*http.Request, error) {
		return c.newRequest(ctx, body)
	})
	if err != nil {
		return review.Answer{}, err
	}
	ans, err := parseAnswer(raw, req.Model)
	if err != nil {
		return review.Answer{}, fmt.Errorf("%s (%s): %w", name, req.Model, err)
	}
	return ans, nil
}

func (c *Client) newRequest(ctx context.Context, body []byte) (*http.Request, error) {
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json")
	r.Header.Set("User-Agent", "gitctx")
	r.Header.Set("X-Api-Key", c.key)
	r.Header.Set("Anthropic-Version", APIVersion)
	return r, nil
}

// messagesURL is {base}/v1/messages, whether or not base ends in /v1.
func messagesURL(base *url.URL) string {
	u := *base
	p := strings.TrimSuffix(u.Path, "/")
	p = strings.TrimSuffix(p, "/v1")
	u.Path, u.RawPath = p+"/v1/messages", ""
	return u.String()
}

// redacted is a URL for an error message, without its user information.
func redacted(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	return "(unparsable)"
}
