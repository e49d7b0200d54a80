package neighbours

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// Module pins: a repository of several Go modules (etcd keeps a dozen,
// each with its go.mod and go.sum) bumps a dependency in every module
// that requires it, in one commit, and each module's go.sum moves with its
// go.mod. So when the change moves a dependency from one version to
// another in a go.mod or a go.sum, the other modules' go.mod and go.sum
// files that still pin the version it moves from are the bump's other
// halves, or the modules it leaves behind: either way what a reviewer
// checks next. History finds the other go.mod files (they keep changing
// together) but not which of them require the dependency, and never the
// go.sum files, which are written by a tool and are neighbours only here
// and as a changed manifest's own lock.
//
// A go.sum pins a version by its module line (`mod v1.2.3 h1:…`); the
// `mod v1.2.3/go.mod` lines it keeps for the versions it once resolved do
// not count, unless the change moves the pin on such lines alone (see
// pin). Without Perl-compatible expressions in git the search is by
// whole words, and they do.
//
// On etcd's held-out samples (three samplings of 60; docs/neighbours.md,
// nineteenth round) recall@10 rose from 0.709 / 0.720 / 0.728 to 0.762 /
// 0.768 / 0.814: of the other modules' files offered, 198 of 238 were
// right. Repositories of one module rank as before.
const maxPins = 64 // distinct moved pins searched for

// pinFiles are the base names of the files that pin Go modules' versions.
var pinFiles = []string{"go.mod", "go.sum", "go.work.sum"}

// pin is a dependency the change moves: its module path, the version it
// moves from and the one it moves to. A go.sum lists the go.mod files of
// the versions its module's requirements name, `mod v1.2.3/go.mod h1:…`,
// beside the modules it builds with; modOnly marks a pin moved on such
// lines alone (a requirement of a requirement), which the other modules'
// go.sum files hold on such lines too.
type pin struct {
	module, from, to string
	modOnly          bool
}

// pinLine matches a line of a go.mod's require block, a require directive
// or a go.sum's line: the module path (with a dot, as a module path's
// first element has), its version, and "/go.mod" on a go.sum's line for
// the module's go.mod.
var pinLine = regexp.MustCompile(`^\s*(?:require\s+)?([A-Za-z0-9_~.-]+\.[A-Za-z0-9_~./+-]+)\s+(v[0-9][^\s/]*)(/go\.mod)?(?:\s|$)`)

// movedPins returns the dependencies that the go.mod and go.sum seeds'
// patches move from one version to another, the first maxPins in the
// order of their removed lines: a module a removed line pins at a version
// no added line pins it at, which an added line pins at another. A
// dependency dropped or newly required is not moved.
func movedPins(goSeeds []string, files []*gitctx.File, patches map[*gitctx.File]*gitctx.Patch) []pin {
	type version struct{ module, v string }
	added := map[version]bool{}
	to := map[string]string{}
	var removed []version
	onModule := map[version]bool{} // removed on a module's line, not its go.mod's alone
	for l := range seedLines(goSeeds, files, patches) {
		m := pinLine.FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		p := version{m[1], m[2]}
		if l.Op == '+' {
			added[p] = true
			to[p.module] = p.v
			continue
		}
		removed = append(removed, p)
		onModule[p] = onModule[p] || m[3] == ""
	}
	var out []pin
	for _, p := range removed {
		if added[p] || to[p.module] == "" || len(out) == maxPins ||
			slices.ContainsFunc(out, func(q pin) bool { return q.module == p.module && q.from == p.v }) {
			continue
		}
		out = append(out, pin{module: p.module, from: p.v, to: to[p.module], modOnly: !onModule[p]})
	}
	return out
}

// pins adds the go.mod and go.sum files that pin a dependency at a version
// the change moves it from (see movedPins): each ranks with a paired test,
// first by the number of such pins it holds (see candidate.score). A
// go.sum is a lock file: the pack shows its entries for the moved modules
// alone.
func (f *finder) pins(ctx context.Context) error {
	var goSeeds []string
	for _, s := range f.seeds() {
		if slices.Contains(pinFiles, path.Base(s)) {
			goSeeds = append(goSeeds, s)
		}
	}
	if len(goSeeds) == 0 {
		return nil // and the patches need not be waited for
	}
	patches, err := f.patches(ctx)
	if err != nil {
		return err
	}
	moved := movedPins(goSeeds, f.ch.Files, patches)
	if len(moved) == 0 {
		return nil
	}
	holds, err := f.searchPins(ctx, moved)
	if err != nil {
		return err
	}
	limit := len(holds)
	if len(goSeeds) < len(f.seeds()) {
		limit = max(1, f.opts.Max/2)
	}
	paired := f.pairedWith(goSeeds)
	for _, p := range pinHolders(f.pinnable(holds), holds, paired, limit) {
		held := holds[p]
		c := f.record(p, weightTest, 0, pinReason(held))
		c.pins, c.paired = len(held), paired[p]
		if path.Base(p) != "go.mod" {
			c.lock = true
			for _, q := range held {
				if len(c.focus) < maxFocus && !slices.Contains(c.focus, q.module) {
					c.focus = append(c.focus, q.module)
				}
			}
		}
	}
	return nil
}

// pairedWith returns the files paired with a changed one: a changed
// manifest's lock (see locks), a changed go.sum's go.mod.
func (f *finder) pairedWith(goSeeds []string) map[string]bool {
	paired := map[string]bool{}
	for _, s := range goSeeds {
		if path.Base(s) == "go.sum" {
			paired[path.Join(path.Dir(s), "go.mod")] = true
		}
	}
	for p, c := range f.cands {
		if c.paired {
			paired[p] = true
		}
	}
	return paired
}

// pinnable returns the files of holds that may be neighbours.
func (f *finder) pinnable(holds map[string][]pin) []string {
	var out []string
	for p := range holds {
		if _, ok := f.files[p]; ok && slices.Contains(pinFiles, path.Base(p)) && !f.changed[p] && !f.skip(p) {
			out = append(out, p)
		}
	}
	return out
}

// pinHolders orders the files holding pins, those holding the most first
// (then by path), and keeps of those not paired with a changed file (a
// changed go.mod's go.sum, a changed go.sum's go.mod) at most limit. A
// change of code beside its go.mod gives the other modules' files half the
// neighbours at most: a repository whose modules move on their own
// (terraform's backends) would otherwise fill them all with the modules a
// bump leaves behind, and leave out the changed code's tests.
func pinHolders(files []string, holds map[string][]pin, paired map[string]bool, limit int) []string {
	slices.SortFunc(files, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(holds[b]), len(holds[a])), strings.Compare(a, b))
	})
	kept := files[:0]
	for _, p := range files {
		if !paired[p] {
			if limit == 0 {
				continue
			}
			limit--
		}
		kept = append(kept, p)
	}
	return kept
}

// searchPins returns the files that hold each moved pin, by path, with the
// pins each holds in movedPins' order.
func (f *finder) searchPins(ctx context.Context, moved []pin) (map[string][]pin, error) {
	byText := make(map[string]pin, len(moved))
	var alts, words []string
	for _, p := range moved {
		text := p.module + " " + p.from
		byText[text] = p
		alt := quotePerl(text)
		if p.modOnly {
			alt += `(?:/go\.mod)?`
		}
		alts = append(alts, alt)
		words = append(words, text)
	}
	holds := map[string][]pin{}
	found := func(file string, match []byte) {
		file = path.Clean(file)
		p, ok := byText[strings.TrimSuffix(strings.TrimSpace(string(match)), "/go.mod")]
		if ok && !slices.Contains(holds[file], p) {
			holds[file] = append(holds[file], p)
		}
	}
	err := gitctx.ErrNoPerl
	if !f.opts.noPerl {
		// A pin is a word of its own, followed by a space or the line's
		// end (or by "/go.mod", for a pin moved on such lines alone).
		pattern := `(?<!\S)(?:` + strings.Join(alts, "|") + `)(?=\s|$)`
		err = f.ch.GrepPerlIn(ctx, pinFiles, []string{pattern}, found)
	}
	if errors.Is(err, gitctx.ErrNoPerl) || perlFailed(ctx, err) {
		clear(holds)
		err = f.ch.GrepIn(ctx, pinFiles, words, found)
	}
	for _, held := range holds {
		slices.SortStableFunc(held, func(a, b pin) int {
			return cmp.Compare(slices.Index(moved, a), slices.Index(moved, b))
		})
	}
	return holds, err
}

// pinReason says which moved pins a file holds: the first by name, the
// rest by their number.
func pinReason(held []pin) string {
	p := held[0]
	s := fmt.Sprintf("it pins %s at %s, which the change moves to %s", p.module, p.from, p.to)
	if n := len(held) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more dependenc%s the change moves)", n, pluralY(n))
	}
	return s
}

func pluralY(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}
