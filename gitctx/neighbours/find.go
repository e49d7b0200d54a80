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
//   - same-directory siblings, a weak signal.
//
// A paired test ranks above everything else; imports, references, history
// and shared words are weighed together (see directShare and historyScale);
// a sibling with nothing else ranks below all of them. A guide file
// (readme, manifest) is returned as a guide unless it has evidence beyond
// its directory and one shared commit: a go.mod or package.json that keeps
// changing with the changed files is a neighbour.
package neighbours

import (
	"context"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
)

// Options configure Find.
type Options struct {
	Max          int                    // neighbours to return (default 12)
	HistoryDepth int                    // how many recent commits to mine (0: DefaultHistoryDepth; negative: none)
	Skip         func(path string) bool // files never chosen (credentials, vendored, binary by name…)
	// Patches are the change's patches when the caller has them already;
	// without them Find streams the diff once.
	Patches map[*gitctx.File]*gitctx.Patch
	// WaitPatches, when set, is used instead of Patches: it returns the
	// patches once the caller has read them, so that Find can start (its
	// history and import index need none) while the diff is still being
	// read. Find calls it once, from a goroutine of its own.
	WaitPatches func() (map[*gitctx.File]*gitctx.Patch, error)
	// PatchStream, when set, hands Find the patches as the diff is parsed,
	// in the order of the change's files, and is closed once the diff is
	// read: the search for the names the change defines and uses starts
	// as soon as the first patches hold as many as it searches for. It
	// carries the patches WaitPatches returns, or the first of them; Find
	// may stop reading it at any time, so a sender must never wait on it.
	PatchStream <-chan FilePatch
	// GuidesOnly skips the search for neighbours (--no-neighbours): guide
	// files are still found.
	GuidesOnly bool
	// MaxGuides bounds the guide files returned (default DefaultMaxGuides),
	// and MaxGuidesPerKind those of each kind (default
	// DefaultMaxGuidesPerKind): instructions for agents, readme,
	// contribution guide, manifest. The first found are kept.
	MaxGuides        int
	MaxGuidesPerKind int
	// Memo, if set, keeps the neighbours of a range for later runs (see
	// Memo). MemoKey names Skip: two runs whose Skip answers alike may
	// share an entry only if their MemoKeys are equal. With Skip set and
	// MemoKey "", the memo is not used.
	Memo    *Memo
	MemoKey string
	// noPerl makes the symbol search behave as with a git built without
	// Perl-compatible regular expressions (tests).
	noPerl bool
	// wordsEverywhere, if set, stands in for maxWordsEverywhere (tests).
	wordsEverywhere int
}

// Defaults of Options.
const (
	DefaultMax              = 12
	DefaultHistoryDepth     = 10000
	DefaultMaxGuides        = 25
	DefaultMaxGuidesPerKind = 5
)

// Neighbour is a file chosen for its relation to the change.
type Neighbour struct {
	Path    string
	Score   float64
	Reasons []string
	// Lock marks the lock file of a changed manifest. A pack shows only
	// its entries for the package names in Focus, which the manifest's
	// changed lines name (none, when Focus is empty).
	Lock  bool     `json:",omitempty"`
	Focus []string `json:",omitempty"`
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

// Tiers of the score: a file's tier is set by its strongest relation; the
// fraction within a tier ranks files of one tier by the rest of the
// evidence.
const (
	tierTest    = 3.0 // a paired test, or the code a changed test covers
	tierRelated = 2.0 // history, imports, references
	tierSibling = 1.0 // only in the same directory
)

// candidate gathers the evidence for one file.
type candidate struct {
	path    string
	direct  float64 // test, import and reference weight
	history float64 // co-change weight
	commits int     // earlier commits shared with the changed files
	words   float64 // shared words of the changed lines (see words)
	sibling bool
	reasons []string
	lock    bool     // the lock file of a changed manifest (see locks)
	focus   []string // the package names its excerpt is cut to
}

// score ranks a candidate: its tier, and within the tier a fraction for the
// rest of its evidence. maxHistory is the largest history weight of all
// candidates.
func (c *candidate) score(maxHistory float64) float64 {
	spread := func(x float64) float64 { return x / (x + 1) } // 0 ≤ … < 1
	switch {
	case c.direct >= weightTest:
		return tierTest + 0.5*spread(c.direct) + 0.49*spread(c.history)
	case c.history > 0 || c.direct > 0 || c.words > 0:
		h := 0.0
		if maxHistory > 0 {
			h = historyScale * c.history / maxHistory
		}
		return tierRelated + 0.99*spread(h+directShare*c.direct+c.words)
	}
	return tierSibling
}

// historyScale is what the history of the file that changed most with the
// change's files weighs beside imports, references and shared words; the
// others weigh in proportion. A changed file with a long history links many
// files by many commits, one with a short history few: measured in
// absolute terms, history drowned the other evidence of the first and
// hardly counted for the second. On the eight tuning repositories (two
// samplings, 1,080 samples) weighing it against the best moved the means
// of hit@3 by +0.016 and +0.009, of recall@10 by -0.001 and +0.014, of MRR
// by +0.010 and +0.014; scales of 2.5 to 4 ranked within 0.01 of 3
// (docs/neighbours.md, tenth round).
const historyScale = 3.0

// directShare is what an import or a reference adds to the evidence of
// history. Measured on real commits (see README, "Neighbours"), ranking
// every import above every file linked by history cost 0.05 to 0.20 of
// hit@3 against a plain co-change ranking: a file a registry imports, or
// one of many importers, is weaker evidence than a file that keeps
// changing with the seed. Imports and references therefore add to
// history, and break its ties; only a paired test outranks it.
const directShare = 0.2

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

func (opts *Options) defaults() {
	if opts.Max <= 0 {
		opts.Max = DefaultMax
	}
	if opts.HistoryDepth == 0 {
		opts.HistoryDepth = DefaultHistoryDepth
	}
	if opts.MaxGuides <= 0 {
		opts.MaxGuides = DefaultMaxGuides
	}
	if opts.MaxGuidesPerKind <= 0 {
		opts.MaxGuidesPerKind = DefaultMaxGuidesPerKind
	}
}

// search is Find without the memo.
func search(ctx context.Context, ch *gitctx.Change, opts Options) ([]Neighbour, []Guide, error) {
	f := &finder{ch: ch, opts: opts, cands: map[string]*candidate{}, files: map[string]gitctx.TreeEntry{}, changed: map[string]bool{}, skipped: map[string]bool{}, moved: map[string]string{}}
	if !opts.GuidesOnly {
		// The history and the search for the change's names need only the
		// changed files and their patches: they start before the tree is
		// listed, since they are often the slowest steps (on a long
		// history, a file with few commits has git walk to the root
		// commit; the names are searched for in every file).
		f.ch.PrepareSearch(ctx)
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
	for _, step := range []func(context.Context) error{f.tests, f.locks, f.imports, f.references, f.history, f.words, f.siblings, f.focusLocks} {
		if err := step(ctx); err != nil {
			return nil, nil, err
		}
	}
	ns := f.ranked()
	return ns, withoutNeighbours(guides, ns), nil
}

// withoutNeighbours drops the guides that were chosen as neighbours: a
// manifest that keeps changing with the change's files (a release's
// package.json beside its changelog) is offered as a neighbour, ranked and
// with its reasons, not twice.
func withoutNeighbours(guides []Guide, ns []Neighbour) []Guide {
	chosen := make(map[string]bool, len(ns))
	for _, n := range ns {
		chosen[n.Path] = true
	}
	return slices.DeleteFunc(guides, func(g Guide) bool { return chosen[g.Path] })
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
	// pastCommits waits for the history read by startHistory (nil: none).
	pastCommits func() ([]gitctx.HistoryCommit, error)
	// pastHunks waits for the parts of the seeds past commits changed (nil: none).
	pastHunks func() ([]gitctx.HunkCommit, error)
	// named and goImporters wait for the searches started by startNames
	// and startImporters.
	named       func() (*symbols, error)
	goImporters func() (map[string][]string, error)
	// wordUses waits for the search started by startWords (nil: none):
	// file → word of the changed lines → its uses in the file.
	wordUses func() (map[string]map[string]int, error)
	// patches' answer, once asked
	patchesOnce sync.Once
	patchList   map[*gitctx.File]*gitctx.Patch
	patchErr    error
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
	c.direct += direct
	c.history += history
	if reason != "" && !slices.Contains(c.reasons, reason) && len(c.reasons) < 6 {
		c.reasons = append(c.reasons, reason)
	}
	return c
}

// siblings adds the files of the same kind beside each changed file: a
// weak signal. (A README's siblings are the other documents beside it, not
// the build files at the repository root.)
func (f *finder) siblings(context.Context) error {
	dirs := map[string][]string{}
	for _, s := range f.seeds() {
		dirs[path.Dir(s)] = append(dirs[path.Dir(s)], s)
	}
	for p := range f.files {
		for _, seed := range dirs[path.Dir(p)] {
			if !sameKind(p, seed) {
				continue
			}
			f.add(p, 0, 0, "in the same directory as "+seed)
			if c := f.cands[p]; c != nil {
				c.sibling = true
			}
			break
		}
	}
	return nil
}

// sameKind reports whether two files are written in the same language, or
// share an extension.
func sameKind(a, b string) bool {
	if la := languageOf(a); la != "" {
		return la == languageOf(b)
	}
	return strings.EqualFold(path.Ext(a), path.Ext(b))
}

// ranked orders the candidates by score, then by path, and keeps Max.
func (f *finder) ranked() []Neighbour {
	maxHistory := 0.0
	for _, c := range f.cands {
		maxHistory = max(maxHistory, c.history)
	}
	var out []Neighbour
	for _, c := range f.cands {
		if f.guide[c.path] && c.direct == 0 && c.words == 0 && c.commits < 2 {
			continue // a guide beside a changed file, or added with it, is offered as a guide
		}
		out = append(out, Neighbour{Path: c.path, Score: round(c.score(maxHistory)), Reasons: c.reasons, Lock: c.lock, Focus: c.focus})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Path < out[j].Path
	})
	if len(out) > f.opts.Max {
		out = out[:f.opts.Max]
	}
	return out
}

// generated reports whether a file is written by a tool rather than a
// person: a lock file, minified code, a source map. Such a file changes with
// the code that it follows, often many times over, and tells a reviewer
// nothing that the change does not; it is never offered as a neighbour.
func generated(p string) bool {
	switch base := path.Base(p); base {
	case "go.sum", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock",
		"Cargo.lock", "poetry.lock", "Pipfile.lock", "uv.lock", "pdm.lock", "composer.lock", "Gemfile.lock",
		"mix.lock", "flake.lock", "packages.lock.json", "gradle.lockfile", "Package.resolved", "pubspec.lock":
		return true
	default:
		return strings.HasSuffix(base, ".min.js") || strings.HasSuffix(base, ".min.css") || strings.HasSuffix(base, ".map")
	}
}

func round(x float64) float64 { return math.Round(x*1000) / 1000 }

// guideNames are the files that say how a project works, in the order
// they are offered.
var guideNames = []string{"AGENTS.md", "CLAUDE.md", "README.md", "README", "README.rst", "CONTRIBUTING.md",
	"go.mod", "package.json", "pyproject.toml", "Cargo.toml", "pom.xml", "build.gradle", "Gemfile", "setup.py"}

// guides lists the guide and manifest files at the repository root (and,
// for the nearest module, beside the changed files), unless changed: at
// most MaxGuidesPerKind of each kind and MaxGuides in all, the root's
// first.
func (f *finder) guides() []Guide {
	var out []Guide
	seen := map[string]bool{}
	perKind := map[string]int{}
	addGuide := func(p, kind, reason string) {
		if len(out) >= f.opts.MaxGuides || perKind[kind] >= f.opts.MaxGuidesPerKind {
			return
		}
		if _, ok := f.files[p]; ok && !seen[p] && !f.changed[p] && !f.skip(p) {
			seen[p] = true
			perKind[kind]++
			out = append(out, Guide{Path: p, Reason: reason})
		}
	}
	for _, n := range guideNames {
		addGuide(n, guideKind(n), "the project's "+guideKind(n))
	}
	for _, s := range f.seeds() {
		for d := path.Dir(s); d != "." && d != "/"; d = path.Dir(d) {
			for _, n := range []string{"README.md", "go.mod", "package.json", "pyproject.toml", "Cargo.toml"} {
				addGuide(d+"/"+n, guideKind(n), "the "+guideKind(n)+" of "+d)
			}
		}
	}
	return out
}

func guideKind(name string) string {
	switch strings.ToLower(name) {
	case "agents.md", "claude.md":
		return "instructions for agents"
	case "contributing.md":
		return "contribution guide"
	case "readme.md", "readme", "readme.rst":
		return "readme"
	}
	return "manifest"
}
