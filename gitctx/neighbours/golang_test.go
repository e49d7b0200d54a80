package neighbours

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strconv"
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

func TestSharedNames(t *testing.T) {
	defs := map[string]bool{"Total": true, "Discount": true, "Apply": true}
	for _, tc := range []struct {
		names map[string]bool
		want  []string
	}{
		{map[string]bool{"Total": true}, []string{"Total"}},
		{map[string]bool{"Other": true, "Discount": true, "Apply": true}, []string{"Apply", "Discount"}},
		{map[string]bool{"Other": true}, nil},
		{nil, nil},
	} {
		if got := sharedNames(defs, tc.names); !slices.Equal(got, tc.want) {
			t.Errorf("sharedNames(%v, %v) = %q, want %q", defs, tc.names, got, tc.want)
		}
	}
}

// parseGo reads what a Go file defines and what it uses of each import
// from its syntax tree: the reference scanGo is held to.
func parseGo(name string, src []byte) *goFile {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil && f == nil {
		return nil
	}
	g := &goFile{pkg: f.Name.Name, defines: map[string]bool{}, uses: map[string]map[string]bool{},
		selectors: map[string]map[string]bool{}, named: map[string]bool{}}
	local := map[string]string{} // package name in this file → import path
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		g.imports = append(g.imports, p)
		n := path.Base(p)
		if imp.Name != nil {
			n = imp.Name.Name
			g.named[p] = true
		}
		local[n] = p
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			g.defines[d.Name.Name] = true
			if d.Recv != nil && len(d.Recv.List) == 1 {
				g.defines[recvType(d.Recv.List[0].Type)] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					g.defines[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						g.defines[n.Name] = true
					}
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok {
			if g.selectors[id.Name] == nil {
				g.selectors[id.Name] = map[string]bool{}
			}
			g.selectors[id.Name][sel.Sel.Name] = true
			if p, ok := local[id.Name]; ok {
				if g.uses[p] == nil {
					g.uses[p] = map[string]bool{}
				}
				g.uses[p][sel.Sel.Name] = true
			}
		}
		return true
	})
	return g
}

func recvType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}
