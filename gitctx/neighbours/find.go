// Package neighbours finds the files a reviewer needs beside a change: its
// key neighbours, ranked, each with a score and the reasons it was chosen,
// and the repository's guide files.
//
// Signals, strongest first:
//
//   - tests paired with a changed file, and the code a changed test covers;
//   - imports either way: files a changed file imports, and files that
//     import it (Go by go/parser with the module path from go.mod;
//     JavaScript/TypeScript, Python, Java/Kotlin, Rust, C/C++ and Ruby by
//     their import syntax);
//   - files that name a symbol whose definition the change touched, and
//     files that define a symbol named on a changed line;
//   - co-change: files that changed together with the changed files in the
//     history before the change, weighted by recency and by how few files
//     each commit touched;
//   - shared words: for a small change, the files that use the uncommon
//     words of its changed lines (see words.go);
//   - removed text: for a small change, the few files that still use a
//     name its changed lines stop using, or still hold a line it removes
//     (see removed.go);
//   - module pins: the other Go modules' go.mod and go.sum files that pin
//     a dependency at the version a changed go.mod or go.sum moves it from
//     (see pins.go);
//   - data files: the files that name a changed fixture, or a changed file
//     never shown, by its file name (see datafiles.go);
//   - same-directory siblings, a weak signal.
//
// A paired test (or a test naming a changed data file, a changed
// manifest's lock, a module pinning what the change moves) ranks above
// everything else; imports, references, history, shared words and
// removed text are weighed together (see directShare and historyScale);
// a sibling with nothing else ranks below all of them. A guide file
// (readme, manifest) is returned as a guide unless it has evidence beyond
// its directory and one shared commit: a go.mod or package.json that keeps
// changing with the changed files is a neighbour.
package neighbours

import (
	"context"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
)

// Neighbour is a file chosen for its relation to the change.
type Neighbour struct {
	Path    string
	Score   float64
	Reasons []string
	// Lock marks a lock file: a changed manifest's, or another Go
	// module's go.sum that pins what the change moves (see pins). A pack
	// shows only its entries for the package names in Focus, which the
	// manifest's changed lines name, or the moved modules (none, when
	// Focus is empty).
	Lock  bool     `json:",omitempty"`
	Focus []string `json:",omitempty"`
	// Names are the names of code it was chosen for (those it defines
	// that the change's lines name, and those the change defines that it
	// names: the reasons say which), then the uncommon words of the
	// changed lines it uses, the rarest first, then for Go the names an
	// import relation shares with it. A pack that cannot show the file
	// whole shows the lines about them.
	Names []string `json:",omitempty"`
}

// FilePatch is a changed file and its patch.
type FilePatch struct {
	File  *gitctx.File
	Patch *gitctx.Patch
}

// Guide is a file that tells a reviewer how the project works.
type Guide struct {
	Path   string
	Reason string
}

// Find returns the ranked neighbours of the change's files and its guide
// files.
func Find(ctx context.Context, ch *gitctx.Change, opts Options) ([]Neighbour, []Guide, error) {
	opts.defaults()
	key, memo := opts.Memo.key(ch, opts)
	if memo {
		if e, ok := opts.Memo.get(key); ok {
			return e.Neighbours, e.Guides, nil
		}
	}
	if opts.Skip == nil {
		opts.Skip = func(string) bool { return false }
	}
	ns, guides, err := search(ctx, ch, opts)
	if err == nil && memo {
		opts.Memo.put(key, memoEntry{Neighbours: ns, Guides: guides})
	}
	return ns, guides, err
}

// search is Find without the memo.
func search(ctx context.Context, ch *gitctx.Change, opts Options) ([]Neighbour, []Guide, error) {
	f := &finder{ch: ch, opts: opts, cands: map[string]*candidate{}, files: map[string]gitctx.TreeEntry{}, changed: map[string]bool{}, skipped: map[string]bool{}, moved: map[string]string{}}
	if !opts.GuidesOnly {
		// The history and the search for the change's names need only the
		// changed files and their patches: they start before the tree is
		// listed, since they are often the slowest steps (git diffs every
		// commit of the history's window; the names are searched for in
		// every file).
		f.ch.PrepareSearch(ctx, opts.SkipDirs)
		f.startHistory(ctx)
		f.startNames(ctx)
	}
	tree, err := ch.Tree(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range tree {
		if e.Mode != gitctx.ModeSubmodule && e.Mode != gitctx.ModeSymlink {
			f.files[e.Path] = e
			if !gitctx.InDirNamed(e.Path, opts.SkipDirs) {
				f.searched++
			}
		}
	}
	for _, c := range ch.Files {
		f.changed[c.Path] = true
		if c.OldPath != "" {
			f.changed[c.OldPath] = true
		}
	}
	guides := f.guides()
	if opts.GuidesOnly {
		return nil, guides, nil
	}
	f.guide = make(map[string]bool, len(guides))
	for _, g := range guides {
		f.guide[g.Path] = true
	}
	f.startGo(ctx)
	f.startImporters(ctx)
	f.startWords(ctx)
	f.startDataNames(ctx)
	for _, step := range []func(context.Context) error{f.tests, f.locks, f.pins, f.imports, f.references, f.history, f.alike, f.words, f.removed, f.dataNames, f.siblings, f.focusLocks} {
		if err := step(ctx); err != nil {
			return nil, nil, err
		}
	}
	ns := f.ranked()
	return ns, withoutNeighbours(guides, ns), nil
}

// finder holds the state of one Find.
type finder struct {
	ch      *gitctx.Change
	opts    Options
	files   map[string]gitctx.TreeEntry // the repository's files on the new side
	changed map[string]bool
	cands   map[string]*candidate
	skipped map[string]bool     // Skip's answers, asked once a path
	guide   map[string]bool     // the guide files: neighbours only on evidence beyond a shared directory
	moved   map[string]string   // movedTo's answers
	byBase  map[string][]string // the files by base name, for movedTo
	seedsOf []string            // seeds, once known
	quietOf []string            // quietSeeds, once known
	// searched counts the files the searches read: those outside the
	// directories Options.SkipDirs names.
	searched int
	// pastCommits waits for the history read by startHistory (nil: none);
	// it may be asked more than once, as may pastHunks.
	pastCommits func() ([]gitctx.HistoryCommit, error)
	// pastHunks waits for the parts of the seeds past commits changed (nil: none).
	pastHunks func() ([]gitctx.HunkCommit, error)
	// named and goImporters wait for the searches started by startNames
	// and startImporters.
	named       func() (*symbols, error)
	goImporters func() (map[string][]string, error)
	// wordUses waits for the search started by startWords (nil: none).
	wordUses func() (*wordSearch, error)
	// twinUses waits for the search started by startTwins (nil: none):
	// file → the removed lines it still holds.
	twinUses func() (map[string]map[string]bool, error)
	// patches' answer, once asked
	patchesOnce sync.Once
	patchList   map[*gitctx.File]*gitctx.Patch
	patchErr    error
	// dataNamers waits for the search started by startDataNames (nil:
	// none): file → changed data files it names.
	dataNamers func() (map[string][]string, error)
	// goPackages waits for the go.mod files read by startGo.
	goPackages func() (goPackages, error)
	// manifests are the changed manifests whose lock files locks chose.
	manifests []lockOf
}

// seeds are the changed files that still exist and may be shown, the
// starting points.
func (f *finder) seeds() []string {
	if f.seedsOf == nil {
		f.seedsOf = []string{}
		for _, c := range f.ch.Files {
			if c.Status != gitctx.Deleted && !f.skip(c.Path) {
				f.seedsOf = append(f.seedsOf, c.Path)
			}
		}
	}
	return f.seedsOf
}

// maxQuietSeeds bounds the changed files that are never shown but still
// lead to neighbours (see Options.Quiet).
const maxQuietSeeds = 20

// quietSeeds are the changed files that still exist and are never shown,
// but that Options.Quiet lets lead to neighbours by their history and by
// the files that name them.
func (f *finder) quietSeeds() []string {
	if f.quietOf == nil {
		f.quietOf = []string{}
		for _, c := range f.ch.Files {
			if len(f.quietOf) == maxQuietSeeds {
				break
			}
			if c.Status != gitctx.Deleted && f.opts.Quiet != nil && f.skip(c.Path) && f.opts.Quiet(c.Path) {
				f.quietOf = append(f.quietOf, c.Path)
			}
		}
	}
	return f.quietOf
}

// skip asks Options.Skip once a path: its rules match globs, and the same
// paths come up again and again.
func (f *finder) skip(p string) bool {
	s, ok := f.skipped[p]
	if !ok {
		s = f.opts.Skip(p)
		f.skipped[p] = s
	}
	return s
}

// add records evidence for a file, if it may be chosen.
func (f *finder) add(p string, direct, history float64, reason string) {
	if f.mayChoose(p) {
		f.record(p, direct, history, reason)
	}
}

// relate records direct evidence for a file that comes from one changed
// file, seed, whatever its lines: a test of it, an import either way, a
// file that names it (see candidate.strongest).
func (f *finder) relate(seed, p string, direct float64, reason string) {
	if f.mayChoose(p) {
		f.record(p, 0, 0, reason).addDirect(seed, direct)
	}
}

// mayChoose reports whether a file may be a neighbour: in the change's
// tree, not changed, not skipped, not written by a tool.
func (f *finder) mayChoose(p string) bool {
	if f.changed[p] || f.skip(p) || generated(p) {
		return false
	}
	_, ok := f.files[p]
	return ok
}

// record adds evidence for a file that may be chosen, and returns its
// candidate.
func (f *finder) record(p string, direct, history float64, reason string) *candidate {
	c := f.cands[p]
	if c == nil {
		c = &candidate{path: p}
		f.cands[p] = c
	}
	c.addDirect("", direct)
	c.history += history
	if reason != "" && !slices.Contains(c.reasons, reason) && len(c.reasons) < 6 {
		c.reasons = append(c.reasons, reason)
	}
	return c
}

// generated reports whether a file is written by a tool rather than a
// person: a lock file, minified code, a source map. Such a file changes with
// the code that it follows, often many times over, and tells a reviewer
// nothing that the change does not; it is never offered as a neighbour.
func generated(p string) bool {
	switch base := path.Base(p); base {
	case "go.sum", "go.work.sum", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock",
		"bun.lockb", "deno.lock", "Cargo.lock", "poetry.lock", "Pipfile.lock", "uv.lock", "pdm.lock", "composer.lock",
		"Gemfile.lock", "gems.locked", "Podfile.lock", "mix.lock", "flake.lock", "packages.lock.json", "gradle.lockfile",
		"Package.resolved", "pubspec.lock", "Chart.lock":
		return true
	default:
		return strings.HasSuffix(base, ".min.js") || strings.HasSuffix(base, ".min.css") || strings.HasSuffix(base, ".map")
	}
}
