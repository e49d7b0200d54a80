package neighbours

import (
	"path"
	"sort"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// resolver maps import specs to the repository's files.
type resolver struct {
	files     map[string]gitctx.TreeEntry
	byBase    map[string][]string     // base name → paths, for suffix matches
	goDirs    map[string][]string     // directory → its Go files, tests left out
	modules   []goModule              // longest module path first
	tsFiles   map[string]tsConfigFile // see addTSConfig
	tsConfigs []tsConfig              // see linkTSConfigs
}

type goModule struct{ dir, path string }

func newResolver(files map[string]gitctx.TreeEntry) *resolver {
	r := &resolver{files: files, byBase: map[string][]string{}, goDirs: map[string][]string{}}
	for p := range files {
		r.byBase[path.Base(p)] = append(r.byBase[path.Base(p)], p)
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			r.goDirs[path.Dir(p)] = append(r.goDirs[path.Dir(p)], p)
		}
	}
	return r
}

// addModule notes a go.mod file's module path.
func (r *resolver) addModule(name string, data []byte) {
	for _, line := range strings.Split(string(data), "\n") {
		if mod, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			r.modules = append(r.modules, goModule{dir: path.Dir(name), path: strings.Trim(strings.TrimSpace(mod), `"`)})
			sort.Slice(r.modules, func(i, j int) bool { return len(r.modules[i].path) > len(r.modules[j].path) })
			return
		}
	}
}

// resolve returns the files an import spec of file refers to.
func (r *resolver) resolve(file, spec string) []string {
	kind, rest, ok := strings.Cut(spec, ":")
	if !ok || strings.Contains(kind, "/") || strings.Contains(kind, ".") {
		kind, rest = "", spec
	}
	dir := path.Dir(file)
	switch kind {
	case "go":
		return r.goPackage(rest)
	case "py":
		return r.python(dir, rest)
	case "jvm":
		if got := r.suffix(strings.ReplaceAll(rest, ".", "/"), ".java", ".kt", ".scala"); len(got) > 0 {
			return got
		}
		// a static import names a member of the class: com.acme.Strings.join
		if i := strings.LastIndexByte(rest, '.'); i > 0 {
			return r.suffix(strings.ReplaceAll(rest[:i], ".", "/"), ".java", ".kt", ".scala")
		}
		return nil
	case "mod":
		return r.rustMod(file, rest)
	case "use":
		return r.rustUse(file, rest)
	case "rel":
		return r.first(path.Join(dir, rest), ".rb", "")
	case "php":
		return r.phpClass(rest)
	case "ex":
		return r.exModule(rest)
	case "dart":
		return r.dartFile(file, rest)
	}
	if strings.HasPrefix(rest, ".") {
		return r.jsFile(path.Join(dir, rest))
	}
	switch languageOf(file) {
	case "js":
		if kind != "" {
			return nil // node:fs
		}
		return r.tsAliased(file, rest)
	case "c":
		if got := r.first(path.Join(dir, rest), ""); len(got) > 0 {
			return got
		}
		return r.suffix(strings.TrimSuffix(rest, path.Ext(rest)), path.Ext(rest))
	}
	return nil
}

// jsFile returns the file a JavaScript or TypeScript import of base (a
// path from the repository's root) names: base itself, base with a
// source's extension added, or the index of the directory base names.
func (r *resolver) jsFile(base string) []string {
	if got := r.first(base, "", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".svelte",
		"/index.ts", "/index.tsx", "/index.js", "/index.jsx"); got != nil {
		return got
	}
	// TypeScript's Node16/NodeNext resolution: "./util.js" imports
	// util.ts (or util.tsx), "./x.mjs" x.mts, "./x.cjs" x.cts
	if ts, ok := tsSources[path.Ext(base)]; ok {
		return r.first(strings.TrimSuffix(base, path.Ext(base)), ts...)
	}
	return nil
}

// tsSources are the TypeScript sources a JavaScript extension in an import
// names, as TypeScript resolves them.
var tsSources = map[string][]string{".js": {".ts", ".tsx"}, ".jsx": {".tsx"}, ".mjs": {".mts"}, ".cjs": {".cts"}}

// first returns the first of base+ext that is a file.
func (r *resolver) first(base string, exts ...string) []string {
	for _, e := range exts {
		if _, ok := r.files[base+e]; ok {
			return []string{base + e}
		}
	}
	return nil
}

// suffix returns the files whose paths end with rel plus one of exts.
func (r *resolver) suffix(rel string, exts ...string) []string {
	var out []string
	for _, e := range exts {
		want := rel + e
		for _, p := range r.byBase[path.Base(want)] {
			if p == want || strings.HasSuffix(p, "/"+want) {
				out = append(out, p)
			}
		}
	}
	if len(out) > 3 { // too ambiguous to mean anything
		return nil
	}
	return out
}

func (r *resolver) goPackage(imp string) []string {
	for _, m := range r.modules {
		if imp == m.path || strings.HasPrefix(imp, m.path+"/") {
			return r.goDirs[path.Clean(path.Join(m.dir, strings.TrimPrefix(imp, m.path)))]
		}
	}
	return nil
}

// python resolves "py:" specs: relative ones from the importing file's
// package, absolute ones by the module's path wherever it sits (src/
// layouts, nested packages).
func (r *resolver) python(dir, mod string) []string {
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	rel := strings.ReplaceAll(strings.TrimLeft(mod, "."), ".", "/")
	if dots > 0 {
		base := dir
		for range dots - 1 {
			base = path.Dir(base)
		}
		if rel == "" {
			return r.first(path.Join(base, "__init__"), ".py")
		}
		return r.first(path.Join(base, rel), ".py", "/__init__.py")
	}
	if rel == "" {
		return nil
	}
	if got := r.suffix(rel, ".py"); len(got) > 0 {
		return got
	}
	return r.suffix(rel+"/__init__", ".py")
}

// rustModDir is the directory of a Rust file's submodules: beside a
// mod.rs, lib.rs or main.rs, and in a directory named after any other file.
func rustModDir(file string) string {
	switch path.Base(file) {
	case "mod.rs", "lib.rs", "main.rs":
		return path.Dir(file)
	}
	return path.Join(path.Dir(file), strings.TrimSuffix(path.Base(file), ".rs"))
}

func (r *resolver) rustMod(file, name string) []string {
	return r.first(path.Join(rustModDir(file), name), ".rs", "/mod.rs")
}

func (r *resolver) rustUse(file, use string) []string {
	parts := strings.Split(use, "::")
	var base string
	switch parts[0] {
	case "crate":
		base = file
		for base != "." && path.Base(base) != "src" {
			base = path.Dir(base)
		}
		if base == "." {
			return nil
		}
	case "super":
		base = path.Dir(rustModDir(file))
	default: // self
		base = rustModDir(file)
	}
	// the longest prefix of the path that names a module file
	for n := len(parts) - 1; n >= 1; n-- {
		if got := r.first(path.Join(append([]string{base}, parts[1:n+1]...)...), ".rs", "/mod.rs"); len(got) > 0 {
			return got
		}
	}
	return nil
}
