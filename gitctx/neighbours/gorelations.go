package neighbours

import (
	"context"
	"maps"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
)

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
// packages: those that goImporters found quoting a seed package's import
// path, so that the repository's other Go files are never read.
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
	parsed, err := f.parseAll(ctx, seeds, scanGo)
	if err != nil {
		return err
	}
	if err := f.parseNeighbourhood(ctx, r, parsed, seeds, importPath); err != nil {
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
				if tg := parsed[t]; tg != nil {
					if shared := sharedNames(tg.defines, names); len(shared) > 0 {
						f.relate(s, t, weightImported, s+" uses what it defines")
						f.noteImported(t, shared)
					}
				}
			}
		}
		// files importing the seed's package that use what the seed defines
		if importPath[s] == "" {
			continue
		}
		for file, names := range users(importPath[s], sg.pkg) {
			if shared := sharedNames(sg.defines, names); file != s && len(shared) > 0 {
				f.relate(s, file, weightImporter, "it uses what "+s+" defines")
				f.noteImported(file, shared)
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

func sharedNames(defines, names map[string]bool) []string {
	var out []string
	for n := range names {
		if defines[n] {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// noteImported keeps, for a candidate's excerpt, the names an import
// relation shares with it (after the names and words of the changed
// lines: see candidate.excerptNames).
func (f *finder) noteImported(p string, names []string) {
	if c := f.cands[p]; c != nil {
		for _, n := range names {
			if len(c.imported) < maxNames && !slices.Contains(c.imported, n) {
				c.imported = append(c.imported, n)
			}
		}
	}
}

// parseNeighbourhood reads lightly, into parsed, the files the seeds
// import and the files importing the seeds' packages. The first are read
// while git grep still looks for the second.
func (f *finder) parseNeighbourhood(ctx context.Context, r *resolver, parsed map[string]*goFile, seeds []string, importPath map[string]string) error {
	var targets []string
	for _, s := range seeds {
		if sg := parsed[s]; sg != nil {
			for _, imp := range sg.imports {
				targets = append(targets, r.goPackage(imp)...)
			}
		}
	}
	targets = slices.DeleteFunc(dedupe(targets), func(p string) bool { return parsed[p] != nil })
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	readTargets := inBackground(func() (map[string]*goFile, error) { return f.parseAll(ctx, targets, lightGo) })
	quoting, err := f.goImporters()
	if err != nil {
		cancel()
		_, _ = readTargets()
		return err
	}
	reading := make(map[string]bool, len(targets))
	for _, t := range targets {
		reading[t] = true
	}
	var importers []string
	for _, s := range seeds {
		importers = append(importers, quoting[importPath[s]]...)
	}
	importers = slices.DeleteFunc(dedupe(importers), func(p string) bool { return parsed[p] != nil || reading[p] })
	more, err := f.parseAll(ctx, importers, lightGo)
	if err != nil {
		cancel()
	}
	imported, terr := readTargets()
	if err == nil {
		err = terr
	}
	maps.Copy(parsed, more)
	maps.Copy(parsed, imported)
	return err
}

// inBackground runs fn in a goroutine; the function it returns waits for
// fn's results.
func inBackground[T any](fn func() (T, error)) func() (T, error) {
	var v T
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		v, err = fn()
	}()
	return func() (T, error) {
		<-done
		return v, err
	}
}

// parseAll reads the Go files among paths with parse (scanGo, or the
// lighter lightGo), one at a time from git, parsed on every core.
func (f *finder) parseAll(ctx context.Context, paths []string, parse func(name string, src []byte) *goFile) (map[string]*goFile, error) {
	var entries []gitctx.TreeEntry
	for _, p := range paths {
		if e, ok := f.files[p]; ok && strings.HasSuffix(p, ".go") {
			entries = append(entries, e)
		}
	}
	type source struct {
		path string
		src  []byte
	}
	var (
		mu     sync.Mutex
		parsed = map[string]*goFile{}
		wg     sync.WaitGroup
		work   = make(chan source, 16)
	)
	for range min(runtime.GOMAXPROCS(0), len(entries)) {
		wg.Go(func() {
			for s := range work {
				if g := parse(s.path, s.src); g != nil {
					mu.Lock()
					parsed[s.path] = g
					mu.Unlock()
				}
			}
		})
	}
	err := f.ch.ReadTreeToSearch(ctx, entries, maxFileBytes, func(e gitctx.TreeEntry, data []byte, err error) error {
		if err != nil {
			return ctx.Err()
		}
		work <- source{e.Path, data} // the reader hands data over (lightGo keeps it)
		return nil
	})
	close(work)
	wg.Wait()
	return parsed, err
}
