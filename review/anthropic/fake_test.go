package anthropic

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// wireRequest is a Messages request as the API defines it, narrowed to
// what a review may send: decoding with DisallowUnknownFields refuses
// anything else, as the API does ("Extra inputs are not permitted").
type wireRequest struct {
	Model     string        `json:"model"`
	MaxTokens *int          `json:"max_tokens"`
	System    string        `json:"system"`
	Messages  []wireMessage `json:"messages"`
}

type wireMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// answer is one scripted reply of the fake; after the script, it answers
// 200 with a message.
type answer struct {
	status int
	header map[string]string
	body   string
}

// fakeAPI checks requests the way the Messages API does and records
// them. A request the API would refuse fails the test.
type fakeAPI struct {
	t      *testing.T
	key    string
	reply  string
	script []answer

	mu       sync.Mutex
	requests []wireRequest
}

func (f *fakeAPI) start() *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	f.t.Cleanup(srv.Close)
	return srv
}

func (f *fakeAPI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	req, status, msg := f.check(r)
	if msg != "" {
		f.t.Errorf("the API would refuse this request: %s", msg)
		writeError(w, status, msg)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	n := len(f.requests)
	f.mu.Unlock()
	if n <= len(f.script) {
		a := f.script[n-1]
		for k, v := range a.header {
			w.Header().Set(k, v)
		}
		writeError(w, a.status, a.body)
		return
	}
	f.message(w, req)
}

func (f *fakeAPI) check(r *http.Request) (wireRequest, int, string) {
	var req wireRequest
	switch {
	case r.URL.Path != "/v1/messages":
		return req, 404, "Not found: " + r.URL.Path
	case r.Method != http.MethodPost:
		return req, 405, "Method not allowed"
	case r.Header.Get("X-Api-Key") != f.key || r.Header.Get("Authorization") != "":
		return req, 401, "invalid x-api-key"
	case r.Header.Get("Anthropic-Version") != "2023-06-01":
		return req, 400, "anthropic-version: header is required"
	case r.Header.Get("Content-Type") != "application/json":
		return req, 400, "content-type"
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, 400, "Extra inputs are not permitted, or bad JSON: " + err.Error()
	}
	switch {
	case req.Model == "":
		return req, 400, "model: Field required"
	case req.MaxTokens == nil || *req.MaxTokens < 1:
		return req, 400, "max_tokens: Field required"
	case len(req.Messages) == 0:
		return req, 400, "messages: Field required"
	}
	for i, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return req, 400, fmt.Sprintf("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
		if m.Content == "" {
			return req, 400, fmt.Sprintf("messages.%d: all messages must have non-empty content", i)
		}
	}
	return req, 0, ""
}

func (f *fakeAPI) message(w http.ResponseWriter, req wireRequest) {
	text, stop := f.reply, "end_turn"
	if len(text) > 4**req.MaxTokens {
		text, stop = text[:4**req.MaxTokens], "max_tokens"
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "msg_01", "type": "message", "role": "assistant", "model": req.Model,
		"content":     []any{map[string]any{"type": "text", "text": text}},
		"stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": (len(text) + 3) / 4,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 20, "service_tier": "standard"},
	})
}

// writeError answers in Anthropic's error envelope.
func writeError(w http.ResponseWriter, status int, body string) {
	if !strings.HasPrefix(body, "{") {
		b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": body}})
		body = string(b)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}
