package openai

import (
	"context"
	"net"
	"net/http"
	"reflect"
	"testing"

	"github.com/gitctx/gitctx/review"
)

// TestAzure sends to Azure host names, dialled to the fake, so that the
// detection by host is what turns the api-key header on.
func TestAzure(t *testing.T) {
	for _, tc := range []struct {
		base, path, query string
	}{
		{"http://myres.openai.azure.com/openai/deployments/gpt-4o", "/openai/deployments/gpt-4o/chat/completions", "api-version=2024-10-21"},
		{"http://myres.openai.azure.com/openai/v1/", "/openai/v1/chat/completions", ""},
	} {
		f := &fakeAPI{t: t, key: testKey, azure: true, path: tc.path, reply: reply}
		srv := f.start()
		dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "tcp", srv.Listener.Addr().String())
		}
		c, err := New(Config{BaseURL: tc.base, APIKey: testKey, HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dial}}})
		if err != nil {
			t.Fatal(err)
		}
		ans, err := c.Complete(t.Context(), review.Request{Model: "gpt-4o", Prompt: "the pack", MaxOutputTokens: 100})
		if err != nil || ans.Text != reply {
			t.Fatalf("%s: got %+v, %v", tc.base, ans, err)
		}
		want := wireRequest{Model: "gpt-4o", MaxCompletionTokens: intp(100), Messages: []wireMessage{{Role: "user", Content: "the pack"}}}
		if !reflect.DeepEqual(f.requests[0], want) || f.queries[0] != tc.query {
			t.Errorf("%s: got %+v ?%s, want %+v ?%s", tc.base, f.requests[0], f.queries[0], want, tc.query)
		}
		if c.Endpoint() != "myres.openai.azure.com" {
			t.Errorf("endpoint %s", c.Endpoint())
		}
	}
}
