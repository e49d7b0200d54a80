package neighbours

import (
	"regexp"
	"slices"
	"testing"
)

// jsImportOne is the single pattern jsImports replaced (see jsForms): the
// specification its results are held to, as sets.
var jsImportOne = regexp.MustCompile(`(?m)(?:^|[^\w$.])(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[^\w$.])import\s*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)|\bimport\(\s*['"]([^'"]+)['"]\s*\)`)

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

func jsReference(head []byte) []string {
	return groups(jsImportOne, head, "")
}

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
