package pack

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/gitctx/gitctx/secrets"
)

// Manifest is what a reviewer wants to know about a project before reading
// its diff, detected from its files (no model involved).
type Manifest struct {
	From          string   `json:"-"` // the manifest file it was read from
	Name          string   `json:"name"`
	Type          string   `json:"type"`
	Dependencies  []string `json:"dependencies"`
	EntryPoints   []string `json:"entry_points"`
	BuildSystem   string   `json:"build_system"`
	TestFramework string   `json:"test_framework"`
}

const maxManifestItems = 12

// detectManifest looks at the file list and reads the manifest files it
// needs through read (which returns false for a file it cannot read).
func detectManifest(fallbackName string, paths []string, read func(string) (string, bool)) Manifest {
	m := Manifest{Name: fallbackName, Dependencies: []string{}, EntryPoints: []string{}}
	has := make(map[string]bool, len(paths))
	for _, p := range paths {
		has[p] = true
	}
	switch {
	case has["go.mod"]:
		m.From = "go.mod"
		goManifest(&m, read)
	case has["package.json"]:
		m.From = "package.json"
		nodeManifest(&m, has, read)
	case has["Cargo.toml"]:
		m.From = "Cargo.toml"
		rustManifest(&m, read)
	case has["pyproject.toml"] || has["setup.py"] || has["requirements.txt"]:
		m.From = "pyproject.toml"
		if !has["pyproject.toml"] {
			m.From = "requirements.txt"
		}
		pythonManifest(&m, has, read)
	case has["pom.xml"]:
		m.Type, m.BuildSystem, m.TestFramework = "java", "maven", "junit (assumed)"
	case has["build.gradle"] || has["build.gradle.kts"]:
		m.Type, m.BuildSystem = "java/kotlin", "gradle"
	case has["Gemfile"]:
		m.Type, m.BuildSystem = "ruby", "bundler"
	case has["CMakeLists.txt"]:
		m.Type, m.BuildSystem = "c/c++", "cmake"
	default:
		m.Type = dominantLanguage(paths)
	}
	if has["Makefile"] && m.BuildSystem == "" {
		m.BuildSystem = "make"
	} else if has["Makefile"] {
		m.BuildSystem += ", make"
	}
	m.EntryPoints = entryPoints(m.Type, paths, m.EntryPoints)
	return m
}

func goManifest(m *Manifest, read func(string) (string, bool)) {
	m.Type, m.BuildSystem, m.TestFramework = "go", "go build", "go test"
	text, ok := read("go.mod")
	if !ok {
		return
	}
	f, err := modfile.ParseLax("go.mod", []byte(text), nil)
	if err != nil {
		return
	}
	if f.Module != nil {
		m.Name = f.Module.Mod.Path
	}
	for _, r := range f.Require {
		if !r.Indirect {
			m.Dependencies = appendMax(m.Dependencies, r.Mod.Path+" "+r.Mod.Version)
		}
	}
}

func nodeManifest(m *Manifest, has map[string]bool, read func(string) (string, bool)) {
	m.Type = "javascript"
	if has["tsconfig.json"] {
		m.Type = "typescript"
	}
	switch {
	case has["pnpm-lock.yaml"]:
		m.BuildSystem = "pnpm"
	case has["yarn.lock"]:
		m.BuildSystem = "yarn"
	default:
		m.BuildSystem = "npm"
	}
	text, ok := read("package.json")
	if !ok {
		return
	}
	var pkg struct {
		Name    string            `json:"name"`
		Main    string            `json:"main"`
		Bin     json.RawMessage   `json:"bin"`
		Deps    map[string]string `json:"dependencies"`
		DevDeps map[string]string `json:"devDependencies"`
	}
	if json.Unmarshal([]byte(text), &pkg) != nil {
		return
	}
	if pkg.Name != "" {
		m.Name = pkg.Name
	}
	for _, name := range sortedKeys(pkg.Deps) {
		m.Dependencies = appendMax(m.Dependencies, name+" "+pkg.Deps[name])
	}
	for _, fw := range []string{"vitest", "jest", "mocha", "ava", "@playwright/test"} {
		if _, ok := pkg.DevDeps[fw]; ok {
			m.TestFramework = fw
			break
		}
	}
	if pkg.Main != "" {
		m.EntryPoints = append(m.EntryPoints, path.Clean(pkg.Main))
	}
	var bins map[string]string
	var bin string
	switch {
	case json.Unmarshal(pkg.Bin, &bins) == nil:
		for _, k := range sortedKeys(bins) {
			m.EntryPoints = append(m.EntryPoints, path.Clean(bins[k]))
		}
	case json.Unmarshal(pkg.Bin, &bin) == nil && bin != "":
		m.EntryPoints = append(m.EntryPoints, path.Clean(bin))
	}
}

var tomlKey = regexp.MustCompile(`(?m)^\s*([A-Za-z0-9_.-]+)\s*=`)

func rustManifest(m *Manifest, read func(string) (string, bool)) {
	m.Type, m.BuildSystem, m.TestFramework = "rust", "cargo", "cargo test"
	text, ok := read("Cargo.toml")
	if !ok {
		return
	}
	if name := tomlString(tomlSection(text, "package"), "name"); name != "" {
		m.Name = name
	}
	for _, sub := range tomlKey.FindAllStringSubmatch(tomlSection(text, "dependencies"), -1) {
		m.Dependencies = appendMax(m.Dependencies, sub[1])
	}
}

func pythonManifest(m *Manifest, has map[string]bool, read func(string) (string, bool)) {
	m.Type, m.BuildSystem = "python", "pip"
	if text, ok := read("pyproject.toml"); ok {
		project := tomlSection(text, "project")
		if name := tomlString(project, "name"); name != "" {
			m.Name = name
		}
		for _, dep := range regexp.MustCompile(`"([A-Za-z0-9_.\-\[\]]+)[^"]*"`).FindAllStringSubmatch(tomlArray(project, "dependencies"), -1) {
			m.Dependencies = appendMax(m.Dependencies, dep[1])
		}
		switch {
		case strings.Contains(text, "poetry"):
			m.BuildSystem = "poetry"
		case strings.Contains(text, "hatchling"):
			m.BuildSystem = "hatch"
		case strings.Contains(text, "setuptools"):
			m.BuildSystem = "setuptools"
		}
		if strings.Contains(text, "pytest") {
			m.TestFramework = "pytest"
		}
	}
	if text, ok := read("requirements.txt"); ok && len(m.Dependencies) == 0 {
		for _, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(line)
			if line != "" && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "-") {
				m.Dependencies = appendMax(m.Dependencies, line)
			}
		}
	}
	if m.TestFramework == "" && (has["pytest.ini"] || has["conftest.py"] || has["tests/conftest.py"]) {
		m.TestFramework = "pytest"
	}
}

// tomlSection returns the body of a [name] table.
func tomlSection(text, name string) string {
	start := strings.Index(text, "["+name+"]")
	if start < 0 {
		return ""
	}
	body := text[start+len(name)+2:]
	if end := regexp.MustCompile(`(?m)^\s*\[`).FindStringIndex(body); end != nil {
		body = body[:end[0]]
	}
	return body
}

func tomlString(section, key string) string {
	re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(key) + `\s*=\s*["']([^"']*)["']`)
	if sub := re.FindStringSubmatch(section); sub != nil {
		return sub[1]
	}
	return ""
}

// tomlArray returns the text inside the brackets of key = [ … ], brackets
// inside strings (extras such as "uvicorn[standard]") included.
func tomlArray(section, key string) string {
	loc := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(key) + `\s*=\s*\[`).FindStringIndex(section)
	if loc == nil {
		return ""
	}
	body := section[loc[1]:]
	depth, quote := 1, byte(0)
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			depth--
			if depth == 0 {
				return body[:i]
			}
		}
	}
	return body
}

// entryPoints finds the usual entry files of a project type.
func entryPoints(typ string, paths, found []string) []string {
	var pats []string
	switch typ {
	case "go":
		pats = []string{"main.go", "cmd/*/main.go", "cmd/main.go"}
	case "rust":
		pats = []string{"src/main.rs", "src/bin/*.rs", "src/lib.rs"}
	case "python":
		pats = []string{"__main__.py", "*/__main__.py", "src/*/__main__.py", "manage.py", "main.py", "app.py"}
	case "javascript", "typescript":
		pats = []string{"index.js", "index.ts", "src/index.js", "src/index.ts", "src/main.ts", "src/main.js", "server.js", "app.js"}
	}
	seen := map[string]bool{}
	for _, f := range found {
		seen[f] = true
	}
	for _, p := range paths {
		for _, pat := range pats {
			if ok, _ := path.Match(pat, p); ok && !seen[p] {
				seen[p] = true
				found = append(found, p)
			}
		}
	}
	sort.Strings(found)
	if len(found) > maxManifestItems {
		found = found[:maxManifestItems]
	}
	return found
}

func dominantLanguage(paths []string) string {
	count := map[string]int{}
	for _, p := range paths {
		if lang := language(p); isCode(lang) {
			count[lang]++
		}
	}
	best, n := "unknown", 0
	for _, lang := range sortedKeys(count) {
		if count[lang] > n {
			best, n = lang, count[lang]
		}
	}
	return best
}

func appendMax(list []string, s string) []string {
	if len(list) >= maxManifestItems {
		return list
	}
	return append(list, s)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// redactManifest puts the manifest's text, read from repository files,
// through the gate.
func redactManifest(ctx context.Context, g *secrets.Gate, m Manifest, v *view) (Manifest, error) {
	texts := append(append([]string{m.Name, m.Type, m.BuildSystem, m.TestFramework}, m.Dependencies...), m.EntryPoints...)
	red, hits, err := redactMany(ctx, g, texts)
	if err != nil {
		return Manifest{}, fmt.Errorf("check the manifest for credentials: %w", err)
	}
	for _, hs := range hits {
		for _, h := range hs {
			v.origin(h.Placeholder, RedactionItem{Path: m.From, Side: "new", Rule: ruleOf(h.Placeholder), Placeholder: h.Placeholder})
		}
	}
	str := func(i int) string { return red[i].String() }
	out := Manifest{From: m.From, Name: str(0), Type: str(1), BuildSystem: str(2), TestFramework: str(3),
		Dependencies: []string{}, EntryPoints: []string{}}
	for i := range m.Dependencies {
		out.Dependencies = append(out.Dependencies, str(4+i))
	}
	for i := range m.EntryPoints {
		out.EntryPoints = append(out.EntryPoints, str(4+len(m.Dependencies)+i))
	}
	return out, nil
}
