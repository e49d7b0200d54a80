package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// wireRequest is a Chat Completions request as the API defines it,
// narrowed to what a review may send: decoding with DisallowUnknownFields
// refuses anything else (temperature, tools, stream), as the API refuses
// unknown parameters. Pointers tell an absent field from a zero one.
type wireRequest struct {
	Model               string        `json:"model"`
	Messages            []wireMessage `json:"messages"`
	MaxCompletionTokens *int          `json:"max_completion_tokens"`
	MaxTokens           *int          `json:"max_tokens"`
}

type wireMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// answer is one scripted reply of the fake; after the script, it answers
// 200 with a completion.
type answer struct {
	status int
	header map[string]string
	body   string
}

// fakeAPI checks requests the way the Chat Completions API does and
// records them. A request the API would refuse fails the test.
type fakeAPI struct {
	t      *testing.T
	key    string // expected credential; "" means none may be sent
	azure  bool   // the key comes in api-key, not Authorization
	path   string // expected path; /v1/chat/completions when empty
	reply  string
	script []answer

	mu       sync.Mutex
	requests []wireRequest
	queries  []string
}

func (f *fakeAPI) start() *httptest.Server {
	if f.path == "" {
		f.path = "/v1/chat/completions"
	}
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
	req, msg := f.check(r)
	if msg != "" {
		f.t.Errorf("the API would refuse this request: %s", msg)
		writeError(w, 400, msg)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.queries = append(f.queries, r.URL.RawQuery)
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
	f.complete(w, req)
}

func (f *fakeAPI) check(r *http.Request) (wireRequest, string) {
	var req wireRequest
	if r.Method != http.MethodPost || r.URL.Path != f.path {
		return req, fmt.Sprintf("%s %s: want POST %s", r.Method, r.URL.Path, f.path)
	}
	if msg := f.checkAuth(r.Header); msg != "" {
		return req, msg
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		return req, "Content-Type " + ct
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, "Unrecognized request argument or bad JSON: " + err.Error()
	}
	if req.Model == "" || len(req.Messages) == 0 {
		return req, "model and messages are required"
	}
	for i, m := range req.Messages {
		if (m.Role != "system" && m.Role != "user") || m.Content == "" {
			return req, fmt.Sprintf("messages.[%d]: role %q, content %q", i, m.Role, m.Content)
		}
	}
	reasoning := strings.HasPrefix(req.Model, "o") || strings.HasPrefix(req.Model, "gpt-5")
	if reasoning && req.MaxTokens != nil {
		return req, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
	}
	if req.MaxTokens != nil && req.MaxCompletionTokens != nil {
		return req, "max_tokens and max_completion_tokens both set"
	}
	return req, ""
}

func (f *fakeAPI) checkAuth(h http.Header) string {
	auth, apiKey := h.Get("Authorization"), h.Get("Api-Key")
	switch {
	case f.azure && (apiKey != f.key || auth != ""):
		return "want the key in api-key only"
	case !f.azure && f.key == "" && (auth != "" || apiKey != ""):
		return "a credential was sent where none was given"
	case !f.azure && f.key != "" && (auth != "Bearer "+f.key || apiKey != ""):
		return "want Authorization: Bearer <key>"
	}
	return ""
}

func (f *fakeAPI) complete(w http.ResponseWriter, req wireRequest) {
	text, finish := f.reply, "stop"
	limit := 0
	for _, p := range []*int{req.MaxCompletionTokens, req.MaxTokens} {
		if p != nil {
			limit = *p
		}
	}
	if limit > 0 && len(text) > 4*limit {
		text, finish = text[:4*limit], "length"
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": req.Model + "-2025-08-07",
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": finish, "logprobs": nil,
			"message": map[string]any{"role": "assistant", "content": text, "refusal": nil},
		}},
		"usage": map[string]any{"prompt_tokens": 120, "completion_tokens": (len(text) + 3) / 4, "total_tokens": 0},
	})
}

func writeError(w http.ResponseWriter, status int, body string) {
	if !strings.HasPrefix(body, "{") {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": body, "type": "invalid_request_error"}})
		body = string(b)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}
