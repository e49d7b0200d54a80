package neighbours

import (
	"context"
	"path"
	"slices"
	"strings"
)

// lockNames are the lock files a package manager writes beside each
// manifest, in the order they are looked for.
var lockNames = map[string][]string{
	"go.mod":              {"go.sum"},
	"go.work":             {"go.work.sum"},
	"Cargo.toml":          {"Cargo.lock"},
	"package.json":        {"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock"},
	"pnpm-workspace.yaml": {"pnpm-lock.yaml"}, // its catalogs and overrides pin versions too
	"deno.json":           {"deno.lock"},
	"deno.jsonc":          {"deno.lock"},
	"pyproject.toml":      {"uv.lock", "poetry.lock", "pdm.lock"},
	"Pipfile":             {"Pipfile.lock"},
	"Gemfile":             {"Gemfile.lock"},
	"gems.rb":             {"gems.locked"},
	"Podfile":             {"Podfile.lock"},
	"composer.json":       {"composer.lock"},
	"mix.exs":             {"mix.lock"},
	"pubspec.yaml":        {"pubspec.lock"},
	"Package.swift":       {"Package.resolved"},
	"Chart.yaml":          {"Chart.lock"},
	"flake.nix":           {"flake.lock"},
}

// otherLocks are lock files written by tools whose manifest gitctx does
// not pair with them.
var otherLocks = []string{".terraform.lock.hcl", "gradle.lockfile", "packages.lock.json", "conan.lock",
	"Cartfile.resolved", "shard.lock", "paket.lock", "renv.lock", "bun.lockb", "pixi.lock", "MODULE.bazel.lock", "Gopkg.lock"}

// IsLockFile reports whether a file's base name is that of a lock file, a
// file a package manager or another tool writes to pin versions and
// digests.
func IsLockFile(base string) bool {
	if slices.Contains(otherLocks, base) {
		return true
	}
	for _, names := range lockNames {
		if slices.Contains(names, base) {
			return true
		}
	}
	return false
}

// maxFocus bounds the names a lock file's excerpt is cut to.
const maxFocus = 40

// locks pairs each changed manifest with its lock file: the one of its own
// directory, or of the nearest directory above it (a Cargo or npm
// workspace keeps one lock at its root). A change of a manifest's
// dependencies must change the lock too, so the lock is the file a
// reviewer checks next; it ranks with a paired test. Lock files are
// written by tools and are never neighbours otherwise (generated), and the
// pack shows only their entries for the names on the manifest's changed
// lines (Neighbour.Focus, which focusLocks fills in once the patches are
// read: the other signals need not wait for the diff).
func (f *finder) locks(context.Context) error {
	for _, s := range f.seeds() {
		names := lockNames[path.Base(s)]
		if names == nil {
			continue
		}
		lock := f.nearest(path.Dir(s), names)
		if lock == "" || f.changed[lock] || f.skip(lock) {
			continue
		}
		// not add: a lock file is generated, and a neighbour only here
		c := f.record(lock, weightTest, 0, "the lock file of "+s+": a change of its dependencies changes it too")
		c.lock, c.paired = true, true
		f.manifests = append(f.manifests, lockOf{c, s})
	}
	return nil
}

// lockOf is a lock file's candidate and a changed manifest it is the lock
// of.
type lockOf struct {
	lock     *candidate
	manifest string
}

// focusLocks gives each lock file the names on its manifests' changed
// lines, in the order locks found them.
func (f *finder) focusLocks(ctx context.Context) error {
	if len(f.manifests) == 0 {
		return nil
	}
	patches, err := f.changedLines(ctx)
	if err != nil {
		return err
	}
	for _, m := range f.manifests {
		c := m.lock
		for _, n := range focusNames(patches[m.manifest]) {
			if len(c.focus) < maxFocus && !slices.Contains(c.focus, n) {
				c.focus = append(c.focus, n)
			}
		}
	}
	return nil
}

// nearest returns the first of names found in dir or the directories
// above it, "" if none.
func (f *finder) nearest(dir string, names []string) string {
	for {
		for _, n := range names {
			p := path.Join(dir, n)
			if _, ok := f.files[p]; ok {
				return p
			}
		}
		if dir == "." || dir == "/" || dir == "" {
			return ""
		}
		dir = path.Dir(dir)
	}
}

// changedLines returns the added and deleted lines of each changed
// manifest, and the lines around them that name the manifest's own package
// (a version bump's `name = "ripgrep"` above `version = …`): the lock's
// entry for it lists its dependencies.
func (f *finder) changedLines(ctx context.Context) (map[string][]string, error) {
	patches, err := f.patches(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for c, p := range patches {
		if p == nil || lockNames[path.Base(c.Path)] == nil {
			continue
		}
		for _, h := range p.Hunks {
			for _, l := range h.Lines {
				if l.Op != ' ' || namesPackage(l.Text) {
					out[c.Path] = append(out[c.Path], l.Text)
				}
			}
		}
	}
	return out, nil
}

// namesPackage reports whether a manifest's line gives its package's name:
// `name = "x"` (Cargo.toml, pyproject.toml) or `"name": "x"` (package.json).
func namesPackage(line string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "name")
	if !ok {
		rest, ok = strings.CutPrefix(strings.TrimSpace(line), `"name"`)
	}
	rest = strings.TrimSpace(rest)
	return ok && (strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ":"))
}

// focusNames returns the package names a manifest's changed lines may
// name: the words of the lines that read like a package's name (a module
// path, a crate, an npm package with its scope), without versions,
// numbers and the manifests' own keys.
func focusNames(lines []string) []string {
	var out []string
	for _, l := range lines {
		if i := strings.Index(l, "//"); i >= 0 && !strings.Contains(l[:i], ":") {
			l = l[:i] // a go.mod comment, not a URL
		}
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		for _, w := range strings.FieldsFunc(l, func(r rune) bool { return !isNameRune(r) }) {
			w = strings.Trim(w, ".-/")
			if i := strings.LastIndexByte(w, '.'); i > 0 && manifestKeys[strings.ToLower(w[:i])] {
				w = w[i+1:] // [dependencies.tokio]
			}
			if dependencyName(w) && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

func isNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_.-/@", r)
}

// dependencyName reports whether a word of a manifest's line may name a
// package: it starts with a letter (or @, an npm scope), is longer than a
// letter, and is not a version or one of the manifests' keys.
func dependencyName(w string) bool {
	if len(w) < 2 || manifestKeys[strings.ToLower(w)] {
		return false
	}
	switch c := w[0]; {
	case c == '@':
		return len(w) > 2
	case c == 'v' && len(w) > 1 && w[1] >= '0' && w[1] <= '9':
		return false // v1.2.3
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		return true
	}
	return false
}

// manifestKeys are words the manifests use for their own structure.
var manifestKeys = map[string]bool{
	"require": true, "replace": true, "exclude": true, "retract": true, "module": true, "go": true, "toolchain": true,
	"indirect": true, "godebug": true, "tool": true, "version": true, "name": true, "dependencies": true,
	"devdependencies": true, "peerdependencies": true, "optionaldependencies": true, "dev-dependencies": true,
	"build-dependencies": true, "workspace": true, "package": true, "features": true, "default-features": true,
	"optional": true, "path": true, "git": true, "branch": true, "tag": true, "rev": true, "edition": true,
	"true": true, "false": true, "null": true, "project": true, "tool.poetry": true, "gem": true, "source": true,
	"group": true, "platforms": true, "scripts": true, "main": true, "engines": true, "workspaces": true,
	"overrides": true, "resolutions": true, "private": true, "license": true, "description": true, "members": true,
	"python": true, "requires-python": true, "extras": true, "markers": true, "type": true, "module.exports": true,
	"packages": true, "catalog": true, "catalogs": true, "pod": true, "use": true, "imports": true, "repository": true,
}
