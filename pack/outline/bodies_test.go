package outline

import (
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eachGoFile calls fn with every Go file of this module and, unless
// -short, of a few large directories of Go's own source.
func eachGoFile(t *testing.T, fn func(path, src string)) {
	t.Helper()
	roots := []string{"../.."}
	if !testing.Short() {
		src := filepath.Join(build.Default.GOROOT, "src")
		for _, dir := range []string{"go", "net", "encoding", "runtime", "cmd/compile/internal/types2", "cmd/go"} {
			roots = append(roots, filepath.Join(src, dir))
		}
	}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
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

// TestWithoutBodiesKeepsOutlines: on every Go file that parses, the
// outline of the file with its bodies blanked is the outline of the file.
func TestWithoutBodiesKeepsOutlines(t *testing.T) {
	files, blanked := 0, 0
	eachGoFile(t, func(p, src string) {
		if _, err := parser.ParseFile(token.NewFileSet(), p, src, parser.SkipObjectResolution); err != nil {
			return
		}
		files++
		bare := WithoutBodies(src)
		if len(bare) != len(src) || strings.Count(bare, "\n") != strings.Count(src, "\n") {
			t.Fatalf("%s: blanking moved bytes or lines", p)
		}
		if bare != src {
			blanked++
		}
		want, wantOK := outlineParsed(p, src)
		got, gotOK := goOutline(p, src)
		if got != want || gotOK != wantOK {
			t.Errorf("%s: the outline without bodies differs (%v, want %v):\n%s", p, gotOK, wantOK, firstDiff(got, want))
		}
	})
	if files < 100 || blanked < files/2 {
		t.Fatalf("%d Go files compared, %d of them with bodies blanked", files, blanked)
	}
	t.Logf("%d files, %d with bodies blanked", files, blanked)
}

// TestWithoutBodies: what is blanked, and what is not. body is the text
// blanked ("": none).
func TestWithoutBodies(t *testing.T) {
	for _, c := range []struct{ name, src, body string }{
		{"a body", "package p\n\nfunc f() {\n\tx := 1\n}\n", "\n\tx := 1\n"},
		{"a result type with braces", "package p\nfunc f() struct{ a int } { return struct{ a int }{} }\n", " return struct{ a int }{} "},
		{"an interface result", "package p\nfunc f() interface{ M() } { return nil }\n", " return nil "},
		{"a type parameter constraint", "package p\nfunc f[T interface{ ~int }](x T) { _ = x }\n", " _ = x "},
		{"braces in strings and comments", "package p\nfunc f() { s := \"}\"; r := '}'; /* } */ // }\n}\nvar v = T{1}\n",
			" s := \"}\"; r := '}'; /* } */ // }\n"},
		{"a function without a body, then a literal", "package p\nfunc asm()\nvar v = T{1}\n", ""},
		{"a var holding a function", "package p\nvar f = func() { g() }\n", ""},
		{"a method", "package p\nfunc (r *T) M(a []int) (int, error) { return 0, nil }\n", " return 0, nil "},
		{"a comment across lines ends a declaration", "package p\nfunc asm() /*\n*/ var v = T{1}\n", ""},
	} {
		want := c.src
		if c.body != "" {
			blank := []byte(c.body)
			for i, b := range blank {
				if b != '\n' {
					blank[i] = ' '
				}
			}
			want = strings.Replace(c.src, c.body, string(blank), 1)
		}
		if got := WithoutBodies(c.src); got != want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, want)
		}
	}
}

// FuzzWithoutBodies holds the outline of a file without its bodies to the
// outline of the file, on any text that parses, and checks that blanking
// never moves a byte.
func FuzzWithoutBodies(f *testing.F) {
	f.Add("package p\n\nfunc f() {\n\tx := 1\n}\n")
	f.Add("package p\nfunc f() struct{ a int } { return struct{ a int }{} }\nvar v = T{1}\n")
	f.Add("package p\n// doc\nfunc f[T interface{ ~int }](x T) (r T) { /* } */ return `}` }\nconst c = '}'\n")
	f.Fuzz(func(t *testing.T, src string) {
		bare := WithoutBodies(src)
		if len(bare) != len(src) || strings.Count(bare, "\n") != strings.Count(src, "\n") {
			t.Fatalf("blanking moved bytes or lines: %q -> %q", src, bare)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "f.go", src, parser.SkipObjectResolution); err != nil {
			return
		}
		want, wantOK := outlineParsed("f.go", src)
		got, gotOK := goOutline("f.go", src)
		if got != want || gotOK != wantOK {
			t.Fatalf("outline of %q without bodies:\n%q %v\nwant %q %v", src, got, gotOK, want, wantOK)
		}
	})
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return "line " + string(rune('0'+i%10)) + ":\n got " + g[i] + "\nwant " + w[i]
		}
	}
	return "lengths differ"
}
