package ghreview

import (
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gitctx/gitctx/review"
)

func TestParsePatch(t *testing.T) {
	tests := []struct {
		name        string
		patch       string
		right, left []int
	}{
		{name: "main.go", patch: mainPatch, right: []int{1, 2, 3, 4, 5, 6, 7}, left: []int{1, 2, 3}},
		{name: "two hunks", patch: greetPatch, right: []int{1, 2, 3, 4, 5, 21, 22, 23, 24, 25, 26}, left: []int{1, 2, 3, 4, 20, 21, 22}},
		{name: "counts left out", patch: "@@ -1 +1 @@\n-old\n+new", right: []int{1}, left: []int{1}},
		{name: "new file", patch: "@@ -0,0 +1,2 @@\n+a\n+b", right: []int{1, 2}},
		{name: "no newline at end", patch: "@@ -3,2 +3,2 @@\n ctx\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file", right: []int{3, 4}, left: []int{3, 4}},
		{name: "empty context line and trailing newline", patch: "@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n", right: []int{1, 2, 3}, left: []int{1, 2, 3}},
		{name: "no patch (binary)", patch: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			right, left := parsePatch(tt.patch)
			if got := sortedKeys(right); !slices.Equal(got, tt.right) {
				t.Errorf("RIGHT lines %v, want %v", got, tt.right)
			}
			if got := sortedKeys(left); !slices.Equal(got, tt.left) {
				t.Errorf("LEFT lines %v, want %v", got, tt.left)
			}
		})
	}
}

func sortedKeys(m map[int]spot) []int {
	var keys []int
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func TestAnchorOfRenamedFile(t *testing.T) {
	a := anchors{}
	a.add("new/name.go", "old/name.go", "@@ -1,2 +1,2 @@\n-a\n+b\n c")
	got, ok := a.anchor(review.Finding{Path: "old/name.go", Side: "LEFT", Line: 1})
	if !ok || got.Path != "new/name.go" {
		t.Errorf("a LEFT finding on the old name = %+v, %v; want it on new/name.go", got, ok)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		status   int
		header   map[string]string
		body     string
		want     time.Duration
		wantRate bool
	}{
		{name: "retry-after seconds", status: 403, header: map[string]string{"Retry-After": "3"}, want: 3 * time.Second, wantRate: true},
		{name: "retry-after date", status: 429, header: map[string]string{"Retry-After": now.Add(5 * time.Second).Format(http.TimeFormat)}, want: 5 * time.Second, wantRate: true},
		{name: "primary limit", status: 403, header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": strconv.FormatInt(now.Add(10*time.Second).Unix(), 10)}, want: 11 * time.Second, wantRate: true},
		{name: "secondary limit without headers", status: 403, body: `{"message":"You have exceeded a secondary rate limit"}`, want: maxWait, wantRate: true},
		{name: "429 without headers", status: 429, want: maxWait, wantRate: true},
		{name: "permission", status: 403, header: map[string]string{"X-RateLimit-Remaining": "4999"}, body: `{"message":"Resource not accessible by integration"}`},
		{name: "server error", status: 500, header: map[string]string{"Retry-After": "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: tt.status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(tt.body))}
			for k, v := range tt.header {
				resp.Header.Set(k, v)
			}
			got, rate := retryAfter(resp, now)
			if got != tt.want || rate != tt.wantRate {
				t.Errorf("retryAfter = %v, %v; want %v, %v", got, rate, tt.want, tt.wantRate)
			}
			if body, _ := io.ReadAll(resp.Body); string(body) != tt.body {
				t.Errorf("body after the check %q, want it kept: %q", body, tt.body)
			}
		})
	}
}
