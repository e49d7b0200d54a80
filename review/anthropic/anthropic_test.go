package anthropic

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gitctx/gitctx/review"
)

const (
	testKey = "sk-ant-api03-test-0123456789abcdef"
	reply   = "## Review\n\nLooks fine. One unchecked error in main.go line 3."
	err529  = `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011"}`
	err429  = `{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 50 requests per minute."}}`
	err500  = `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`
	err401  = `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`
)

// waits records the waits asked for instead of sleeping.
type waits []time.Duration

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	*w = append(*w, d)
	return ctx.Err()
}

func intp(n int) *int { return &n }

func TestComplete(t *testing.T) {
	req := review.Request{Model: "claude-sonnet-4-5", System: "You review code.", Prompt: "the pack", MaxOutputTokens: 2000}
	full := review.Answer{Text: reply, Model: "claude-sonnet-4-5", Usage: review.Usage{InputTokens: 120, OutputTokens: 16}}
	sent := wireRequest{Model: "claude-sonnet-4-5", MaxTokens: intp(2000), System: "You review code.",
		Messages: []wireMessage{{Role: "user", Content: "the pack"}}}
	for _, tc := range []struct {
		name     string
		base     string // appended to the server's URL
		script   []answer
		req      review.Request
		want     review.Answer
		wantReq  *wireRequest
		requests int
		waits    []time.Duration // lower bounds
		wantErr  error
	}{
		{name: "base without /v1", req: req, want: full, wantReq: &sent, requests: 1},
		{name: "base with /v1", base: "/v1", req: req, want: full, wantReq: &sent, requests: 1},
		{name: "base with /v1/", base: "/v1/", req: req, want: full, wantReq: &sent, requests: 1},
		{name: "base with /", base: "/", req: req, want: full, wantReq: &sent, requests: 1},
		{
			name: "default max_tokens, no system", req: review.Request{Model: "claude-haiku-4-5", Prompt: "p"}, requests: 1,
			want:    review.Answer{Text: reply, Model: "claude-haiku-4-5", Usage: review.Usage{InputTokens: 120, OutputTokens: 16}},
			wantReq: &wireRequest{Model: "claude-haiku-4-5", MaxTokens: intp(4096), Messages: []wireMessage{{Role: "user", Content: "p"}}},
		},
		{
			name: "truncated", req: review.Request{Model: "claude-sonnet-4-5", Prompt: "p", MaxOutputTokens: 3}, requests: 1,
			want: review.Answer{Text: reply[:12], Model: "claude-sonnet-4-5", Usage: review.Usage{InputTokens: 120, OutputTokens: 3}, Truncated: true},
		},
		{
			name: "529 then 429 then 200", req: req, want: full, requests: 3,
			script: []answer{{status: 529, body: err529}, {status: 429, header: map[string]string{"Retry-After": "1"}, body: err429}},
			waits:  []time.Duration{500 * time.Millisecond, time.Second},
		},
		{
			name: "permanent 500", req: req, requests: 4,
			script:  []answer{{status: 500, body: err500}, {status: 500, body: err500}, {status: 500, body: err500}, {status: 500, body: err500}},
			waits:   []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second},
			wantErr: &review.StatusError{Provider: "anthropic", Status: 500, Attempts: 4, Message: "Internal server error"},
		},
		{
			name: "401 is not retried", req: req, requests: 1,
			script:  []answer{{status: 401, body: err401, header: map[string]string{"Request-Id": "req_011CT"}}},
			wantErr: &review.StatusError{Provider: "anthropic", Status: 401, Attempts: 1, Message: "invalid x-api-key (request id req_011CT)"},
		},
		{
			name: "no text", req: req, requests: 1,
			script:  []answer{{status: 200, body: `{"type":"message","content":[],"stop_reason":"refusal","usage":{"input_tokens":5,"output_tokens":0}}`}},
			wantErr: review.ErrNoAnswer,
		},
		{
			name: "part of an answer, then a refusal", req: req, requests: 1,
			script:  []answer{{status: 200, body: `{"type":"message","content":[{"type":"text","text":"## Review\n\nThe change looks"}],"stop_reason":"refusal","usage":{"input_tokens":5,"output_tokens":4}}`}},
			wantErr: review.ErrNoAnswer,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeAPI{t: t, key: testKey, reply: reply, script: tc.script}
			srv := f.start()
			var w waits
			c, err := New(Config{BaseURL: srv.URL + tc.base, APIKey: testKey, HTTPClient: srv.Client(), Sleep: w.sleep})
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Complete(t.Context(), tc.req)
			checkResult(t, got, err, tc.want, tc.wantErr)
			if f.count() != tc.requests {
				t.Errorf("requests: got %d, want %d", f.count(), tc.requests)
			}
			if tc.wantReq != nil && !reflect.DeepEqual(f.requests[0], *tc.wantReq) {
				t.Errorf("request: got %+v\nwant %+v", f.requests[0], *tc.wantReq)
			}
			if len(w) != len(tc.waits) {
				t.Fatalf("waits: got %v, want %d", w, len(tc.waits))
			}
			for i, least := range tc.waits {
				if w[i] < least {
					t.Errorf("wait %d: got %v, want at least %v", i, w[i], least)
				}
			}
		})
	}
}

func checkResult(t *testing.T, got review.Answer, err error, want review.Answer, wantErr error) {
	t.Helper()
	var wantStatus *review.StatusError
	switch {
	case errors.As(wantErr, &wantStatus):
		var se *review.StatusError
		if !errors.As(err, &se) || !reflect.DeepEqual(se, wantStatus) {
			t.Errorf("error: got %v, want %+v", err, wantStatus)
		}
	case wantErr != nil:
		if !errors.Is(err, wantErr) {
			t.Errorf("error: got %v, want %v", err, wantErr)
		}
	case err != nil:
		t.Fatalf("got %v", err)
	case !reflect.DeepEqual(got, want):
		t.Errorf("answer: got %+v\nwant %+v", got, want)
	}
	if err != nil && strings.Contains(err.Error(), testKey) {
		t.Errorf("the error shows the key: %v", err)
	}
}

func TestCancelledWhileWaiting(t *testing.T) {
	f := &fakeAPI{t: t, key: testKey, reply: reply, script: []answer{{status: 529, body: err529}}}
	srv := f.start()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, HTTPClient: srv.Client(),
		Sleep: func(ctx context.Context, d time.Duration) error {
			cancel()
			<-ctx.Done()
			return ctx.Err()
		}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(ctx, review.Request{Model: "claude-sonnet-4-5", Prompt: "p"})
	if !errors.Is(err, context.Canceled) || f.count() != 1 {
		t.Fatalf("got %v after %d requests; want context.Canceled after 1", err, f.count())
	}
}

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		cfg      Config
		endpoint string
		url      string
		problem  string
	}{
		{cfg: Config{APIKey: "k"}, endpoint: "api.anthropic.com", url: "https://api.anthropic.com/v1/messages"},
		{cfg: Config{APIKey: "k", BaseURL: "https://gateway.example/anthropic/v1"}, endpoint: "gateway.example", url: "https://gateway.example/anthropic/v1/messages"},
		{cfg: Config{}, problem: "an API key is required"},
		{cfg: Config{APIKey: "k", BaseURL: "api.anthropic.com"}, problem: "is not an http(s) URL"},
	} {
		c, err := New(tc.cfg)
		if tc.problem != "" {
			if err == nil || !strings.Contains(err.Error(), tc.problem) {
				t.Errorf("%+v: got %v, want an error saying %q", tc.cfg, err, tc.problem)
			}
			continue
		}
		if err != nil || c.Endpoint() != tc.endpoint || c.url != tc.url || c.Name() != "anthropic" {
			t.Errorf("%+v: got %v, %v", tc.cfg, c, err)
		}
	}
	c, _ := New(Config{APIKey: "k"})
	if _, err := c.Complete(t.Context(), review.Request{Model: "claude-sonnet-4-5", Prompt: " \n"}); err == nil {
		t.Error("an empty prompt was sent")
	}
}
