package retry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gitctx/gitctx/review"
)

func TestDoCancelledWhileWaiting(t *testing.T) {
	srv, n := scripted(t, step{status: 503, header: map[string]string{"Retry-After": "30"}})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	p := Policy{Provider: "anthropic", Sleep: func(ctx context.Context, d time.Duration) error {
		cancel() // the user presses ^C during the wait
		return sleep(ctx, d)
	}}
	start := time.Now()
	_, err := Do(ctx, srv.Client(), p, post(srv.URL))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("the wait was not interrupted")
	}
	if n.Load() != 1 {
		t.Errorf("requests: got %d, want 1", n.Load())
	}
}

func TestDoCancelledDuringRequest(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		_, _ = io.Copy(io.Discard, r.Body) // so the server notices the client leave
		cancel()
		<-r.Context().Done()
	}))
	defer srv.Close()
	var w waits
	_, err := Do(ctx, srv.Client(), Policy{Provider: "openai", Sleep: w.sleep}, post(srv.URL))
	if !errors.Is(err, context.Canceled) || n.Load() != 1 || len(w) != 0 {
		t.Fatalf("got %v after %d requests and waits %v; want context.Canceled after 1, no wait", err, n.Load(), w)
	}
}

func TestDoRetriesADroppedConnection(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	var w waits
	body, err := Do(t.Context(), srv.Client(), Policy{Provider: "openai", Sleep: w.sleep}, post(srv.URL))
	if err != nil || string(body) != "ok" || n.Load() != 2 || len(w) != 1 {
		t.Fatalf("got %q, %v after %d requests and waits %v; want ok after 2, one wait", body, err, n.Load(), w)
	}
}

func TestDoRetriesATimedOutAttempt(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if n.Add(1) == 1 {
			<-r.Context().Done()
			return
		}
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	var w waits
	p := Policy{Provider: "openai", Sleep: w.sleep, AttemptTimeout: 50 * time.Millisecond}
	body, err := Do(t.Context(), srv.Client(), p, post(srv.URL))
	if err != nil || string(body) != "ok" || n.Load() != 2 {
		t.Fatalf("got %q, %v after %d requests; want ok after 2", body, err, n.Load())
	}
}

func TestDoGivesUpOnNetworkErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close() // nothing listens: connection refused
	var w waits
	_, err = Do(t.Context(), http.DefaultClient, Policy{Provider: "ollama", Sleep: w.sleep, Attempts: 2}, post(url))
	if err == nil || !strings.Contains(err.Error(), "ollama: no answer after 2 attempts") || len(w) != 1 {
		t.Fatalf("got %v with waits %v", err, w)
	}
}

func TestDoDoesNotRetryWhatWaitingCannotMend(t *testing.T) {
	var builds int
	build := func(ctx context.Context) (*http.Request, error) {
		builds++
		return http.NewRequestWithContext(ctx, http.MethodPost, "ftp://example.com/v1", nil)
	}
	var w waits
	_, err := Do(t.Context(), http.DefaultClient, Policy{Provider: "openai", Sleep: w.sleep}, build)
	if err == nil || builds != 1 || len(w) != 0 {
		t.Fatalf("got %v after %d attempts; want an error after 1", err, builds)
	}
}

func TestDoLimitsTheAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, strings.Repeat("x", 3<<20))
	}))
	defer srv.Close()
	_, err := Do(t.Context(), srv.Client(), Policy{Provider: "openai", MaxBody: 2 << 20}, post(srv.URL))
	if err == nil || !strings.Contains(err.Error(), "larger than 2 MiB") {
		t.Fatalf("got %v", err)
	}
}

func TestNoRedirects(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/v1/messages", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	client := srv.Client()
	_, err := Do(t.Context(), NoRedirects(client), Policy{Provider: "anthropic"}, post(srv.URL))
	var se *review.StatusError
	if !errors.As(err, &se) || se.Status != 307 || !strings.Contains(se.Message, "redirected to 127.0.0.1") {
		t.Fatalf("got %v", err)
	}
	if elsewhere.Load() != 0 {
		t.Error("the redirect was followed")
	}
	if client.CheckRedirect != nil {
		t.Error("NoRedirects changed the client it was given")
	}
}

func TestBackoff(t *testing.T) {
	for attempt, want := range []time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second,
		4: 8 * time.Second, 5: 16 * time.Second, 6: 20 * time.Second, 9: 20 * time.Second, 40: 20 * time.Second} {
		if want == 0 {
			continue
		}
		for range 20 {
			if d := backoff(time.Second, 20*time.Second, attempt); d < want/2 || d > want {
				t.Errorf("attempt %d: got %v, want %v to %v", attempt, d, want/2, want)
			}
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 1, 58, 35, 0, time.UTC)
	for _, tc := range []struct {
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{header: map[string]string{"Retry-After": "1"}, want: time.Second, ok: true},
		{header: map[string]string{"Retry-After": "0.5"}, want: 500 * time.Millisecond, ok: true},
		{header: map[string]string{"Retry-After": "0"}},
		{header: map[string]string{"Retry-After": "-3"}},
		{header: map[string]string{"Retry-After": "soon"}},
		{header: map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}},
		{header: map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, want: 90 * time.Second, ok: true},
		{header: map[string]string{"Retry-After-Ms": "250", "Retry-After": "1"}, want: 250 * time.Millisecond, ok: true},
		{header: map[string]string{"Retry-After-Ms": "x", "Retry-After": "2"}, want: 2 * time.Second, ok: true},
		{},
	} {
		h := http.Header{}
		for k, v := range tc.header {
			h.Set(k, v)
		}
		if got, ok := retryAfter(h, now); got != tc.want || ok != tc.ok {
			t.Errorf("%v: got %v, %v; want %v, %v", tc.header, got, ok, tc.want, tc.ok)
		}
	}
}

func TestTransient(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{io.ErrUnexpectedEOF, true},
		{fmt.Errorf("read: %w", io.EOF), true},
		{context.DeadlineExceeded, true},
		{&net.OpError{Op: "dial", Err: errors.New("connection refused")}, true},
		{&net.DNSError{Err: "no such host", Name: "api.openai.invalid", IsNotFound: true}, false},
		{&net.DNSError{Err: "i/o timeout", Name: "api.openai.com", IsTimeout: true}, true},
		{errors.New(`unsupported protocol scheme "ftp"`), false},
	} {
		if got := transient(tc.err); got != tc.want {
			t.Errorf("%v: got %v, want %v", tc.err, got, tc.want)
		}
	}
}

func TestEnvelopeMessage(t *testing.T) {
	for body, want := range map[string]string{
		openAI500:                              "The server had an error while processing your request. Sorry about that!",
		claude529:                              "Overloaded",
		`{"error":"model 'llama9' not found"}`: "model 'llama9' not found",
		`{"message":"Not Found"}`:              "Not Found",
		`{"error":{"code":"429"}}`:             "",
		"upstream connect error":               "upstream connect error",
	} {
		if got, _ := envelopeMessage([]byte(body)); got != want {
			t.Errorf("%s: got %q, want %q", body, got, want)
		}
	}
	long := strings.Repeat("é", 2000)
	if got := clean(long, nil, maxMessage); len([]rune(got)) != maxMessage+1 {
		t.Errorf("a long message keeps %d runes", len([]rune(got)))
	}
}
