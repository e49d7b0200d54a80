package secrets

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// encodings are the ways a credential is hidden that the gate decodes.
var encodings = []struct {
	name   string
	encode func(string) string
}{
	{"base64", func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }},
	{"base64url", func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }},
	{"base64 of base64", func(s string) string {
		return base64.StdEncoding.EncodeToString([]byte(base64.StdEncoding.EncodeToString([]byte(s))))
	}},
	{"hex", func(s string) string { return hex.EncodeToString([]byte(s)) }},
	{"percent", func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			fmt.Fprintf(&b, "%%%02X", s[i])
		}
		return b.String()
	}},
	{"hex of base64", func(s string) string { return hex.EncodeToString([]byte(base64.StdEncoding.EncodeToString([]byte(s)))) }},
}

// encoded is a fixture in an encoding: all of the encoded run is secret.
func encoded(f fixture, encode func(string) string) fixture {
	tok := encode(f.Token)
	random := make([]bool, len(tok))
	for i := range random {
		random[i] = true
	}
	return fixture{Rule: f.Rule, Token: tok, Random: random}
}

// TestEncoded: a credential base64-, hex- or percent-encoded (or twice)
// is found, and its whole encoded run is replaced; neither the encoded
// nor the decoded form survives.
func TestEncoded(t *testing.T) {
	rules := []string{"github-pat", "aws-access-token", "slack-bot-token", "stripe-access-token", "gitlab-pat", "anthropic-api-key", "npm-access-token", "private-key"}
	g := newGate(t, Options{})
	for _, rule := range rules {
		plain := fake(t, rule, "encoded")
		mustDetect(t, g, plain)
		for _, enc := range encodings {
			t.Run(rule+"/"+enc.name, func(t *testing.T) {
				e := encoded(plain, enc.encode)
				text := "apiVersion: v1\ndata:\n  value: " + e.Token + "\n  other: plain\n"
				spans, err := g.Scan(context.Background(), text)
				if err != nil {
					t.Fatal(err)
				}
				red, hits := Redact(text, spans)
				out := red.String()
				want := "apiVersion: v1\ndata:\n  value: [REDACTED:" + rule + "#"
				if !strings.HasPrefix(out, want) || !strings.HasSuffix(out, "]\n  other: plain\n") {
					t.Errorf("redacted to %q, want the encoded run replaced by a %s placeholder", out, rule)
				}
				if frag := e.Leak(out, 8); frag != "" {
					t.Errorf("a fragment of the encoded run survives: %q", out)
				}
				if frag := plain.Leak(out, 8); frag != "" {
					t.Errorf("a fragment of the decoded credential survives: %q", out)
				}
				if len(hits) != 1 || hits[0].Line != 2 || hits[0].Rule != rule {
					t.Errorf("hits = %+v, want one of %s on line 2", hits, rule)
				}
			})
		}
	}
}

// TestEncodedSamePlaceholder: a credential and its encoded form are one
// secret, with one placeholder.
func TestEncodedSamePlaceholder(t *testing.T) {
	g := newGate(t, Options{})
	f := fake(t, "github-pat", "same")
	text := "a: " + f.Token + "\nb: " + base64.StdEncoding.EncodeToString([]byte(f.Token)) + "\n"
	_, hits, err := g.RedactString(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].Placeholder != "[REDACTED:github-pat#1]" || hits[1].Placeholder != hits[0].Placeholder {
		t.Errorf("hits = %+v, want [REDACTED:github-pat#1] twice", hits)
	}
}

// TestEncodedInLongerRun: the encoded credential inside a longer base64
// run (a credential in a larger encoded document) takes the whole run.
func TestEncodedInLongerRun(t *testing.T) {
	g := newGate(t, Options{})
	f := fake(t, "github-pat", "doc")
	doc := "{\"registry\": \"ghcr.io\", \"auth\": \"" + f.Token + "\", \"email\": \"dev@example.com\"}"
	e := encoded(fixture{Rule: f.Rule, Token: doc}, func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) })
	text := ".dockerconfigjson: " + e.Token + "\n"
	red, _, err := g.RedactString(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	if frag := e.Leak(red.String(), 12); frag != "" {
		t.Errorf("part of the encoded document survives: %q", red)
	}
	if !strings.Contains(red.String(), "[REDACTED:github-pat#1]") {
		t.Errorf("redacted to %q, want [REDACTED:github-pat#1]", red)
	}
}
