package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/detect/codec"
)

// decodes reports whether gitleaks' first decoding round decodes
// something in text.
func decodes(text string) bool {
	_, segments := codec.NewDecoder().Decode(text, nil)
	return len(segments) > 0
}

func TestMayDecode(t *testing.T) {
	secret := "ghp_" + strings.Repeat("aB3", 12)
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"plain prose", "nothing here to decode, only words and a path like internal/command/views", false},
		{"long identifiers", "func TestApply_minimal_refresh_destroy(t *testing.T) { OperationRequestWithDetails() }", false},
		{"a Go import path", `import "github.com/hashicorp/terraform/internal/backend/backendrun"`, false},
		{"a commit id", "fixes 5c68683717eecffa9b88d575455d069a465470a6", false},
		{"base64", "value: " + base64.StdEncoding.EncodeToString([]byte(secret)), true},
		{"base64, padded", "v=" + base64.StdEncoding.EncodeToString([]byte(secret+"x")) + "\n", true},
		{"base64url", base64.RawURLEncoding.EncodeToString([]byte(secret + "?>")), true},
		{"hex", "h=" + hex.EncodeToString([]byte(secret)), true},
		{"hex in a longer run", hex.EncodeToString([]byte(secret)) + "xyz", true},
		{"percent", "p=%41%42", true},
		{"a format verb", `fmt.Sprintf("%02d", n)`, true}, // %02 is a percent escape to gitleaks
		{"unicode code point", "U+0041 U+0042", true},
		{"unicode escape", `"\u0041\u0042"`, true},
		{"unicode escape, upper", `"\U0041"`, true},
		{"empty", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mayDecode(tc.text); got != tc.want {
				t.Errorf("mayDecode(%q) = %v, want %v", tc.text, got, tc.want)
			}
			if !mayDecode(tc.text) && decodes(tc.text) {
				t.Errorf("gitleaks decodes %q, mayDecode says it cannot", tc.text)
			}
		})
	}
}

// TestMayDecodeRealFiles holds mayDecode to gitleaks' decoder on every
// file of the module, whole and line by line, and checks that it does
// tell most source files apart (else it saves nothing).
func TestMayDecodeRealFiles(t *testing.T) {
	files, plain := 0, 0
	eachRealFile(t, []string{".."}, func(p, text string) {
		files++
		if !mayDecode(text) {
			plain++
		}
		for _, piece := range append(strings.SplitAfter(text, "\n"), text) {
			if !mayDecode(piece) && decodes(piece) {
				t.Fatalf("%s: gitleaks decodes %.200q, mayDecode says it cannot", p, piece)
			}
		}
	})
	if files == 0 || plain < files/4 {
		t.Errorf("mayDecode ruled out %d of %d files, want at least a quarter", plain, files)
	}
}

// FuzzMayDecode: whatever gitleaks' first decoding round decodes,
// mayDecode must allow.
func FuzzMayDecode(f *testing.F) {
	for _, s := range []string{
		"", "%41", "%4", "U+00411", `\\u0041`, `\\\u0041`, "a/b+c-d_e0123456789==",
		hex.EncodeToString([]byte("0123456789abcdef0123")),
		base64.StdEncoding.EncodeToString([]byte("sk-live-0123456789")) + "==x",
		"deadbeefdeadbeefdeadbeefdeadbeef" + base64.StdEncoding.EncodeToString([]byte("token=1234567890")),
		"TestApply_minimal_refresh_destroy",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !mayDecode(text) && decodes(text) {
			t.Fatalf("gitleaks decodes %q, mayDecode says it cannot", text)
		}
	})
}

// eachRealFile calls fn with every file under the roots (of 1 MiB or
// less, outside .git).
func eachRealFile(t *testing.T, roots []string, fn func(path, text string)) {
	t.Helper()
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.Contains(p, "/.git/") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil || len(data) > 1<<20 {
				return err
			}
			fn(p, string(data))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
