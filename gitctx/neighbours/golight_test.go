package neighbours

import (
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
