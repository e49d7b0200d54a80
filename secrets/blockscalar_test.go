package secrets

import (
	"strings"
	"testing"
)

// TestBlockScalars: a value on the line below its key (a YAML block
// scalar of one line) is redacted as it would be on the key's line; a
// block of several lines, and a value that is no credential, are left.
func TestBlockScalars(t *testing.T) {
	g := newGate(t, Options{})
	pw, tok := "Qm7xK2pL9v"+"R4wT8nZ", "Hk3pW9xQ2m"+"V7rT5nLq"
	for _, tt := range []struct{ text, secret string }{
		{"db:\n  user: app\n  password: |\n    " + pw + "\nredis:\n  port: 6379\n", pw},
		{"redis:\n  auth: >-\n\n    " + tok + "\n", tok},
		{"users:\n  - password: |-\n      " + pw + "\n", pw},
		{"smtp:\n  \"password\": |2\n      " + pw + "  \n", pw},
	} {
		red, hits := redactAll(t, g, tt.text)
		if strings.Contains(red, tt.secret) || len(hits) == 0 {
			t.Errorf("%q: redacted as %q, %+v", tt.text, red, hits)
		}
		if !strings.Contains(red, ": |") && !strings.Contains(red, ": >") {
			t.Errorf("%q: the key's line lost: %q", tt.text, red)
		}
	}
	for _, text := range []string{
		"description: |\n  Rotate the password every 90 days.\n",
		"password: |\n  " + pw + "\n  " + tok + "\n", // several lines: not one value
		"run: |\n  echo \"$TOKEN\" | docker login --password-stdin\n",
		"steps:\n  - name: |\n      Deploy\n",
	} {
		if red, hits := redactAll(t, g, text); red != text {
			t.Errorf("%q: redacted as %q (%+v)", text, red, hits)
		}
	}
}

// FuzzOneLineBlocks: a block's value is a line of the text, and the joined
// line ends with it.
func FuzzOneLineBlocks(f *testing.F) {
	f.Add("password: |\n  x\n")
	f.Add("- k: >-2\n\n      v  \r\nnext: 1\n")
	f.Fuzz(func(t *testing.T, text string) {
		for _, b := range oneLineBlocks(text) {
			value := b.joined[b.valueAt : len(b.joined)-1]
			if b.start < 0 || b.start+len(value) > len(text) || text[b.start:b.start+len(value)] != value {
				t.Fatalf("block %+v: its value is not the text's at %d (%q)", b, b.start, text)
			}
		}
	})
}
