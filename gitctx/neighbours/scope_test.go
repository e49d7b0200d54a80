package neighbours

import (
	"slices"
	"testing"
)

func TestScopeOf(t *testing.T) {
	tests := []struct {
		name  string
		langs map[string]bool
		has   []string // suffixes the scope holds
		lacks []string // suffixes it does not
	}{
		{"no names", nil, nil, nil},
		{"go", map[string]bool{"go": true}, []string{".go", ".md", ".rst", ".tmpl", ".proto", "CHANGES"}, []string{".json", ".tf", ".py", ".js"}},
		{"go and js", map[string]bool{"go": true, "js": true}, []string{".go", ".ts", ".html", ".md"}, []string{".json", ".py"}},
		{"python", map[string]bool{"python": true}, []string{".py", ".pyi", ".html", ".toml", ".txt"}, []string{".go", ".json"}},
		{"an unknown language", map[string]bool{"go": true, "": true}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scopeOf(tt.langs)
			if tt.has == nil && got != nil {
				t.Fatalf("scopeOf = %q, want nil (every file)", got)
			}
			for _, s := range tt.has {
				if !slices.Contains(got, s) {
					t.Errorf("scopeOf = %q, lacks %s", got, s)
				}
			}
			for _, s := range tt.lacks {
				if slices.Contains(got, s) {
					t.Errorf("scopeOf = %q, holds %s", got, s)
				}
			}
			if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
				t.Errorf("scopeOf = %q: not sorted and unique", got)
			}
		})
	}
}

// TestFindReferencesInScope: the names of a Go change are searched in
// Go code and prose, not in data: a JSON fixture that names the changed
// function is no neighbour, the Markdown that does is. A change in a
// language the scope does not know searches every file.
func TestFindReferencesInScope(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"go.mod":              "module example.com/m\n\ngo 1.22\n",
		"ship/ship.go":        "package ship\n\nfunc ComputeShipping(w int) int {\n\treturn w * 2\n}\n",
		"docs/usage.md":       "Call ComputeShipping with a weight.\n",
		"testdata/cases.json": "{\"call\": \"ComputeShipping\"}\n",
		"conf/pricing.conf":   "handler = ComputeShipping\n",
	})
	r.WriteAll(map[string]string{"ship/ship.go": "package ship\n\nfunc ComputeShipping(w, rate int) int {\n\treturn w * rate\n}\n"})
	r.Commit("rate")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	if n := neighbour(t, ns, "docs/usage.md"); !hasReason(n, "ComputeShipping") || !slices.Equal(n.Names, []string{"ComputeShipping"}) {
		t.Errorf("usage.md is not found by the name, or does not keep it for its excerpt: %+v", n)
	}
	for _, p := range []string{"testdata/cases.json", "conf/pricing.conf"} {
		for _, n := range ns {
			if n.Path == p && hasReason(n, "it names ComputeShipping") {
				t.Errorf("%s found by the name: %q", p, n.Reasons)
			}
		}
	}

	// a change to a file of no language nameScope knows: its names are
	// searched for everywhere
	r.commitEach(map[string]string{"tool/rules.star": "def load_pricing_rules():\n    pass\n"})
	r.WriteAll(map[string]string{"conf/pricing.conf": "handler = ComputeShipping\nrules = load_pricing_rules\n"})
	r.Commit("rules")
	ns, _ = find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	if !hasReason(neighbour(t, ns, "tool/rules.star"), "load_pricing_rules") {
		t.Errorf("rules.star is not found by the name it defines")
	}
}

// TestFindDefinitionsByAssignment: a JavaScript change that calls a
// function defined by assignment (`res.sendFile = function`, `exports.x
// =`) finds the file defining it.
func TestFindDefinitionsByAssignment(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"lib/response.js": "var res = module.exports = {}\n\nres.sendAttachment = function sendAttachment(path) {\n  return path\n}\n",
		"lib/utils.js":    "exports.normalizeMimeType = function (type) {\n  return type\n}\n",
		"lib/other.js":    "module.exports = 1\n",
		"app.js":          "var x = 1\n",
	})
	r.WriteAll(map[string]string{"app.js": "var x = res.sendAttachment(normalizeMimeType('a'))\n"})
	r.Commit("send")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	if !hasReason(neighbour(t, ns, "lib/response.js"), "it defines sendAttachment") {
		t.Errorf("response.js is not found as the definition of sendAttachment")
	}
	if !hasReason(neighbour(t, ns, "lib/utils.js"), "it defines normalizeMimeType") {
		t.Errorf("utils.js is not found as the definition of normalizeMimeType")
	}
	for p, want := range map[string]string{"lib/response.js": "sendAttachment", "lib/utils.js": "normalizeMimeType"} {
		if n := neighbour(t, ns, p); !slices.Equal(n.Names, []string{want}) {
			t.Errorf("%s keeps the names %q for its excerpt, want %q", p, n.Names, want)
		}
	}
}

// TestFindDefinitionsWithModifiers: a Java change that calls a static
// method finds the class declared with modifiers, and a C# change
// naming a sealed class the file that declares it; a changed Kotlin fun
// brings the files that call it.
func TestFindDefinitionsWithModifiers(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"src/main/java/acme/StringUtils.java": "package acme;\n\npublic final class StringUtils {\n  public static String joinAll(String... parts) {\n    return \"\";\n  }\n}\n",
		"src/main/java/acme/App.java":         "package acme;\n\nclass App {\n}\n",
		"src/Acme/LoggerSettings.cs":          "namespace Acme;\n\npublic sealed class LoggerSettings\n{\n}\n",
		"src/Acme/Program.cs":                 "namespace Acme;\n\nstatic class Program\n{\n}\n",
		"app/src/main/kotlin/Prices.kt":       "package app\n\nfun roundPrice(x: Double): Double = x\n",
		"app/src/main/kotlin/Cart.kt":         "package app\n\nval total = roundPrice(1.0)\n",
	})
	r.WriteAll(map[string]string{
		"src/main/java/acme/App.java":   "package acme;\n\nclass App {\n  String s = StringUtils.joinAll(\"a\");\n}\n",
		"src/Acme/Program.cs":           "namespace Acme;\n\nstatic class Program\n{\n  static LoggerSettings settings = new();\n}\n",
		"app/src/main/kotlin/Prices.kt": "package app\n\nfun roundPrice(x: Double): Double = Math.round(x).toDouble()\n",
	})
	r.Commit("use")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	wantReasons(t, ns, map[string]string{
		"src/main/java/acme/StringUtils.java": "it defines StringUtils",
		"src/Acme/LoggerSettings.cs":          "it defines LoggerSettings",
		"app/src/main/kotlin/Cart.kt":         "it names roundPrice",
	})
}
