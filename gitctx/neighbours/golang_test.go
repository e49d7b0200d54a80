package neighbours

import (
	"testing"
)

func TestParseGo(t *testing.T) {
	src := `package config

import (
	"fmt"
	str "strings"
	"example.com/shop/util"
	_ "embed"
)

type Config struct{ Name string }

type (
	Alias = int
	Gen[T any] struct{ v T }
)

var Default, other = 1, 2

const Max = 3

func Load() (*Config, error) { return nil, nil }

func (c *Config) Save() error { return nil }

func (g Gen[T]) Run() {}

func use() {
	fmt.Println(util.Helper(), str.ToUpper("x"), util.Name)
	var x struct{ Y func() }
	x.Y()
}
`
	g := parseGo("config/config.go", []byte(src))
	if g == nil {
		t.Fatal("parseGo returned nil for a valid file")
	}
	for _, name := range []string{"Config", "Alias", "Gen", "Default", "other", "Max", "Load", "Save", "Run", "use"} {
		if !g.defines[name] {
			t.Errorf("parseGo: %s not among the names defined: %v", name, g.defines)
		}
	}
	for _, name := range []string{"Name", "Helper", "fmt", "x", "Y", "c", "T"} {
		if g.defines[name] {
			t.Errorf("parseGo: %s is not a top-level name, got defines %v", name, g.defines)
		}
	}
	checkEqual(t, "uses", g.uses, map[string]map[string]bool{
		"fmt":                   {"Println": true},
		"strings":               {"ToUpper": true},
		"example.com/shop/util": {"Helper": true, "Name": true},
	})
	checkEqual(t, "imports", g.imports, []string{"fmt", "strings", "example.com/shop/util", "embed"})
}

// TestParseGoBroken: a file with syntax errors still yields what was read.
func TestParseGoBroken(t *testing.T) {
	g := parseGo("a.go", []byte("package a\n\nimport \"example.com/x\"\n\nfunc A() { x.Do( }\n"))
	if g == nil {
		return // nothing read is acceptable too
	}
	checkEqual(t, "imports", g.imports, []string{"example.com/x"})
}

func TestRecvType(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"func (s S) M() {}", "S"},
		{"func (s *S) M() {}", "S"},
		{"func (s G[T]) M() {}", "G"},
		{"func (s *G[K, V]) M() {}", "G"},
	} {
		g := parseGo("a.go", []byte("package a\n"+tc.src+"\n"))
		if g == nil || !g.defines[tc.want] {
			t.Errorf("parseGo(%q): receiver type %s not defined: %+v", tc.src, tc.want, g)
		}
	}
}

func TestSharesName(t *testing.T) {
	defs := map[string]bool{"Total": true, "Discount": true}
	for _, tc := range []struct {
		names map[string]bool
		want  bool
	}{
		{map[string]bool{"Total": true}, true},
		{map[string]bool{"Other": true, "Discount": true}, true},
		{map[string]bool{"Other": true}, false},
		{nil, false},
	} {
		if got := sharesName(defs, tc.names); got != tc.want {
			t.Errorf("sharesName(%v, %v) = %v, want %v", defs, tc.names, got, tc.want)
		}
	}
}
