package neighbours

import (
	"encoding/json"
	"testing"
)

func TestStandardJSON(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", `{"a": [1, 2]}`, `{"a": [1, 2]}`},
		{"line comment", "{\"a\": 1 // one\n}", "{\"a\": 1 \n}"},
		{"block comment", `{/* c */"a": 1}`, `{ "a": 1}`},
		{"trailing commas", `{"a": [1, 2,], "b": 3,}`, `{"a": [1, 2 ], "b": 3 }`},
		{"trailing comma before a comment", "{\"a\": 1, // last\n}", "{\"a\": 1  \n}"},
		{"slashes in a string", `{"a": "http://x/*y*/"}`, `{"a": "http://x/*y*/"}`},
		{"escaped quote", `{"a": "say \"//\"", "b": 1,}`, `{"a": "say \"//\"", "b": 1 }`},
		{"comma in a string", `{"a": ",}"}`, `{"a": ",}"}`},
		{"unterminated comment", `{"a": 1 /* no end`, `{"a": 1 `},
		{"unterminated string", `{"a": "no end`, `{"a": "no end`},
		{"backslash at the end", `"\`, `"\`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(standardJSON([]byte(tc.in))); got != tc.want {
				t.Errorf("standardJSON(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzStandardJSON: any input is read without a panic, and JSON that is
// already standard comes back unchanged (it has no comments, and no
// trailing commas).
func FuzzStandardJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2,]}`, "{\"a\": 1 // c\n}", `{"a": "/*"}`, `"\"`, `[1,]`, `/*`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := standardJSON([]byte(s))
		if json.Valid([]byte(s)) && string(got) != s {
			t.Errorf("standardJSON(%q) = %q, want it unchanged", s, got)
		}
	})
}

func TestResolveTSAliases(t *testing.T) {
	r := newTestResolver(t, []string{
		"web/src/util.ts",
		"web/src/button.tsx",
		"web/src/lib/index.ts",
		"web/src/app.ts",
		"web/admin/x.ts",
		"web/admin/app/page.ts",
		"other/app.ts",
		"other/src/util.ts",
		"mono/packages/ui/src/index.ts",
		"mono/packages/app/src/main.ts",
		"mono/packages/lib/src/x.ts",
		"mono/packages/lib/src/y.ts",
	}, nil)
	r.addTSConfig("web/tsconfig.json", []byte(`{
		// paths from the project's root
		"compilerOptions": {
			"baseUrl": ".",
			"paths": {
				"@/*": ["./src/*"],
				"@lib": ["./src/lib/index.ts"],
				"~/*": ["./missing/*", "./src/*"], /* the first that exists */
			},
		},
	}`))
	r.addTSConfig("web/admin/tsconfig.json", []byte(`{"compilerOptions": {"paths": {"@/*": ["app/*"]}}}`))
	r.addTSConfig("other/tsconfig.json", []byte(`{"extends": "../tsconfig.base.json"}`))
	r.addTSConfig("broken/tsconfig.json", []byte(`{"compilerOptions": `))
	r.addTSConfig("cycle/tsconfig.json", []byte(`{"extends": "./tsconfig.json"}`))
	// a monorepo: the projects extend the root's base config
	r.addTSConfig("mono/tsconfig.base.json", []byte(`{"compilerOptions": {"baseUrl": ".", "paths": {"@mono/*": ["packages/*/src"]}}}`))
	r.addTSConfig("mono/packages/app/tsconfig.json", []byte(`{"extends": "../../tsconfig.base.json"}`))
	r.addTSConfig("mono/packages/lib/tsconfig.json", []byte(`{"extends": "../../tsconfig.base", "compilerOptions": {"paths": {"#/*": ["./src/*"]}}}`))
	r.linkTSConfigs()
	runResolveCases(t, r, []resolveCase{
		{"star alias", "web/src/app.ts", "@/util", []string{"web/src/util.ts"}},
		{"exact alias", "web/src/app.ts", "@lib", []string{"web/src/lib/index.ts"}},
		{"second target", "web/src/app.ts", "~/button", []string{"web/src/button.tsx"}},
		{"baseUrl", "web/src/app.ts", "src/util", []string{"web/src/util.ts"}},
		{"package", "web/src/app.ts", "react", nil},
		{"node builtin", "web/src/app.ts", "node:fs", nil},
		{"nearest config", "web/admin/x.ts", "@/page", []string{"web/admin/app/page.ts"}},
		{"config without paths", "other/app.ts", "src/util", nil},
		{"no config", "elsewhere.ts", "@/util", nil},
		{"paths of the extended config", "mono/packages/app/src/main.ts", "@mono/ui", []string{"mono/packages/ui/src/index.ts"}},
		{"own paths over the extended ones", "mono/packages/lib/src/x.ts", "#/y", []string{"mono/packages/lib/src/y.ts"}},
		{"extended paths overridden", "mono/packages/lib/src/x.ts", "@mono/ui", nil},
		{"extends itself", "cycle/a.ts", "@/util", nil},
	})
}

// TestFindTSAlias: a file that imports a changed file through a path
// alias of tsconfig.json is its importer.
func TestFindTSAlias(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"tsconfig.json":      "{\n  // Next.js\n  \"compilerOptions\": {\"paths\": {\"@/*\": [\"./src/*\"],},},\n}\n",
		"src/lib/db.ts":      "export const db = 1\n",
		"src/app/page.ts":    "import { db } from '@/lib/db'\nexport const page = db\n",
		"src/app/other.ts":   "export const other = 2\n",
		"src/app/plain.ts":   "import { other } from './other'\n",
		"src/lib/unused.ts":  "export const unused = 3\n",
		"src/lib/another.ts": "export const another = 4\n",
	})
	r.WriteAll(map[string]string{"src/lib/db.ts": "export const db = 2\n"})
	ns, _ := find(t, r.selectWorktree(), Options{Max: 50})
	page := neighbour(t, ns, "src/app/page.ts")
	if !hasReason(page, "it imports src/lib/db.ts") {
		t.Errorf("page.ts reasons %q do not say it imports db.ts", page.Reasons)
	}
	absent(t, ns, "src/app/plain.ts")
}
