package main

import (
	"os"
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

// TestResolvesInside: a path inside the repository, as far as its links
// lead; a directory committed as a link to elsewhere carries a path out.
func TestResolvesInside(t *testing.T) {
	root, out := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(root, "away")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"review.md", true},
		{"sub/review.md", true},
		{"new/dir/review.md", true},
		{"away/.bashrc", false},
		{"away", false},
		{"away/new/x.sarif", false},
	} {
		if got := resolvesInside(root, tt.path); got != tt.want {
			t.Errorf("resolvesInside(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
