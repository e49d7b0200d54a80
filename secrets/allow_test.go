package secrets

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestBlockingHitsAllowed: what a repository's .gitleaks.toml allows does
// not block, in each form gitleaks reads (global and targeted allowlists,
// a default rule's id with allowlists of its own, disabledRules; regexes
// on the secret, the match or the line, stop words, paths, AND and OR),
// and is redacted all the same.
func TestBlockingHitsAllowed(t *testing.T) {
	aws := fake(t, "aws-access-token", "allowed")
	part := aws.Token[6:14]
	for _, tt := range []struct {
		name, config, path string
		blocks             bool
	}{
		{"no config", "", "deploy/a.ini", true},
		{"[allowlist] regex", "[allowlist]\nregexes = ['''{TOKEN}''']", "deploy/a.ini", false},
		{"[[allowlists]] regex", "[[allowlists]]\nregexes = ['''{TOKEN}''']", "deploy/a.ini", false},
		{"another regex", "[[allowlists]]\nregexes = ['''^nothing$''']", "deploy/a.ini", true},
		{"stop word", "[[allowlists]]\nstopwords = ['''{PART}''']", "deploy/a.ini", false},
		{"path", "[[allowlists]]\npaths = ['''^testdata/''']", "testdata/a.ini", false},
		{"path elsewhere", "[[allowlists]]\npaths = ['''^testdata/''']", "deploy/a.ini", true},
		{"AND, both", "[[allowlists]]\ncondition = \"AND\"\npaths = ['''^testdata/''']\nregexes = ['''{TOKEN}''']", "testdata/a.ini", false},
		{"AND, path only", "[[allowlists]]\ncondition = \"AND\"\npaths = ['''^testdata/''']\nregexes = ['''^nothing$''']", "testdata/a.ini", true},
		{"AND with commits", "[[allowlists]]\ncondition = \"AND\"\ncommits = ['''0123456789abcdef''']\nregexes = ['''{TOKEN}''']", "deploy/a.ini", true},
		{"target the rule", "[[allowlists]]\ntargetRules = [\"aws-access-token\"]\nregexes = ['''{TOKEN}''']", "deploy/a.ini", false},
		{"target another rule", "[[allowlists]]\ntargetRules = [\"github-pat\"]\nregexes = ['''{TOKEN}''']", "deploy/a.ini", true},
		{"the rule's own allowlist", "[[rules]]\nid = \"aws-access-token\"\n[[rules.allowlists]]\nregexes = ['''{TOKEN}''']", "deploy/a.ini", false},
		{"another rule's allowlist", "[[rules]]\nid = \"github-pat\"\n[[rules.allowlists]]\nregexes = ['''{TOKEN}''']", "deploy/a.ini", true},
		{"disabled", "[extend]\nuseDefault = true\ndisabledRules = [\"aws-access-token\"]", "deploy/a.ini", false},
		{"the match", "[[allowlists]]\nregexTarget = \"match\"\nregexes = ['''^{TOKEN}$''']", "deploy/a.ini", false},
		{"the line", "[[allowlists]]\nregexTarget = \"line\"\nregexes = ['''^fixture:''']", "deploy/a.ini", false},
		{"the line, not the secret", "[[allowlists]]\nregexes = ['''^fixture:''']", "deploy/a.ini", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := strings.NewReplacer("{TOKEN}", regexp.QuoteMeta(aws.Token), "{PART}", part).Replace(tt.config)
			g := newGate(t, Options{RepoConfig: []byte(cfg)})
			text := "[default]\nfixture: " + aws.Token + "\n"
			hits, err := g.BlockingHits(context.Background(), tt.path, text)
			if err != nil {
				t.Fatal(err)
			}
			if blocks := len(hits) > 0; blocks != tt.blocks {
				t.Errorf("BlockingHits = %+v, want blocking %v", hits, tt.blocks)
			}
			for _, h := range hits {
				if h.Line != 1 || h.Rule != "aws-access-token" {
					t.Errorf("hit %+v, want line 1 and aws-access-token", h)
				}
			}
			if out, _ := redactAll(t, g, text); aws.Leak(out, 8) != "" {
				t.Errorf("redacted %q still holds the credential: the allowlist weakened redaction", out)
			}
		})
	}
}

// TestBlockingHitsOwnTokens: the run's own credentials block whatever the
// repository allows.
func TestBlockingHitsOwnTokens(t *testing.T) {
	own := fake(t, "github-pat", "own-allowed").Token
	g := newGate(t, Options{OwnTokens: []string{own}, RepoConfig: []byte("[[allowlists]]\nregexes = ['''.''']\npaths = ['''.''']\n")})
	hits, err := g.BlockingHits(context.Background(), "a.txt", "x: "+own+"\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 {
		t.Fatal("the run's own token was allowed")
	}
	for _, h := range hits {
		if h.Rule != OwnTokenRule && h.Rule != "github-pat" {
			t.Errorf("hit %+v", h)
		}
	}
}

// TestBlockingHitsBadAllowlist: an allowlist gitleaks refuses is an error
// of New, as a bad rule is.
func TestBlockingHitsBadAllowlist(t *testing.T) {
	for _, cfg := range []string{
		"[[allowlists]]\nregexes = ['''(''']\n",
		"[[allowlists]]\ndescription = \"empty\"\n",
		"[allowlist]\nregexes = ['''a''']\n[[allowlists]]\nregexes = ['''b''']\n",
	} {
		if _, err := New(Options{RepoConfig: []byte(cfg)}); err == nil {
			t.Errorf("New(%q) = nil error, want one", cfg)
		}
	}
}
