package neighbours

import (
	"slices"
	"strings"
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
