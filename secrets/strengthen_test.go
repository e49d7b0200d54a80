package secrets

import (
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/config"
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

// TestRulesCompiledLoose: every default rule whose expression ends a token
// as gitleaks does is compiled with the looser end, once, before
// strengthen sees it.
func TestRulesCompiledLoose(t *testing.T) {
	raw, err := readViper([]byte(config.DefaultConfig))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := defaultsForTests()
	if err != nil {
		t.Fatal(err)
	}
	loosened := 0
	for _, r := range raw.Rules {
		if r.Regex == "" || r.ID == privateKey { // sharpened: see TestRulesQuietened
			continue
		}
		got := cfg.Rules[r.ID].Regex.String()
		if want := strings.ReplaceAll(r.Regex, ruleEnd, looserEnd); got != want {
			t.Errorf("%s: compiled %q, want %q", r.ID, got, want)
		}
		if strings.Contains(r.Regex, ruleEnd) {
			loosened++
		}
	}
	if loosened < len(raw.Rules)/2 {
		t.Errorf("only %d of %d rules end a token as gitleaks does", loosened, len(raw.Rules))
	}
}
