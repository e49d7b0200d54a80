package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gitctx/gitctx/secrets/secretstest"
)

// Bad and hostile input for the gate (docs/robustness.md maps each case of
// reliability-anchors §5 to its tests).

// TestLongLinesScannedWhole: a minified file is one line of hundreds of
// kilobytes, and a text can be megabytes: a credential at its start, in its
// middle and at its end is found, on the right line, in bounded time. A
// line reader with bufio.Scanner's 64 KiB limit, or a scan of the first
// chunk only, would miss the later ones (§5 case 12).
func TestLongLinesScannedWhole(t *testing.T) {
	g := newGate(t, Options{})
	first, middle, last := fake(t, "github-pat", "long-first"), fake(t, "aws-access-token", "long-middle"), fake(t, "stripe-access-token", "long-last")
	filler := func(n int) string { return strings.Repeat("a=b+c;d(e,f);", n/13+1)[:n] }
	minified := "var k='" + first.Token + "';" + filler(150<<10) + "var a='" + middle.Token + "';" + filler(150<<10) + "var s='" + last.Token + "';\n"
	var big strings.Builder
	for big.Len() < 1<<20 {
		big.WriteString("a line of an ordinary, rather long generated file with no credential in it\n")
	}
	lines := strings.Count(big.String(), "\n")
	big.WriteString("token = \"" + last.Token + "\"\n")
	for _, tt := range []struct {
		name, text string
		line       int
		fs         []fixture
	}{
		{"300 KB single line", minified, 0, []fixture{first, middle, last}},
		{"1 MB text, credential on the last line", big.String(), lines, []fixture{last}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			out, hits := redactAll(t, g, tt.text)
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("the scan took %v", d)
			}
			for _, f := range tt.fs {
				if frag := f.Leak(out, 8); frag != "" {
					t.Errorf("%s survives", f.Rule)
				}
				if hs := placeholderOf(hits, f.Rule); len(hs) == 0 {
					t.Errorf("no %s hit", f.Rule)
				}
			}
			for _, h := range hits {
				if h.Line != tt.line {
					t.Errorf("hit %+v on line %d, want %d", h, h.Line, tt.line)
				}
			}
			if strings.Count(out, "\n") != strings.Count(tt.text, "\n") {
				t.Error("the line count changed")
			}
		})
	}
}

// TestSuppressionFilesIgnored: the gitleaks CLI reads .gitleaks.toml and
// .gitleaksignore from the directory it scans, and a baseline report
// names findings to skip. In a pull request all three are the author's:
// the gate reads none of them, wherever it runs (§5 case 3).
func TestSuppressionFilesIgnored(t *testing.T) {
	pat, aws := fake(t, "github-pat", "suppressed"), fake(t, "aws-access-token", "suppressed")
	text := "a = \"" + pat.Token + "\"\nb = \"" + aws.Token + "\"\n"
	dir := t.TempDir()
	for name, content := range map[string]string{
		".gitleaks.toml":         "[allowlist]\npaths = ['''.*''']\nregexes = ['''.*''']\n[extend]\ndisabledRules = [\"github-pat\", \"aws-access-token\"]\n",
		".gitleaksignore":        ":github-pat:1\n:aws-access-token:2\ngithub-pat\naws-access-token\nstdin:github-pat:1\n",
		"gitleaks-baseline.json": `[{"RuleID":"github-pat","StartLine":1,"Secret":"` + pat.Token[:8] + `","File":"","Fingerprint":":github-pat:1"}]`,
		"gitleaks.toml":          "[allowlist]\nregexes = ['''.*''']\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("GITLEAKS_CONFIG", filepath.Join(dir, ".gitleaks.toml"))
	t.Setenv("GITLEAKS_CONFIG_TOML", "[allowlist]\nregexes = ['''.*''']\n")
	g := newGate(t, Options{})
	out, hits := redactAll(t, g, text)
	for _, f := range []fixture{pat, aws} {
		if frag := f.Leak(out, 8); frag != "" || len(placeholderOf(hits, f.Rule)) == 0 {
			t.Errorf("%s is not redacted beside the suppression files: %q", f.Rule, out)
		}
	}
}

// TestOwnTokensEncoded: the run's own tokens are found in base64 (any
// byte alignment, standard or URL alphabet, with or without padding) and
// hex as well: actions/checkout's http.extraheader holds the GitHub token
// as base64("x-access-token:" + token), and no gitleaks rule knows the
// token to find it decoded (§5 case 20).
func TestOwnTokensEncoded(t *testing.T) {
	own, err := secretstest.Expand("run{lalnum:7}.{letters:13}", "own-encoded")
	if err != nil {
		t.Fatal(err)
	}
	g := newGate(t, Options{OwnTokens: []string{own.Token}})
	b64 := base64.StdEncoding.EncodeToString
	url := base64.RawURLEncoding.EncodeToString
	forms := []string{
		"AUTHORIZATION: basic " + b64([]byte("x-access-token:"+own.Token)),
		"auth: " + b64([]byte("x:"+own.Token)),
		"auth: " + b64([]byte("ab:"+own.Token+"\n")),
		"auth: " + b64([]byte(own.Token)),
		"jwt." + url([]byte(`{"t":"`+own.Token+`","u":1}`)) + ".sig",
		"hex " + hex.EncodeToString([]byte("k="+own.Token)),
		"HEX " + strings.ToUpper(hex.EncodeToString([]byte(own.Token))),
	}
	for _, form := range forms {
		out, hits := redactAll(t, g, "a\n"+form+"\nb\n")
		if len(hits) != 1 || hits[0].Rule != OwnTokenRule || hits[0].Line != 1 {
			t.Errorf("%q: hits %+v, want one of %s on line 1", form, hits, OwnTokenRule)
		}
		for _, run := range regexp.MustCompile(`[A-Za-z0-9+/_=-]{8,}`).FindAllString(out, -1) {
			for _, dec := range []func(string) ([]byte, error){base64.StdEncoding.DecodeString, base64.RawStdEncoding.DecodeString, base64.RawURLEncoding.DecodeString, hex.DecodeString} {
				if data, err := dec(strings.TrimRight(run, "=")); err == nil && bytes.Contains(data, []byte(own.Token[3:])) {
					t.Errorf("%q: the encoded token survives: %q", form, out)
				}
			}
		}
	}
	// nothing else is taken for it (basic-auth takes the header's
	// credentials, whatever they hold)
	text := "AUTHORIZATION: basic " + b64([]byte("x-access-token:ghs_other")) + "\nhex " + hex.EncodeToString([]byte("another value")) + "\n"
	out, hits := redactAll(t, g, text)
	for _, h := range hits {
		if h.Rule != "basic-auth" {
			t.Errorf("redacted text that holds no own token: %q", out)
		}
	}
}
