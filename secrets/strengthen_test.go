package secrets

import (
	"strings"
	"testing"
)

// Token rules end a token at a quote, a space or a semicolon; in an egress
// gate they also end it at what follows a token in code and URLs.
func TestLooserTokenEnds(t *testing.T) {
	g := newGate(t, Options{})
	for _, rule := range []string{"gcp-api-key", "stripe-access-token", "npm-access-token", "jwt"} {
		f := fake(t, rule, "ends")
		for _, layout := range []string{"https://x.example/api?key=%s&cb=run", "call(%s)", "[%s, other]", "{k: %s}", "<a>%s</a>", "%s."} {
			text := strings.Replace(layout, "%s", f.Token, 1) + "\n"
			red, _ := redactAll(t, g, text)
			if strings.Contains(red, f.Token) {
				t.Errorf("%s in %q: the token survives: %q", rule, layout, red)
			}
			if !strings.Contains(red, "[REDACTED:") {
				t.Errorf("%s in %q: nothing redacted", rule, layout)
			}
		}
	}
}
