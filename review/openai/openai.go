// Package openai sends a review to OpenAI's Chat Completions API
// (POST {base}/chat/completions) or to a server that speaks it: Ollama,
// vLLM, LiteLLM, Gemini's OpenAI-compatible endpoint, Azure OpenAI.
//
// The request is a system message and a user message, one answer, no
// tools, no streaming and no temperature (reasoning models accept only
// the default). OpenAI's own API is given the output cap as
// max_completion_tokens, which its o-series and gpt-5 models require;
// compatible servers get the older max_tokens that they all understand.
// An Azure endpoint (a host under openai.azure.com or
// cognitiveservices.azure.com, or Config.Azure) gets its key in the
// api-key header and, unless the base URL is Azure's /openai/v1 API, an
// api-version query parameter. Failures are retried as package retry
// says; the key never appears in an error.
package openai

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
	// DefaultBaseURL is OpenAI's API root; a base URL includes the /v1.
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultTimeout bounds one attempt, the answer included.
	DefaultTimeout = 10 * time.Minute
	// KindOpenAI is OpenAI's own API; other kinds are compatible servers.
	KindOpenAI = "openai"
	// azureAPIVersion is the latest generally available dated API version.
	azureAPIVersion = "2024-10-21"
)

// Config says where requests go and how they are sent.
type Config struct {
	// Kind names the provider: "openai" (the default) for OpenAI's API,
	// which needs a key; any other name ("compatible", "ollama", "gemini")
	// is a compatible server, for which the key is optional.
	Kind string
	// BaseURL is the API root including /v1 (as OPENAI_BASE_URL is);
	// DefaultBaseURL when empty.
	BaseURL string
	// APIKey is sent as a bearer token (Azure: the api-key header).
	APIKey string
	// Azure forces Azure's conventions; Azure hosts are detected anyway.
	Azure bool
	// APIVersion, when set, is sent as the api-version query parameter;
	// Azure's dated APIs get 2024-10-21 by default.
	APIVersion string
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

// Client is a review.Provider for the Chat Completions API.
type Client struct {
	kind     string
	key      string
	azure    bool
	url      string // the chat/completions URL, query included
	endpoint string
	http     *http.Client
	policy   retry.Policy
}

var _ review.Provider = (*Client)(nil)

// New checks cfg and returns a client.
func New(cfg Config) (*Client, error) {
	if cfg.Kind == "" {
		cfg.Kind = KindOpenAI
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s: base URL %q is not an http(s) URL", cfg.Kind, redacted(cfg.BaseURL))
	}
	azure := cfg.Azure || isAzureHost(u.Hostname())
	if cfg.APIKey == "" && (cfg.Kind == KindOpenAI || azure) {
		return nil, fmt.Errorf("%s: an API key is required for %s", cfg.Kind, u.Host)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &Client{
		kind:     cfg.Kind,
		key:      cfg.APIKey,
		azure:    azure,
		url:      chatURL(u, azure, cfg.APIVersion),
		endpoint: u.Host,
		http:     retry.NoRedirects(cfg.HTTPClient),
		policy: retry.Policy{
			Provider:       cfg.Kind,
			Attempts:       cfg.MaxAttempts,
			AttemptTimeout: cfg.Timeout,
			Redact:         []string{cfg.APIKey},
			Sleep:          cfg.Sleep,
		},
	}, nil
}

// Name is the provider's kind: openai, or the compatible server's name.
func (c *Client) Name() string { return c.kind }

// Endpoint is the API's host (and port).
func (c *Client) Endpoint() string { return c.endpoint }

// Complete sends req and returns the model's answer.
func (c *Client) Complete(ctx context.Context, req review.Request) (review.Answer, error) {
	if req.Model == "" {
		return review.Answer{}, fmt.Errorf("%s: no model given", c.kind)
	}
	body, err := json.Marshal(c.chatRequest(req))
	if err != nil {
		return review.Answer{}, fmt.Errorf("%s: encode the request: %w", c.kind, err)
	}
	raw, err := retry.Do(ctx, c.http, c.policy, func(ctx context.Context) (*http.Request, error) {
		return c.newRequest(ctx, body)
	})
	if err != nil {
		return review.Answer{}, err
	}
	ans, err := parseAnswer(raw, req.Model)
	if err != nil {
		return review.Answer{}, fmt.Errorf("%s (%s): %w", c.kind, req.Model, err)
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
	switch {
	case c.azure:
		r.Header.Set("Api-Key", c.key)
	case c.key != "":
		r.Header.Set("Authorization", "Bearer "+c.key)
	}
	return r, nil
}

// chatURL is {base}/chat/completions with the base's query, and Azure's
// api-version unless the base has one or is Azure's versionless v1 API.
func chatURL(base *url.URL, azure bool, version string) string {
	u := *base
	u.Path = strings.TrimSuffix(u.Path, "/") + "/chat/completions"
	u.RawPath = ""
	q := u.Query()
	if version == "" && azure && !strings.HasSuffix(strings.TrimSuffix(base.Path, "/"), "/openai/v1") {
		version = azureAPIVersion
	}
	if version != "" && q.Get("api-version") == "" {
		q.Set("api-version", version)
		u.RawQuery = q.Encode()
	}
	return u.String()
}

func isAzureHost(host string) bool {
	host = strings.ToLower(host)
	return strings.HasSuffix(host, ".openai.azure.com") || strings.HasSuffix(host, ".cognitiveservices.azure.com")
}

// redacted is a URL for an error message, without its user information.
func redacted(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	return "(unparsable)"
}

// errNoText explains an answer without text; it wraps review.ErrNoAnswer.
func errNoText(why string) error {
	return fmt.Errorf("%s: %w", why, review.ErrNoAnswer)
}
