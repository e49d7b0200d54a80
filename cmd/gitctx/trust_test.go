package main

import (
	"path/filepath"
	"testing"
)

func TestStaysInside(t *testing.T) {
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"review", true},
		{".gitctx/out", true},
		{"a/../b", true},
		{"./x", true},
		{"..", false},
		{"../out", false},
		{"a/../../out", false},
		{"/tmp/out", false},
		{"~/.bashrc", false},
		{filepath.Join("a", "..", "..", "b"), false},
	} {
		if got := staysInside(tt.path); got != tt.want {
			t.Errorf("staysInside(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

// TestFileDigest: the digest names the file's place and its bytes, so a
// change to either needs trusting again.
func TestFileDigest(t *testing.T) {
	a := fileDigest("/r/.gitctx.yml", []byte("context_cmd: x\n"))
	for _, other := range []string{
		fileDigest("/r/.gitctx.yml", []byte("context_cmd: y\n")),
		fileDigest("/s/.gitctx.yml", []byte("context_cmd: x\n")),
	} {
		if other == a {
			t.Errorf("two files share the digest %s", a)
		}
	}
	if again := fileDigest("/r/.gitctx.yml", []byte("context_cmd: x\n")); again != a {
		t.Errorf("the digest of one file changed: %s, %s", a, again)
	}
}
