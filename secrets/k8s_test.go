package secrets

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestKubernetesSecretData: every value of a Secret's data and stringData
// is redacted, not the first alone, in each document that is a Secret;
// the lines from kind to data stay readable, and so do other documents,
// templates and empty values.
func TestKubernetesSecretData(t *testing.T) {
	g := newGate(t, Options{})
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	values := []string{b64("administrator"), b64("m9xQv4Lpr7KzWb2Nc1Hf"), b64("Z7pN3cQ8xV2mRj9kL1wB0q"), "plain-Tq8xV2mRj9kL", "line1-Kz7pN3cQ8x", "line2-Vm2Rj9kL1w"}
	text := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: production\n---\n" +
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n" +
		"  username: " + values[0] + "\n  session: " + values[1] + "\n  # a comment\n\n  \"signing\": '" + values[2] + "'\n" +
		"  empty: \"\"\n  templated: {{ .Values.token | b64enc }}\n" +
		"stringData:\n  plain: " + values[3] + "\n  config.ini: |\n    " + values[4] + "\n    " + values[5] + "\n" +
		"immutable: true\n"
	red, hits := redactAll(t, g, text)
	for i, v := range values {
		if strings.Contains(red, v) {
			t.Errorf("value %d survives:\n%s", i, red)
		}
	}
	for _, keep := range []string{"kind: ConfigMap", "mode: production", "kind: Secret", "  name: app", "type: Opaque", "data:", "  session: [REDACTED:",
		`  "signing": '[REDACTED:`, `  empty: ""`, "{{ .Values.token | b64enc }}", "stringData:", "  config.ini: |", "immutable: true"} {
		if !strings.Contains(red, keep) {
			t.Errorf("lost %q:\n%s", keep, red)
		}
	}
	if n := len(hitLines(hits, kubernetesSecret)); n != len(values) {
		t.Errorf("%d hits of %s, want one a value (%d): %+v", n, kubernetesSecret, len(values), hits)
	}

	// without the rule finding a Secret, nothing is read as one
	noSecret := "kind: Deployment\nspec:\n  data:\n    mode: " + values[3] + "\n"
	if red, _ := redactAll(t, g, noSecret); red != noSecret {
		t.Errorf("a Deployment redacted: %q", red)
	}
}

// TestNeedsWhole: a text holding a Secret with data is scanned whole.
func TestNeedsWhole(t *testing.T) {
	for text, want := range map[string]bool{
		"kind: Secret\ndata:\n  a: b\n":                        true,
		"---\nkind: Service\n---\nkind: Secret\nstringData:\n": true,
		"kind: Secret\nmetadata:\n  name: x\n":                 false,
		"kind: ConfigMap\ndata:\n  a: b\n":                     false,
		"# see the Secret kind: docs\ndata:\n":                 false,
	} {
		if got := NeedsWhole(text); got != want {
			t.Errorf("NeedsWhole(%q) = %v, want %v", text, got, want)
		}
	}
}

// FuzzSecretValues: whatever the text, the values found are spans of it
// that hold what they say, never empty, never a placeholder; a text said
// to need no whole scan holds none; and mayHoldSecret never says no where
// a document says kind: Secret.
func FuzzSecretValues(f *testing.F) {
	f.Add("kind: Secret\ndata:\n  a: YWJj\n  b: |\n    x\n")
	f.Add("---\nkind: 'secret'\nstringData:\n\t\"k\": \"v\"\n---\ndata:\n")
	f.Add("kind: Secret\r\ndata:\r\n  a: b\r\n")
	f.Fuzz(func(t *testing.T, text string) {
		values := secretValues(text)
		for _, v := range values {
			if v.start < 0 || v.end > len(text) || v.start >= v.end || text[v.start:v.end] != v.secret {
				t.Fatalf("value %+v out of %q", v, text)
			}
			if strings.Contains(v.secret, "[REDACTED:") {
				t.Fatalf("a placeholder taken for a value: %q", v.secret)
			}
		}
		if len(values) > 0 && !NeedsWhole(text) {
			t.Fatalf("values found in %q, which needs no whole scan", text)
		}
		held := false
		for _, d := range yamlDocuments(text) {
			held = held || d.holds(secretKind)
		}
		if held != mayHoldSecret(text) {
			t.Fatalf("mayHoldSecret(%q) = %v, documents say %v", text, !held, held)
		}
	})
}
