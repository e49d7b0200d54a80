package neighbours

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

var jsImportCases = []string{
	"import a from './a'\nimport { b, c } from \"../b\"\nexport * from './c'\n",
	"import './side-effect.css'\nconst x = require( './x' )\nconst y = await import('./y')\n",
	"import {\n  a,\n  b,\n} from './multi'\n",
	"x.import('./no') + $import('./no2') + my_require('./no3') + xrequire('./no4')\n",
	"$import a\nimport b from 'c'\n",
	"foo.import a from 'no'; import d from 'e'\n",
	"import type { T } from './types'\nexport { default as Z } from './z'\n",
	"const s = \"import x from 'in-string'\"; // import y from 'in-comment'\n",
	"import x = require('./ts-style')\n",
	"import a, * as b from \"./ab\"; import('./dyn').then(m => m)\n",
}

// jsReference is what jsImports must answer.
func jsReference(head []byte) []string { return groups(jsImportOne, head, "") }

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// TestJSImportsMatchTheOnePattern: the forms find what the one pattern
// found.
func TestJSImportsMatchTheOnePattern(t *testing.T) {
	for _, src := range jsImportCases {
		if got, want := jsImports([]byte(src)), jsReference([]byte(src)); !sameSet(got, want) {
			t.Errorf("jsImports(%q) = %q, want %q", src, got, want)
		}
	}
}

func FuzzJSImports(f *testing.F) {
	for _, src := range jsImportCases {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if got, want := jsImports([]byte(src)), jsReference([]byte(src)); !sameSet(got, want) {
			t.Errorf("jsImports(%q) = %q, want %q", src, got, want)
		}
	})
}

// hostileJS makes every search of the first forms read to its end: each
// ".export" starts a match that is not an import, and all of them end at
// the one "from" at the end.
func hostileJS() []byte {
	return []byte(strings.Repeat(".export x ", 6500) + "from 'y'\n")
}

// ordinaryJS is the head of a long module: imports, then code.
func ordinaryJS() []byte {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "import { a%d, b%d } from './mod%d'\n", i, i, i)
	}
	b.WriteString("const lazy = () => import('./lazy')\nconst cjs = require('./cjs')\n")
	for b.Len() < headBytes {
		b.WriteString("export function handle(req, res) { return res.send(req.params.id ?? 'none'); }\n")
	}
	return []byte(b.String())
}

// TestJSImportsBounded: the forms' searches stay within their work budget
// on an ordinary module, and a hostile one runs it out (jsImports then
// falls back to jsImportOne, whose time is linear); the answer is
// jsImportOne's either way.
func TestJSImportsBounded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		head   []byte
		within bool
	}{
		{"ordinary", ordinaryJS(), true},
		{"hostile", hostileJS(), false},
	} {
		_, ok := jsImportsWithin(tc.head, jsWork*len(tc.head)+4096)
		if ok != tc.within {
			t.Errorf("%s: within budget = %v, want %v", tc.name, ok, tc.within)
		}
		if got, want := jsImports(tc.head), jsReference(tc.head); !sameSet(got, want) {
			t.Errorf("%s: jsImports = %q, want %q", tc.name, got, want)
		}
	}
}

func BenchmarkJSImports(b *testing.B) {
	for _, bc := range []struct {
		name string
		head []byte
	}{{"ordinary", ordinaryJS()}, {"hostile", hostileJS()}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.head)))
			for b.Loop() {
				jsImports(bc.head)
			}
		})
	}
}
