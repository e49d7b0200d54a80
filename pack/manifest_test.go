package pack

import (
	"reflect"
	"testing"
)

// reader serves files to detectManifest from a map.
func reader(files map[string]string) ([]string, func(string) (string, bool)) {
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	return paths, func(p string) (string, bool) {
		s, ok := files[p]
		return s, ok
	}
}

const goMod = `module example.com/shop

go 1.22

require github.com/direct/one v1.2.3

require (
	github.com/direct/two v0.4.0
	golang.org/x/text v0.14.0 // indirect
	github.com/direct/three v2.0.0+incompatible // a comment
)

require github.com/single/indirect v1.0.0 // indirect

replace github.com/direct/two => ../two
`

func TestDetectManifest(t *testing.T) {
	tests := []struct {
		name       string
		files      map[string]string
		unreadable []string // listed, but read fails
		want       Manifest
	}{
		{"go.mod", map[string]string{"go.mod": goMod, "cmd/shop/main.go": "", "internal/x.go": "", "Makefile": ""}, nil,
			Manifest{From: "go.mod", Name: "example.com/shop", Type: "go", BuildSystem: "go build, make", TestFramework: "go test",
				Dependencies: []string{"github.com/direct/one v1.2.3", "github.com/direct/two v0.4.0", "github.com/direct/three v2.0.0+incompatible"},
				EntryPoints:  []string{"cmd/shop/main.go"}}},
		{"go.mod unreadable", map[string]string{"main.go": ""}, []string{"go.mod"},
			Manifest{From: "go.mod", Name: "fallback", Type: "go", BuildSystem: "go build", TestFramework: "go test",
				Dependencies: []string{}, EntryPoints: []string{"main.go"}}},
		{"package.json with jest", map[string]string{
			"package.json": `{"name": "@acme/web", "main": "./lib/index.js", "bin": {"web": "./bin/web.js", "admin": "bin/admin.js"},
				"dependencies": {"react": "^18.2.0", "axios": "1.6.0"}, "devDependencies": {"jest": "^29", "eslint": "8"}}`,
			"yarn.lock": "", "tsconfig.json": "{}", "src/index.ts": ""}, nil,
			Manifest{From: "package.json", Name: "@acme/web", Type: "typescript", BuildSystem: "yarn", TestFramework: "jest",
				Dependencies: []string{"axios 1.6.0", "react ^18.2.0"},
				EntryPoints:  []string{"bin/admin.js", "bin/web.js", "lib/index.js", "src/index.ts"}}},
		{"package.json prefers vitest", map[string]string{
			"package.json": `{"name": "tool", "devDependencies": {"jest": "1", "vitest": "1"}}`, "pnpm-lock.yaml": ""}, nil,
			Manifest{From: "package.json", Name: "tool", Type: "javascript", BuildSystem: "pnpm", TestFramework: "vitest",
				Dependencies: []string{}, EntryPoints: []string{}}},
		{"pyproject.toml", map[string]string{
			"pyproject.toml":   "[build-system]\nrequires = [\"hatchling\"]\n\n[project]\nname = \"quiz\"\ndependencies = [\n  \"requests>=2.31\",\n  \"pydantic==2.5\",\n]\n\n[tool.pytest.ini_options]\n",
			"quiz/__main__.py": ""}, nil,
			Manifest{From: "pyproject.toml", Name: "quiz", Type: "python", BuildSystem: "hatch", TestFramework: "pytest",
				Dependencies: []string{"requests", "pydantic"}, EntryPoints: []string{"quiz/__main__.py"}}},
		{"Cargo.toml", map[string]string{
			"Cargo.toml":  "[package]\nname = \"grep-lite\"\nversion = \"0.1.0\"\n\n[dependencies]\nregex = \"1\"\nserde = { version = \"1\", features = [\"derive\"] }\n\n[dev-dependencies]\ncriterion = \"0.5\"\n",
			"src/main.rs": ""}, nil,
			Manifest{From: "Cargo.toml", Name: "grep-lite", Type: "rust", BuildSystem: "cargo", TestFramework: "cargo test",
				Dependencies: []string{"regex", "serde"}, EntryPoints: []string{"src/main.rs"}}},
		{"dominant language", map[string]string{"a.py": "", "b.py": "", "c.go": "", "README.md": "", "x.json": "", "y.yaml": ""}, nil,
			Manifest{Name: "fallback", Type: "python", Dependencies: []string{}, EntryPoints: []string{}}},
		{"no code", map[string]string{"README.md": "", "notes.txt": ""}, nil,
			Manifest{Name: "fallback", Type: "unknown", Dependencies: []string{}, EntryPoints: []string{}}},
	}
	for _, tt := range tests {
		paths, read := reader(tt.files)
		got := detectManifest("fallback", append(paths, tt.unreadable...), read)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

// TestManifestEdgeCases are forms the manifests' own formats allow.
func TestManifestEdgeCases(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		field func(Manifest) []string
		want  []string
	}{
		// npm: "bin" may be a single path, the command then named after the package
		{"package.json bin as a string", map[string]string{"package.json": `{"name": "cli", "bin": "./cli.js"}`},
			func(m Manifest) []string { return m.EntryPoints }, []string{"cli.js"}},
		// PEP 508: extras in brackets, inside the dependencies array
		{"pyproject dependency with extras", map[string]string{"pyproject.toml": "[project]\nname = \"x\"\ndependencies = [\"uvicorn[standard]>=0.20\", \"httpx\"]\n"},
			func(m Manifest) []string { return m.Dependencies }, []string{"uvicorn[standard]", "httpx"}},
		// go.mod: an exclude block names versions not to use, not dependencies
		{"go.mod exclude block", map[string]string{"go.mod": "module m\n\nrequire a.com/b v1.0.0\n\nexclude (\n\ta.com/b v0.9.0\n)\n"},
			func(m Manifest) []string { return m.Dependencies }, []string{"a.com/b v1.0.0"}},
	}
	for _, tt := range tests {
		paths, read := reader(tt.files)
		if got := tt.field(detectManifest("fallback", paths, read)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestDirTree(t *testing.T) {
	got := dirTree([]string{"go.mod", "cmd/gitctx/main.go", "pack/build.go", "pack/testdata/golden/x.md", "README.md", "pack/a.go", "nl\nname.txt"})
	want := `.
├── cmd/
│   └── gitctx/
│       └── main.go
├── pack/
│   ├── testdata/
│   │   └── golden/
│   │       └── x.md
│   ├── a.go
│   └── build.go
├── README.md
├── go.mod
└── "nl\nname.txt"
`
	if got != want {
		t.Errorf("dirTree:\n%s\nwant:\n%s\n%s", got, want, textDiff(got, want))
	}
	if got, want := dirTree([]string{"only.txt"}), ".\n└── only.txt\n"; got != want {
		t.Errorf("dirTree(one file) = %q, want %q", got, want)
	}
}
