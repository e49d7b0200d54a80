package neighbours

import (
	"context"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// History weights.
const (
	maxCommitFiles = 50  // commits touching more files (renames, formatting) say little
	halfLife       = 200 // a commit this many commits older weighs half as much
	maxLoneCommit  = 8   // a file that shared one commit only counts if that commit was this small

	maxHistoryCommits = 1000 // commits of the changed files read, at most: beyond the 1,000th a commit weighs under 3% (halfLife)
)

// history adds the files that changed together with the changed files,
// in the history before the change. A commit weighs more the more recent it
// is and the fewer files it touched.
func (f *finder) history(ctx context.Context) error {
	if f.pastCommits == nil {
		return nil
	}
	commits, err := f.pastCommits()
	if err != nil {
		return err
	}
	seeds := f.seeds()
	isSeed := map[string]bool{}
	for _, s := range seeds {
		isSeed[s] = true
	}
	weight := map[string]float64{}
	count := map[string]int{}
	smallest := map[string]int{} // files of the smallest commit a file shared
	for i, c := range commits {
		if len(c.Files) > maxCommitFiles || len(c.Files) < 2 {
			continue
		}
		w := math.Pow(0.5, float64(i)/halfLife) / math.Log2(1+float64(len(c.Files)))
		for _, p := range c.Files {
			if !isSeed[p] {
				weight[p] += w
				count[p]++
				if smallest[p] == 0 || len(c.Files) < smallest[p] {
					smallest[p] = len(c.Files)
				}
			}
		}
	}
	for p, w := range weight {
		if count[p] < 2 && smallest[p] > maxLoneCommit {
			continue // once, in a big commit, is chance
		}
		f.add(p, 0, w, fmt.Sprintf("changed together with the change's files in %d earlier commit%s", count[p], plural(count[p])))
	}
	return nil
}

// startHistory starts reading the history in the background, while the
// other signals are computed: `git log` takes its own process, and on a
// large repository as long as the import index.
func (f *finder) startHistory(ctx context.Context) {
	seeds := f.seeds()
	if len(seeds) == 0 || len(seeds) > 200 || f.opts.HistoryDepth < 0 {
		return // a change that large is its own context
	}
	type result struct {
		commits []gitctx.HistoryCommit
		err     error
	}
	done := make(chan result, 1)
	go func() {
		commits, err := f.ch.History(ctx, seeds, maxHistoryCommits, f.opts.HistoryDepth)
		done <- result{commits, err}
	}()
	f.pastCommits = func() ([]gitctx.HistoryCommit, error) {
		r := <-done
		return r.commits, r.err
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Symbol references.
const (
	maxSymbols    = 20
	minSymbolLen  = 4
	maxReferences = 30 // a symbol named in more files is too common to tell
)

// definition finds the names a changed line defines, in the common
// languages.
var definition = regexp.MustCompile(`^\s*(?:func\s+(?:\([^)]*\)\s*)?(\w+)|type\s+(\w+)|(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|class|interface|enum)\s+(\w+)|(?:export\s+)?(?:const|let|var)\s+(\w+)\s*=|(?:async\s+)?def\s+(\w+)|class\s+(\w+)|(?:pub(?:\([^)]*\))?\s+)?(?:fn|struct|trait|enum)\s+(\w+))`)

// references are the files that name the symbols whose definitions the
// change touched.
type references struct {
	found    map[string][]string // name → the files that name it
	definers map[string]string   // name → the file that defines it
}

// startReferences starts the search for the files that name a symbol
// whose definition the change touched (a function whose signature or body
// changed, a type) in the background: it waits for the patches, and
// `git grep` takes its own process.
func (f *finder) startReferences(ctx context.Context) {
	done := make(chan references, 1)
	var err error
	go func() {
		var refs references
		defer func() { done <- refs }()
		var patches map[*gitctx.File]*gitctx.Patch
		if patches, err = f.patches(ctx); err != nil {
			return
		}
		var names []string
		if refs.definers, names = definitions(f.ch.Files, patches); len(names) > 0 {
			refs.found, err = f.ch.Grep(ctx, names)
		}
	}()
	f.named = func() (references, error) {
		refs := <-done
		return refs, err
	}
}

// definitions lists the names (at most maxSymbols) that the changed lines
// define, each with the file that defines it.
func definitions(files []*gitctx.File, patches map[*gitctx.File]*gitctx.Patch) (map[string]string, []string) {
	definers := map[string]string{}
	var names []string
	for _, c := range files {
		patch := patches[c]
		if len(names) == maxSymbols {
			break // the rest could add nothing
		}
		if c.Status == gitctx.Deleted || patch == nil {
			continue
		}
		for _, d := range definedIn(patch) {
			if _, ok := definers[d]; !ok && specific(d) && len(names) < maxSymbols {
				definers[d] = c.Path
				names = append(names, d)
			}
		}
	}
	return definers, names
}

// references adds the files that name a symbol whose definition the
// change touched, found by startReferences.
func (f *finder) references(context.Context) error {
	refs, err := f.named()
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(refs.found) {
		files := refs.found[name]
		if len(files) > maxReferences {
			continue
		}
		for _, p := range files {
			if path.Clean(p) != refs.definers[name] {
				f.add(p, weightReference/spreadOver(len(files)), 0, "it names "+name+", which the change touches in "+refs.definers[name])
			}
		}
	}
	return nil
}

// definedIn lists the names defined on changed lines of a patch, and by the
// functions the hunks sit in.
func definedIn(p *gitctx.Patch) []string {
	var out []string
	add := func(line string) {
		if m := definition.FindStringSubmatch(line); m != nil {
			for _, g := range m[1:] {
				if g != "" && !slices.Contains(out, g) {
					out = append(out, g)
					break
				}
			}
		}
	}
	for _, h := range p.Hunks {
		add(h.Section)
		for _, l := range h.Lines {
			if l.Op != ' ' {
				add(l.Text)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return exported(out[i]) && !exported(out[j]) })
	return out
}

// specific reports whether a name is specific enough to search for: of
// two words or more (camelCase, snake_case) and minSymbolLen letters. A
// one-word name (String, Config, Equal, run) is named in too many files to
// tell anything, and listing its every use is what makes the search slow.
func specific(name string) bool {
	if len(name) < minSymbolLen {
		return false
	}
	words := 1
	for i := 1; i < len(name); i++ {
		prev, c := name[i-1], name[i]
		if (c == '_' && i < len(name)-1) || (isUpper(c) && !isUpper(prev) && prev != '_') {
			words++
		}
	}
	return words >= 2
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// exported reports whether a name starts with an upper-case letter: such
// names are used across files.
func exported(name string) bool {
	return name != "" && strings.ToUpper(name[:1]) == name[:1]
}

// patches are the change's patches: the caller's, or streamed once.
func (f *finder) patches(ctx context.Context) (map[*gitctx.File]*gitctx.Patch, error) {
	if f.opts.WaitPatches != nil {
		return f.opts.WaitPatches()
	}
	if f.opts.Patches != nil {
		return f.opts.Patches, nil
	}
	out := map[*gitctx.File]*gitctx.Patch{}
	err := f.ch.Patches(ctx, func(c *gitctx.File) bool { return c.Status != gitctx.Deleted }, 1<<20,
		func(c *gitctx.File, p *gitctx.Patch) error {
			out[c] = p
			return nil
		})
	return out, err
}
