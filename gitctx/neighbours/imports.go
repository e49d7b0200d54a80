package neighbours

import (
	"context"
	"errors"
	"maps"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// Limits of the import index.
const (
	maxIndexFiles = 30000
	maxFileBytes  = 512 << 10
	headBytes     = 64 << 10 // imports sit at the top; only this much is parsed
)

// imports adds the files the changed files import and the files that
// import them. The repository's files in the changed files' languages are
// read once, and only their heads are parsed. Go is the exception (see
// goRelations): it imports packages, not files, and only the files that
// name a seed's package are read.
func (f *finder) imports(ctx context.Context) error {
	langs := map[string]bool{}
	for _, s := range f.seeds() {
		if l := languageOf(s); l != "" && l != "go" {
			langs[l] = true
		}
	}
	var entries []gitctx.TreeEntry
	for _, p := range sortedKeys(f.files) {
		if langs[languageOf(p)] && !f.skip(p) {
			entries = append(entries, f.files[p])
			if len(entries) == maxIndexFiles {
				break
			}
		}
	}
	r := newResolver(f.files)
	if langs["js"] {
		if err := f.readTSConfigs(ctx, r); err != nil {
			return err
		}
	}
	// Go's relations (their own reads and searches) are found while the
	// other languages' files are read: neither waits for the other.
	goCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	goDone := inBackground(func() (struct{}, error) { return struct{}{}, f.goRelations(goCtx, r) })
	specs := map[string][]string{} // file → its import specs
	err := f.ch.ReadTreeToSearch(ctx, entries, maxFileBytes, func(e gitctx.TreeEntry, data []byte, err error) error {
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return err
			}
			return nil
		}
		specs[e.Path] = parseImports(e.Path, data[:min(len(data), headBytes)])
		return nil
	})
	if err != nil {
		cancel()
		_, _ = goDone()
		return err
	}
	if _, err := goDone(); err != nil {
		return err
	}
	imported := map[string][]string{} // file → files it imports
	importers := map[string][]string{}
	for file, ss := range specs {
		for _, spec := range ss {
			for _, target := range r.resolve(file, spec) {
				if target != file {
					imported[file] = append(imported[file], target)
					importers[target] = append(importers[target], file)
				}
			}
		}
	}
	for _, s := range f.seeds() {
		targets := dedupe(imported[s])
		for _, t := range targets {
			f.relate(s, t, weightImported/spreadOver(len(targets)), s+" imports it")
		}
		users := dedupe(importers[s])
		for _, u := range users {
			f.relate(s, u, weightImporter/spreadOver(len(users)), "it imports "+s)
		}
	}
	return nil
}

// readTSConfigs notes the repository's TypeScript and JavaScript configs
// (tsconfig.json, the tsconfig.base.json it extends, jsconfig.json) in r,
// for their path aliases.
func (f *finder) readTSConfigs(ctx context.Context, r *resolver) error {
	var configs []gitctx.TreeEntry
	for _, p := range sortedKeys(f.files) {
		if isTSConfig(p) {
			configs = append(configs, f.files[p])
		}
	}
	err := f.ch.ReadTreeEach(ctx, configs, maxFileBytes, func(e gitctx.TreeEntry, data []byte, err error) error {
		if err == nil {
			r.addTSConfig(e.Path, data)
		}
		return ctx.Err()
	})
	r.linkTSConfigs()
	return err
}

// spreadOver divides a signal's weight among many files: one importer of
// a file says more than one of its hundred importers.
func spreadOver(n int) float64 { return math.Max(1, math.Sqrt(float64(n)/4)) }

func dedupe(list []string) []string {
	slices.Sort(list)
	return slices.Compact(list)
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// languageOf groups files by how their imports are written.
func languageOf(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".go":
		return "go"
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte":
		return "js"
	case ".py", ".pyi":
		return "python"
	case ".java", ".kt", ".kts", ".scala":
		return "jvm"
	case ".rs":
		return "rust"
	case ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".m", ".mm":
		return "c"
	case ".rb":
		return "ruby"
	case ".php":
		return "php"
	case ".ex", ".exs":
		return "elixir"
	case ".dart":
		return "dart"
	}
	return ""
}
