package retry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gitctx/gitctx/review"
)

// step is one scripted answer; after the last, the server answers 200 "ok".
type step struct {
	status int
	header map[string]string
	body   string
}

// scripted serves steps in order and counts the requests.
func scripted(t *testing.T, steps ...step) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i >= len(steps) {
			fmt.Fprint(w, "ok")
			return
		}
		for k, v := range steps[i].header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(steps[i].status)
		fmt.Fprint(w, steps[i].body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// waits records the waits asked for instead of sleeping.
type waits []time.Duration

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	*w = append(*w, d)
	return ctx.Err()
}

func post(url string) func(context.Context) (*http.Request, error) {
	return func(ctx context.Context) (*http.Request, error) {
		return http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader("{}"))
	}
}

const (
	openAI500  = `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`
	openAI429  = `{"error":{"message":"Rate limit reached for gpt-5","type":"requests","param":null,"code":"rate_limit_exceeded"}}`
	claude401  = `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_1"}`
	claude529  = `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	secretKey  = "sk-proj-abcdefghijklmnop"
	keyInError = `{"error":{"message":"Incorrect API key provided: sk-proj-abcdefghijklmnop.","type":"invalid_request_error"}}`
)

func between(lo, hi time.Duration) func(time.Duration) bool {
	return func(d time.Duration) bool { return d >= lo && d <= hi }
}

func TestDo(t *testing.T) {
	now := time.Date(2026, 11, 22, 1, 58, 35, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		steps     []step
		policy    Policy
		requests  int32
		waits     []func(time.Duration) bool
		wantErr   *review.StatusError
		errSubstr string
	}{
		{name: "success", requests: 1},
		{
			name: "500 then 429 with retry-after then 200",
			steps: []step{
				{status: 500, body: openAI500},
				{status: 429, header: map[string]string{"Retry-After": "1"}, body: openAI429},
			},
			requests: 3,
			waits:    []func(time.Duration) bool{between(500*time.Millisecond, time.Second), between(time.Second, time.Second)},
		},
		{
			name:     "retry-after-ms wins over retry-after",
			steps:    []step{{status: 503, header: map[string]string{"Retry-After-Ms": "1500", "Retry-After": "9"}}},
			requests: 2,
			waits:    []func(time.Duration) bool{between(1500*time.Millisecond, 1500*time.Millisecond)},
		},
		{
			name:     "retry-after as an HTTP date",
			steps:    []step{{status: 429, header: map[string]string{"Retry-After": now.Add(5 * time.Second).Format(http.TimeFormat)}}},
			requests: 2,
			waits:    []func(time.Duration) bool{between(5*time.Second, 5*time.Second)},
		},
		{
			name:     "529 overloaded is retried",
			steps:    []step{{status: 529, body: claude529}, {status: 502, body: "<html>bad gateway</html>"}},
			requests: 3,
			waits:    []func(time.Duration) bool{between(500*time.Millisecond, time.Second), between(time.Second, 2*time.Second)},
		},
		{
			name:     "permanent 500 gives up after the attempts",
			steps:    []step{{status: 500, body: openAI500}, {status: 500, body: openAI500}, {status: 500, body: openAI500}, {status: 500, body: openAI500, header: map[string]string{"X-Request-Id": "req_abc"}}},
			requests: 4,
			waits: []func(time.Duration) bool{
				between(500*time.Millisecond, time.Second), between(time.Second, 2*time.Second), between(2*time.Second, 4*time.Second),
			},
			wantErr: &review.StatusError{Provider: "openai", Status: 500, Attempts: 4,
				Message: "The server had an error while processing your request. Sorry about that! (request id req_abc)"},
		},
		{
			name:     "401 is not retried",
			steps:    []step{{status: 401, body: claude401, header: map[string]string{"Request-Id": "req_1"}}},
			requests: 1,
			wantErr:  &review.StatusError{Provider: "openai", Status: 401, Attempts: 1, Message: "invalid x-api-key (request id req_1)"},
		},
		{
			name:     "x-should-retry false stops a 500",
			steps:    []step{{status: 500, header: map[string]string{"X-Should-Retry": "false"}, body: `{"error":"model crashed"}`}},
			requests: 1,
			wantErr:  &review.StatusError{Provider: "openai", Status: 500, Attempts: 1, Message: "model crashed"},
		},
		{
			name:     "x-should-retry true retries a 409",
			steps:    []step{{status: 409, header: map[string]string{"X-Should-Retry": "true"}}},
			requests: 2,
			waits:    []func(time.Duration) bool{between(500*time.Millisecond, time.Second)},
		},
		{
			name:      "retry-after beyond the limit gives up at once",
			steps:     []step{{status: 429, header: map[string]string{"Retry-After": "3600"}, body: openAI429}},
			requests:  1,
			wantErr:   &review.StatusError{Provider: "openai", Status: 429, Attempts: 1, Message: "Rate limit reached for gpt-5"},
			errSubstr: "asks to wait 1h0m0s before trying again, more than the 1m0s allowed",
		},
		{
			name:     "the key is removed from the message",
			steps:    []step{{status: 401, body: keyInError}},
			policy:   Policy{Redact: []string{secretKey, "", "ab"}},
			requests: 1,
			wantErr:  &review.StatusError{Provider: "openai", Status: 401, Attempts: 1, Message: "Incorrect API key provided: [redacted]."},
		},
		{
			name:     "one attempt",
			steps:    []step{{status: 503, body: "engine\x1b[31m overloaded\n\n"}},
			policy:   Policy{Attempts: 1},
			requests: 1,
			wantErr:  &review.StatusError{Provider: "openai", Status: 503, Attempts: 1, Message: "engine [31m overloaded"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, n := scripted(t, tc.steps...)
			var w waits
			p := tc.policy
			p.Provider, p.Sleep, p.Now = "openai", w.sleep, func() time.Time { return now }
			body, err := Do(t.Context(), srv.Client(), p, post(srv.URL))
			if got := n.Load(); got != tc.requests {
				t.Errorf("requests: got %d, want %d", got, tc.requests)
			}
			if len(w) != len(tc.waits) {
				t.Fatalf("waits: got %v, want %d", w, len(tc.waits))
			}
			for i, ok := range tc.waits {
				if !ok(w[i]) {
					t.Errorf("wait %d: %v out of bounds", i, w[i])
				}
			}
			checkErr(t, body, err, tc.wantErr, tc.errSubstr)
		})
	}
}

func checkErr(t *testing.T, body []byte, err error, want *review.StatusError, substr string) {
	t.Helper()
	if want == nil {
		if err != nil || string(body) != "ok" {
			t.Fatalf("got %q, %v; want ok", body, err)
		}
		return
	}
	var got *review.StatusError
	if !errors.As(err, &got) {
		t.Fatalf("got %v; want a StatusError", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if !strings.Contains(err.Error(), substr) {
		t.Errorf("error %q does not say %q", err, substr)
	}
	if strings.Contains(err.Error(), secretKey) {
		t.Errorf("error %q shows the key", err)
	}
}
