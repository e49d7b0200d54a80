package neighbours

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const lightSrc = `package config

import (
	"fmt"
	str "strings"
	"example.com/shop/util"
	v2 "example.com/shop/v2"
	_ "embed"
)

type Config struct{ Name string }

type (
	Alias = int
	Gen[T any] struct{ v T }
)

var Default, other = 1, 2

const Max = 3

const (
	A = iota
	B
)

func Load() (*Config, error) { return nil, nil }

func (c *Config) Save() error { return nil }

func (g Gen[T]) Run() {}

func use() {
	fmt.Println(util.Helper(), str.ToUpper("x"), util.Name, v2.Start())
	// notutil.Fake() and xutil.Other are other names
	var x struct{ Y func() }
	x.Y()
}
`

// TestLightGoAgreesWithParser: the light reading finds the names that the
// full parse finds, on this file and on this package's Go files.
func TestLightGoAgreesWithParser(t *testing.T) {
	check := func(name string, src []byte) {
		full, light := parseGo(name, src), lightGo(name, src)
		if full == nil || light == nil {
			t.Fatalf("%s: parseGo %v, lightGo %v", name, full != nil, light != nil)
		}
		for n := range full.defines {
			if !light.defines[n] {
				t.Errorf("%s: lightGo misses the top-level name %s", name, n)
			}
		}
		for n := range light.defines {
			// a test holds Go source in strings, which a line scan reads as declarations
			if !full.defines[n] && !strings.HasSuffix(name, "_test.go") {
				t.Errorf("%s: lightGo invents the top-level name %s", name, n)
			}
		}
		checkEqual(t, name+" imports", light.imports, full.imports)
	}
	check("config.go", []byte(lightSrc))
	files, _ := filepath.Glob("*.go")
	if len(files) < 5 {
		t.Fatalf("want this package's Go files, found %d", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(f, src)
	}
}

func TestLightGoUses(t *testing.T) {
	g := lightGo("config.go", []byte(lightSrc))
	for _, tc := range []struct {
		imp, pkg string
		want     map[string]bool
	}{
		{"example.com/shop/util", "util", map[string]bool{"Helper": true, "Name": true}},
		{"example.com/shop/util", "", map[string]bool{"Helper": true, "Name": true}}, // the path's last element
		{"strings", "strings", map[string]bool{"ToUpper": true}},                     // by its alias
		{"example.com/shop/v2", "shop", map[string]bool{"Start": true}},
		{"embed", "embed", nil}, // imported for its side effects
		{"os", "os", nil},       // not imported
	} {
		got := g.usesOf(tc.imp, tc.pkg)
		if len(got) == 0 && len(tc.want) == 0 {
			continue
		}
		checkEqual(t, "usesOf("+tc.imp+")", got, tc.want)
	}
}

// topLevelNamesBySplit is topLevelNames as first written, every line made
// a string: the answer the faster one must give.
func topLevelNamesBySplit(src []byte) map[string]bool {
	names := map[string]bool{}
	block := false
	for _, line := range bytes.Split(src, []byte{'\n'}) {
		s := strings.TrimRight(string(line), " \t\r")
		if block {
			if s == ")" {
				block = false
			} else if rest, ok := strings.CutPrefix(s, "\t"); ok {
				for _, n := range leadingNames(rest) {
					names[n] = true
				}
			}
			continue
		}
		kw, rest, _ := strings.Cut(s, " ")
		switch kw {
		case "func":
			if strings.HasPrefix(rest, "(") {
				recv, after, ok := strings.Cut(rest[1:], ")")
				if !ok {
					continue
				}
				if t := receiverType(recv); t != "" {
					names[t] = true
				}
				rest = strings.TrimSpace(after)
			}
			if n := ident(rest); n != "" {
				names[n] = true
			}
		case "type", "var", "const":
			if rest == "(" {
				block = true
				continue
			}
			for _, n := range leadingNames(rest) {
				names[n] = true
			}
		}
	}
	return names
}

// TestTopLevelNames: the declarations that start a line, in a block or
// not, with CRLF line ends too; and the same answer as reading every line
// as a string, on every Go file of this module.
func TestTopLevelNames(t *testing.T) {
	src := "package p\r\n\r\nconst (\r\n\tA, B = 1, 2\r\n\t_ = 3\r\n)\r\n\r\n" +
		"type (\n\tT struct{}\n\tU[K any] int\n)\nvar x, y int\n" +
		"func (s *Server[T]) Serve() {}\nfunc Free() {\n\tvar inner int\n}\n" +
		"func\nfunctional := 1\n    func notTop() {}\n"
	got := topLevelNames([]byte(src))
	want := map[string]bool{"A": true, "B": true, "T": true, "U": true, "x": true, "y": true, "Server": true, "Serve": true, "Free": true}
	if !maps.Equal(got, want) {
		t.Errorf("topLevelNames = %v, want %v", got, want)
	}
	files := 0
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		if got, want := topLevelNames(data), topLevelNamesBySplit(data); !maps.Equal(got, want) {
			t.Errorf("%s: %v, want %v", p, got, want)
		}
		return nil
	})
	if err != nil || files < 100 {
		t.Fatalf("read %d Go files of the module: %v", files, err)
	}
}

func BenchmarkTopLevelNames(b *testing.B) {
	data, err := os.ReadFile("golight.go")
	if err != nil {
		b.Fatal(err)
	}
	src := bytes.Repeat(data, 20)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		topLevelNames(src)
	}
}
