package openai

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
	testKey = "sk-proj-test-0123456789abcdef"
	reply   = "## Review\n\nLooks fine. One unchecked error in main.go line 3."
	err500  = `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`
	err429  = `{"error":{"message":"Rate limit reached for gpt-5 in organization org-fake on requests per min (RPM)","type":"requests","code":"rate_limit_exceeded"}}`
	err401  = `{"error":{"message":"Incorrect API key provided: sk-proj-test-0123456789abcdef.","type":"invalid_request_error","code":"invalid_api_key"}}`
)

// waits records the waits asked for instead of sleeping.
type waits []time.Duration

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	*w = append(*w, d)
	return ctx.Err()
}

func intp(n int) *int { return &n }

func TestComplete(t *testing.T) {
	review1 := review.Request{Model: "gpt-5", System: "You review code.", Prompt: "the pack", MaxOutputTokens: 1000}
	for _, tc := range []struct {
		name     string
		cfg      Config
		fakeKey  string
		script   []answer
		req      review.Request
		want     review.Answer
		wantReq  wireRequest
		requests int
		waits    []time.Duration // lower bounds
		wantErr  error
	}{
		{
			name: "openai", cfg: Config{APIKey: testKey}, fakeKey: testKey, req: review1, requests: 1,
			want: review.Answer{Text: reply, Model: "gpt-5-2025-08-07", Usage: review.Usage{InputTokens: 120, OutputTokens: 16}},
			wantReq: wireRequest{Model: "gpt-5", MaxCompletionTokens: intp(1000), Messages: []wireMessage{
				{Role: "system", Content: "You review code."}, {Role: "user", Content: "the pack"}}},
		},
		{
			name: "compatible without a key", cfg: Config{Kind: "compatible"}, requests: 1,
			req:  review.Request{Model: "llama3.2", Prompt: "the pack", MaxOutputTokens: 500},
			want: review.Answer{Text: reply, Model: "llama3.2-2025-08-07", Usage: review.Usage{InputTokens: 120, OutputTokens: 16}},
			wantReq: wireRequest{Model: "llama3.2", MaxTokens: intp(500), Messages: []wireMessage{
				{Role: "user", Content: "the pack"}}},
		},
		{
			name: "truncated", cfg: Config{APIKey: testKey}, fakeKey: testKey, requests: 1,
			req:  review.Request{Model: "gpt-4.1", Prompt: "p", MaxOutputTokens: 3},
			want: review.Answer{Text: reply[:12], Model: "gpt-4.1-2025-08-07", Usage: review.Usage{InputTokens: 120, OutputTokens: 3}, Truncated: true},
			wantReq: wireRequest{Model: "gpt-4.1", MaxCompletionTokens: intp(3), Messages: []wireMessage{
				{Role: "user", Content: "p"}}},
		},
		{
			name: "500 then 429 then 200", cfg: Config{APIKey: testKey}, fakeKey: testKey, req: review1, requests: 3,
			script: []answer{{status: 500, body: err500}, {status: 429, header: map[string]string{"Retry-After": "1"}, body: err429}},
			waits:  []time.Duration{500 * time.Millisecond, time.Second},
			want:   review.Answer{Text: reply, Model: "gpt-5-2025-08-07", Usage: review.Usage{InputTokens: 120, OutputTokens: 16}},
		},
		{
			name: "permanent 500", cfg: Config{APIKey: testKey}, fakeKey: testKey, req: review1, requests: 4,
			script:  []answer{{status: 500, body: err500}, {status: 500, body: err500}, {status: 500, body: err500}, {status: 500, body: err500}},
			waits:   []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second},
			wantErr: &review.StatusError{Provider: "openai", Status: 500, Attempts: 4, Message: "The server had an error while processing your request. Sorry about that!"},
		},
		{
			name: "401 is not retried", cfg: Config{APIKey: testKey}, fakeKey: testKey, req: review1, requests: 1,
			script:  []answer{{status: 401, body: err401}},
			wantErr: &review.StatusError{Provider: "openai", Status: 401, Attempts: 1, Message: "Incorrect API key provided: [redacted]."},
		},
		{
			name: "no choices", cfg: Config{APIKey: testKey}, fakeKey: testKey, req: review1, requests: 1,
			script:  []answer{{status: 200, body: `{"id":"x","object":"chat.completion","choices":[]}`}},
			wantErr: review.ErrNoAnswer,
		},
		{
			name: "refusal", cfg: Config{APIKey: testKey}, fakeKey: testKey, req: review1, requests: 1,
			script:  []answer{{status: 200, body: `{"choices":[{"message":{"content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}`}},
			wantErr: review.ErrNoAnswer,
		},
		{
			name: "part of an answer, then the content filter", cfg: Config{APIKey: testKey}, fakeKey: testKey, req: review1, requests: 1,
			script:  []answer{{status: 200, body: `{"choices":[{"message":{"content":"## Review\n\nThe change looks"},"finish_reason":"content_filter"}]}`}},
			wantErr: review.ErrNoAnswer,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeAPI{t: t, key: tc.fakeKey, reply: reply, script: tc.script}
			srv := f.start()
			var w waits
			tc.cfg.BaseURL, tc.cfg.HTTPClient, tc.cfg.Sleep = srv.URL+"/v1", srv.Client(), w.sleep
			c, err := New(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Complete(t.Context(), tc.req)
			checkResult(t, got, err, tc.want, tc.wantErr)
			if f.count() != tc.requests {
				t.Errorf("requests: got %d, want %d", f.count(), tc.requests)
			}
			if tc.wantReq.Model != "" && !reflect.DeepEqual(f.requests[0], tc.wantReq) {
				t.Errorf("request: got %+v\nwant %+v", f.requests[0], tc.wantReq)
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
	f := &fakeAPI{t: t, key: testKey, reply: reply, script: []answer{{status: 503, body: err500}}}
	srv := f.start()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c, err := New(Config{BaseURL: srv.URL + "/v1", APIKey: testKey, HTTPClient: srv.Client(),
		Sleep: func(ctx context.Context, d time.Duration) error {
			cancel()
			<-ctx.Done()
			return ctx.Err()
		}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(ctx, review.Request{Model: "gpt-5", Prompt: "p"})
	if !errors.Is(err, context.Canceled) || f.count() != 1 {
		t.Fatalf("got %v after %d requests; want context.Canceled after 1", err, f.count())
	}
}

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		cfg          Config
		endpoint     string
		url, problem string
	}{
		{cfg: Config{APIKey: "k"}, endpoint: "api.openai.com", url: "https://api.openai.com/v1/chat/completions"},
		{cfg: Config{Kind: "ollama", BaseURL: "http://localhost:11434/v1/"}, endpoint: "localhost:11434", url: "http://localhost:11434/v1/chat/completions"},
		{cfg: Config{Kind: "gemini", BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai", APIKey: "k"},
			endpoint: "generativelanguage.googleapis.com", url: "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions"},
		{cfg: Config{Kind: "compatible", BaseURL: "https://llm.example/v1?tenant=a", APIVersion: "2025-01-01"},
			endpoint: "llm.example", url: "https://llm.example/v1/chat/completions?api-version=2025-01-01&tenant=a"},
		{cfg: Config{BaseURL: "https://r.openai.azure.com/openai/v1", APIKey: "k"}, endpoint: "r.openai.azure.com", url: "https://r.openai.azure.com/openai/v1/chat/completions"},
		{cfg: Config{BaseURL: "https://r.cognitiveservices.azure.com/openai/deployments/d?api-version=2025-04-01-preview", APIKey: "k"},
			endpoint: "r.cognitiveservices.azure.com", url: "https://r.cognitiveservices.azure.com/openai/deployments/d/chat/completions?api-version=2025-04-01-preview"},
		{cfg: Config{}, problem: "an API key is required"},
		{cfg: Config{Kind: "compatible", BaseURL: "https://r.openai.azure.com/openai/v1"}, problem: "an API key is required"},
		{cfg: Config{Kind: "compatible", BaseURL: "localhost:11434"}, problem: "is not an http(s) URL"},
		{cfg: Config{Kind: "compatible", BaseURL: "ftp://user:secret@host/v1"}, problem: `"ftp://user:xxxxx@host/v1" is not`},
	} {
		c, err := New(tc.cfg)
		if tc.problem != "" {
			if err == nil || !strings.Contains(err.Error(), tc.problem) {
				t.Errorf("%+v: got %v, want an error saying %q", tc.cfg, err, tc.problem)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tc.cfg, err)
			continue
		}
		if c.Endpoint() != tc.endpoint || c.url != tc.url {
			t.Errorf("%+v: got %s %s, want %s %s", tc.cfg, c.Endpoint(), c.url, tc.endpoint, tc.url)
		}
	}
}
