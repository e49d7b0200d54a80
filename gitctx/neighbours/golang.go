package neighbours

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
)

// Go imports whole packages, so a package-level import says little about
// which file matters: a test of package report imports all of package
// config. goRelations narrows imports to files by the names they share: a
// file the seed imports counts if it defines a name the seed uses through
// that import, and a file importing the seed's package counts if it uses a
// name the seed defines.
type goFile struct {
	pkg       string                     // the package clause's name
	defines   map[string]bool            // top-level names
	uses      map[string]map[string]bool // import path → names used through it, its package name guessed from the path
	selectors map[string]map[string]bool // identifier → names selected from it (x.Name)
	named     map[string]bool            // import paths imported under a name of their own
	aliases   map[string]string          // import path → its name of its own (lightGo)
	imports   []string
	src       []byte // the text, for a file read by lightGo (selectors is nil then)
}

// usesOf returns the names a file uses through an import of a package
// called pkg ("" when unknown): the package name need not be the last
// element of its path (module/v2, a directory unlike its package).
func (g *goFile) usesOf(imp, pkg string) map[string]bool {
	if !slices.Contains(g.imports, imp) {
		return nil
	}
	if g.src != nil {
		if l := g.localName(imp, pkg); l != "_" && l != "." {
			return selectorsOf(g.src, l)
		}
		return nil
	}
	if g.named[imp] || pkg == "" {
		return g.uses[imp]
	}
	return g.selectors[pkg]
}

// parseGo reads what a Go file defines and what it uses of each import.
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

// goSeeds are the Go files among the seeds.
func goSeeds(seeds []string) []string {
	var out []string
	for _, s := range seeds {
		if strings.HasSuffix(s, ".go") {
			out = append(out, s)
		}
	}
	return out
}

// maxGoSeeds is the most Go seeds goRelations looks at; a change of more
// files is its own context.
const maxGoSeeds = 200

// goSeedsOf are the Go seeds goRelations looks at: none when there are
// more than maxGoSeeds.
func goSeedsOf(seeds []string) []string {
	if s := goSeeds(seeds); len(s) <= maxGoSeeds {
		return s
	}
	return nil
}

// goPackages are the repository's Go modules, and the import path of each
// Go seed's package (none outside a module).
type goPackages struct {
	modules []goModule
	paths   map[string]string
}

// startGo starts reading the repository's go.mod files in the background,
// for goPackages.
func (f *finder) startGo(ctx context.Context) {
	seeds := goSeedsOf(f.seeds())
	f.goPackages = sync.OnceValues(func() (goPackages, error) {
		if len(seeds) == 0 {
			return goPackages{}, nil
		}
		var mods []gitctx.TreeEntry
		for _, p := range sortedKeys(f.files) {
			if p == "go.mod" || strings.HasSuffix(p, "/go.mod") {
				mods = append(mods, f.files[p])
			}
		}
		r := &resolver{}
		err := f.ch.ReadTreeEach(ctx, mods, maxFileBytes, func(e gitctx.TreeEntry, data []byte, err error) error {
			if err == nil {
				r.addModule(e.Path, data)
			}
			return ctx.Err()
		})
		if err != nil {
			return goPackages{}, err
		}
		paths := map[string]string{}
		for _, s := range seeds {
			if ip := r.importPathOf(path.Dir(s)); ip != "" {
				paths[s] = ip
			}
		}
		return goPackages{r.modules, paths}, nil
	})
	go func() { _, _ = f.goPackages() }()
}

// goRelations adds Go's file-level import relations of the seeds. It reads
// the seeds, then the files they import and the files that import their
// packages: those that startReferences found quoting a seed package's
// import path, so that the repository's other Go files are never read.
func (f *finder) goRelations(ctx context.Context, r *resolver) error {
	seeds := goSeedsOf(f.seeds())
	if len(seeds) == 0 {
		return nil
	}
	pkgs, err := f.goPackages()
	if err != nil {
		return err
	}
	r.modules = pkgs.modules
	importPath := pkgs.paths // seed → its package's import path
	parsed, err := f.parseAll(ctx, seeds, parseGo)
	if err != nil {
		return err
	}
	// the files the seeds import, read while git grep looks for the files
	// importing the seeds' packages
	var targets []string
	for _, s := range seeds {
		if sg := parsed[s]; sg != nil {
			for _, imp := range sg.imports {
				targets = append(targets, r.goPackage(imp)...)
			}
		}
	}
	if err := f.parseMore(ctx, parsed, targets); err != nil {
		return err
	}
	syms, err := f.named()
	if err != nil || syms == nil {
		return err
	}
	var importers []string
	for _, s := range seeds {
		importers = append(importers, syms.importers[importPath[s]]...)
	}
	if err := f.parseMore(ctx, parsed, importers); err != nil {
		return err
	}
	// users lists, once for all the seeds of a package, the names each
	// parsed file uses of it
	byPackage := map[string]map[string]map[string]bool{}
	users := func(imp, pkg string) map[string]map[string]bool {
		k := imp + "\x00" + pkg
		if u, ok := byPackage[k]; ok {
			return u
		}
		u := map[string]map[string]bool{}
		for file, g := range parsed {
			if names := g.usesOf(imp, pkg); names != nil {
				u[file] = names
			}
		}
		byPackage[k] = u
		return u
	}
	for _, s := range seeds {
		sg := parsed[s]
		if sg == nil {
			continue
		}
		// files the seed imports that define what it uses
		for _, imp := range sg.imports {
			targets := r.goPackage(imp)
			names := sg.usesOf(imp, packageName(parsed, targets))
			for _, t := range targets {
				if tg := parsed[t]; tg != nil && sharesName(tg.defines, names) {
					f.add(t, weightImported, 0, s+" uses what it defines")
				}
			}
		}
		// files importing the seed's package that use what the seed defines
		if importPath[s] == "" {
			continue
		}
		for file, names := range users(importPath[s], sg.pkg) {
			if file != s && sharesName(sg.defines, names) {
				f.add(file, weightImporter, 0, "it uses what "+s+" defines")
			}
		}
	}
	return nil
}

// packageName is the package name of parsed Go files ("" if none was parsed).
func packageName(parsed map[string]*goFile, files []string) string {
	for _, p := range files {
		if g := parsed[p]; g != nil && !strings.HasSuffix(g.pkg, "_test") {
			return g.pkg
		}
	}
	return ""
}

func sharesName(defines, names map[string]bool) bool {
	for n := range names {
		if defines[n] {
			return true
		}
	}
	return false
}

// parseMore reads lightly the files of paths not parsed yet, into parsed.
func (f *finder) parseMore(ctx context.Context, parsed map[string]*goFile, paths []string) error {
	paths = slices.DeleteFunc(dedupe(paths), func(p string) bool { return parsed[p] != nil })
	more, err := f.parseAll(ctx, paths, lightGo)
	maps.Copy(parsed, more)
	return err
}

// parseAll reads the Go files among paths with parse (parseGo, or the
// lighter lightGo).
func (f *finder) parseAll(ctx context.Context, paths []string, parse func(name string, src []byte) *goFile) (map[string]*goFile, error) {
	var entries []gitctx.TreeEntry
	for _, p := range paths {
		if e, ok := f.files[p]; ok && strings.HasSuffix(p, ".go") {
			entries = append(entries, e)
		}
	}
	parsed := map[string]*goFile{}
	err := f.ch.ReadTreeEach(ctx, entries, maxFileBytes, func(e gitctx.TreeEntry, data []byte, err error) error {
		if err != nil {
			return ctx.Err()
		}
		if g := parse(e.Path, data); g != nil {
			parsed[e.Path] = g
		}
		return nil
	})
	return parsed, err
}

// importPathOf is the import path of a directory of Go files, "" outside
// any module.
func (r *resolver) importPathOf(dir string) string {
	best := -1 // the module whose directory holds dir most closely
	for i, m := range r.modules {
		if m.dir == "." || dir == m.dir || strings.HasPrefix(dir, m.dir+"/") {
			if best < 0 || len(m.dir) > len(r.modules[best].dir) || r.modules[best].dir == "." {
				best = i
			}
		}
	}
	if best < 0 {
		return ""
	}
	m := r.modules[best]
	rel := dir
	if m.dir != "." {
		rel = strings.TrimPrefix(strings.TrimPrefix(dir, m.dir), "/")
	}
	if rel == "" || rel == "." {
		return m.path
	}
	return m.path + "/" + rel
}
