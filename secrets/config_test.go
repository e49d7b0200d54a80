package secrets

import (
	"context"
	"encoding/base64"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/secrets/secretstest"
)

// redactAll scans and redacts text or fails the test.
func redactAll(t *testing.T, g *Gate, text string) (string, []Hit) {
	t.Helper()
	red, hits, err := g.RedactString(context.Background(), text)
	if err != nil {
		t.Fatalf("RedactString: %v", err)
	}
	return red.String(), hits
}

// TestGitleaksAllowIgnored: an author's gitleaks:allow comment does not
// open the gate, in any of the forms it is written.
func TestGitleaksAllowIgnored(t *testing.T) {
	g := newGate(t, Options{})
	for _, rule := range []string{"github-pat", "aws-access-token", "stripe-access-token", "generic-api-key"} {
		f := fake(t, rule, "allow")
		for _, line := range []string{
			"x = \"" + f.Token + "\" // gitleaks:allow\n",
			"x = \"" + f.Token + "\" # gitleaks:allow\n",
			"// gitleaks:allow\nx = \"" + f.Token + "\"\n",
			"/* gitleaks:allow */ x = \"" + f.Token + "\"\n",
		} {
			out, hits := redactAll(t, g, line)
			if frag := f.Leak(out, 8); frag != "" {
				t.Errorf("%s behind gitleaks:allow survives: %q", rule, out)
			}
			if !strings.Contains(out, "gitleaks:allow") {
				t.Errorf("the comment itself should stay: %q", out)
			}
			if len(placeholderOf(hits, rule)) == 0 {
				t.Errorf("no %s hit for %q", rule, out)
			}
		}
	}
}

// hostileConfig tries every way a repository's .gitleaks.toml could
// weaken the default rules.
const hostileConfig = `
title = "weaken everything"

[extend]
useDefault = true
disabledRules = ["github-pat", "aws-access-token", "private-key", "generic-api-key", "slack-bot-token", "jwt"]

[allowlist]
description = "everything is fine"
paths = ['''.*''']
regexes = ['''.*''']
stopwords = ["ghp_", "akia", "a", "e", "1"]
commits = ["0000000000000000000000000000000000000000"]

[[rules]]
id = "github-pat"
description = "a github-pat that never matches"
regex = '''ghp_NEVERMATCHES'''
keywords = ["ghp_nevermatches"]

[[rules]]
id = "aws-access-token"
regex = '''AKIA'''
[[rules.allowlists]]
regexes = ['''.*''']

[[rules]]
id = "gitctx-own-token"
regex = '''nothing-here'''

[[rules]]
id = "uri-credentials"
regex = '''nothing-here-either'''
`

// hostileAllowlists is the newer [[allowlists]] form of the same.
const hostileAllowlists = `
[[allowlists]]
description = "global"
regexes = ['''.*''', '''ghp_''', '''[A-Z0-9]{16}''']
paths = ['''.*''']
stopwords = ["ghp_"]

[[allowlists]]
targetRules = ["github-pat", "private-key", "slack-bot-token"]
regexTarget = "line"
regexes = ['''.*''']

[extend]
disabledRules = ["github-pat"]
`

// TestRepoConfigCannotWeaken: with a repository config that disables,
// replaces and allowlists the default rules, every fixture of the corpus
// is still found and redacted; the reused ids are reported.
func TestRepoConfigCannotWeaken(t *testing.T) {
	fs := corpus(t)
	text, _ := corpusText(fs)
	for _, tt := range []struct {
		name, config string
		ignored      []string
	}{
		{"allowlist, extend, reused ids", hostileConfig, []string{"github-pat", "aws-access-token", "gitctx-own-token", "uri-credentials"}},
		{"allowlists", hostileAllowlists, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newGate(t, Options{RepoConfig: []byte(tt.config)})
			if got := g.Ignored(); !reflect.DeepEqual(got, tt.ignored) {
				t.Errorf("Ignored() = %v, want %v", got, tt.ignored)
			}
			out, hits := redactAll(t, g, text)
			for _, f := range fs {
				if frag := f.Leak(out, 8); frag != "" {
					t.Errorf("%s survives under the repository config", f.Rule)
				}
				if len(placeholderOf(hits, f.Rule)) == 0 {
					t.Errorf("%s: no hit under the repository config", f.Rule)
				}
			}
			// a file path would not help either: the gate takes none
			f := fake(t, "github-pat", "config")
			out, _ = redactAll(t, g, "package-lock.json: "+f.Token+"\n")
			if f.Leak(out, 8) != "" {
				t.Errorf("github-pat survives: %q", out)
			}
		})
	}
}

// TestRepoConfigAddsRules: a rule the repository adds finds its pattern,
// alongside the default ones, with a placeholder that names it.
func TestRepoConfigAddsRules(t *testing.T) {
	cfg := `
[[rules]]
id = "acme-internal-token"
description = "ACME's own tokens"
regex = '''acme_[a-z0-9]{24}'''
keywords = ["acme_"]

[[rules]]
id = "ACME Legacy/Key v1"
regex = '''ACMEKEY-[0-9]{12}'''
`
	g := newGate(t, Options{RepoConfig: []byte(cfg)})
	if len(g.Ignored()) != 0 {
		t.Errorf("Ignored() = %v, want none", g.Ignored())
	}
	acme, err := secretstest.Expand("acme_{lalnum:24}", "acme")
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := secretstest.Expand("ACMEKEY-{digit:12}", "legacy")
	if err != nil {
		t.Fatal(err)
	}
	pat := fake(t, "github-pat", "added")
	text := "a: " + acme.Token + "\nb: " + legacy.Token + "\nc: " + pat.Token + "\n"
	out, hits := redactAll(t, g, text)
	want := "a: [REDACTED:acme-internal-token#1]\nb: [REDACTED:acme-legacy-key-v1#1]\nc: [REDACTED:github-pat#1]\n"
	if out != want {
		t.Errorf("redacted:\n%s\nwant:\n%s", out, want)
	}
	wantHits := []Hit{
		{Line: 0, Rule: "acme-internal-token", Placeholder: "[REDACTED:acme-internal-token#1]"},
		{Line: 1, Rule: "ACME Legacy/Key v1", Placeholder: "[REDACTED:acme-legacy-key-v1#1]"},
		{Line: 2, Rule: "github-pat", Placeholder: "[REDACTED:github-pat#1]"},
	}
	if !reflect.DeepEqual(hits, wantHits) {
		t.Errorf("hits = %+v, want %+v", hits, wantHits)
	}
	if got := FindPlaceholders(out); len(got) != 3 {
		t.Errorf("FindPlaceholders found %v, want the 3 written", got)
	}
}

// TestRepoConfigErrors: a broken repository config is an error from New,
// never a panic, and never a gate without it.
func TestRepoConfigErrors(t *testing.T) {
	for _, tt := range []struct{ name, config string }{
		{"bad regex", "[[rules]]\nid = \"broken\"\nregex = '''([a-z'''\n"},
		{"bad path regex", "[[rules]]\nid = \"broken\"\npath = '''(?P<'''\nregex = '''x'''\n"},
		{"bad allowlist regex", "[[rules]]\nid = \"broken\"\nregex = '''x{3}'''\n[[rules.allowlists]]\nregexes = ['''[''']\n"},
		{"bad toml", "[[rules]\nid = \"broken\n"},
		{"rule without regex or path", "[[rules]]\nid = \"empty\"\n"},
		{"required rule missing", "[[rules]]\nid = \"pair\"\nregex = '''x{3}'''\n[[rules.required]]\nid = \"aws-access-token\"\n"},
		{"bad allowlist condition", "[[rules]]\nid = \"c\"\nregex = '''x{3}'''\n[[rules.allowlists]]\ncondition = \"XOR\"\nregexes = ['''y''']\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var g *Gate
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("New panicked: %v", r)
					}
				}()
				g, err = New(Options{RepoConfig: []byte(tt.config)})
			}()
			if err == nil || g != nil {
				t.Errorf("New = %v, %v; want an error", g, err)
			}
		})
	}
	// the gate still builds afterwards (nothing global was left broken)
	g := newGate(t, Options{})
	f := fake(t, "github-pat", "after-error")
	if out, _ := redactAll(t, g, f.Token+"\n"); f.Leak(out, 8) != "" {
		t.Errorf("gate built after a failed one misses a github-pat: %q", out)
	}
}

// TestOwnTokens: the run's own credentials are found literally wherever
// they appear, even where no rule would see them; short ones are ignored.
func TestOwnTokens(t *testing.T) {
	own, err := secretstest.Expand("run{lalnum:5}.{letters:9}", "own")
	if err != nil {
		t.Fatal(err)
	}
	short := "abc1234" // 7 bytes: too short to look for
	g := newGate(t, Options{OwnTokens: []string{own.Token, short, ""}})

	// no rule matches the token on its own
	plain := newGate(t, Options{})
	if spans, err := plain.Scan(context.Background(), own.Token+"\n"); err != nil || len(spans) != 0 {
		t.Fatalf("without OwnTokens the token is found (%v, %v): pick another", spans, err)
	}

	text := own.Token + "\n" +
		"url=https://example.com/?k=" + own.Token + "&x=1\n" +
		"twice " + own.Token + own.Token + " " + short + "\n" +
		"inside-a-word-" + own.Token + "-suffix\n"
	out, hits := redactAll(t, g, text)
	ph := "[REDACTED:" + OwnTokenRule + "#1]"
	want := ph + "\n" +
		"url=https://example.com/?k=" + ph + "&x=1\n" +
		"twice " + ph + ph + " " + short + "\n" +
		"inside-a-word-" + ph + "-suffix\n"
	if out != want {
		t.Errorf("redacted:\n%s\nwant:\n%s", out, want)
	}
	var lines []int
	for _, h := range hits {
		if h.Rule != OwnTokenRule || h.Placeholder != ph {
			t.Errorf("hit %+v, want rule %s", h, OwnTokenRule)
		}
		lines = append(lines, h.Line)
	}
	if want := []int{0, 1, 2, 2, 3}; !reflect.DeepEqual(lines, want) {
		t.Errorf("hit lines %v, want %v", lines, want)
	}
}

// TestOwnTokenMatchedByRule: an own token that a rule also finds is
// redacted once, whichever name it gets.
func TestOwnTokenMatchedByRule(t *testing.T) {
	f := fake(t, "github-pat", "own")
	g := newGate(t, Options{OwnTokens: []string{f.Token}})
	text := "GITHUB_TOKEN=" + f.Token + "\nplain " + f.Token + "\n"
	out, hits := redactAll(t, g, text)
	if f.Leak(out, 8) != "" {
		t.Errorf("token survives: %q", out)
	}
	if got := Placeholders(out); got != 2 || len(hits) != 2 {
		t.Errorf("%d placeholders, %d hits in %q; want one per occurrence", got, len(hits), out)
	}
}

// TestLoggerKeepsMessagesOnly: gitleaks' log lines reach slog as their
// level and message; their fields, which can hold the secret found, are
// dropped.
func TestLoggerKeepsMessagesOnly(t *testing.T) {
	var buf strings.Builder
	w := slogWriter{slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	f := fake(t, "github-pat", "log")
	for _, line := range []string{
		`{"level":"warn","finding":"` + f.Token + `","message":"skipping finding: low entropy"}`,
		`{"level":"error","secret":"` + f.Token + `","message":" failed to decode "}`,
		`{"level":"warn","finding":"` + f.Token + `"}`,
		`not json ` + f.Token,
	} {
		if n, err := w.Write([]byte(line + "\n")); err != nil || n != len(line)+1 {
			t.Errorf("Write = %d, %v", n, err)
		}
	}
	out := buf.String()
	if f.Leak(out, 8) != "" {
		t.Errorf("the log holds the secret:\n%s", out)
	}
	for _, want := range []string{`level=WARN msg="gitleaks: skipping finding: low entropy"`, `level=ERROR msg="gitleaks: failed to decode"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log has no %s:\n%s", want, out)
		}
	}
	if strings.Count(out, "\n") != 2 {
		t.Errorf("want two records (lines without a message dropped):\n%s", out)
	}
}

// TestPathRulesApply: gitleaks rules that hold only for some file names
// (kubernetes-secret-yaml for *.yaml, nuget-config-password for
// nuget.config, hashicorp-tf-password for *.tf) are default rules too.
// The gate scans without a file path, so that path allowlists exempt
// nothing; the same choice must not switch these rules off.
func TestPathRulesApply(t *testing.T) {
	g := newGate(t, Options{})
	pw, err := secretstest.Expand("{alnum:20}", "path-rules")
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(pw.Token))
	enc := fixture{Rule: "kubernetes-secret-yaml", Token: b64, Random: make([]bool, len(b64))}
	for i := range enc.Random {
		enc.Random[i] = true
	}
	for _, tt := range []struct {
		rule, text string
		secret     fixture
	}{
		{"kubernetes-secret-yaml", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  connection: " + b64 + "\n", enc},
		{"nuget-config-password", "<packageSourceCredentials><feed>\n  <add key=\"ClearTextPassword\" value=\"" + pw.Token + "\" />\n</feed></packageSourceCredentials>\n", pw},
	} {
		out, hits := redactAll(t, g, tt.text)
		if tt.secret.Leak(out, 8) != "" {
			t.Errorf("%s: the credential survives:\n%s", tt.rule, out)
		}
		if len(placeholderOf(hits, tt.rule)) == 0 {
			t.Errorf("%s: no hit (hits %+v)", tt.rule, hits)
		}
	}
}
