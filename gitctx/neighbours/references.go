package neighbours

import (
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
)

// Symbol references, both ways: the files that name a symbol whose
// definition the change touched, and the files that define a symbol named
// on a changed line.
const (
	maxSymbols    = 20 // defined names searched for
	maxUsed       = 30 // names on changed lines searched for (beside maxSymbols)
	minSymbolLen  = 4
	maxReferences = 30 // a symbol named in more files is too common to tell
	maxDefiners   = 3  // a symbol defined in more files is too common to tell
	fewUsers      = 10 // a name used in more files tells less of its definition (nameUsers)
)

// symbols are what the change's patches say about names: the names the
// changed lines define, and the other names they use (a function the
// change starts or stops calling).
type symbols struct {
	defined   map[string]string // name → the changed file that defines it
	used      map[string]string // name → the changed file whose changed lines name it
	found     map[string][]string
	definedBy map[string][]string
	langs     map[string]bool // the languages (languageOf) of the files the names come from
}

// startNames starts the search for the names of the change (see symbols)
// in the background: a `git grep` of its own, as soon as the patches hold
// the names.
func (f *finder) startNames(ctx context.Context) {
	f.named = sync.OnceValues(func() (*symbols, error) {
		s, err := f.changeSymbols(ctx)
		if err != nil {
			return nil, err
		}
		if err := s.search(ctx, f.ch, f.opts.noPerl); err != nil {
			return nil, err
		}
		return s, nil
	})
	go func() { _, _ = f.named() }()
}

// startImporters starts the search for the importers of the Go seeds'
// packages in the background: a `git grep` of its own, as soon as the
// import paths are known.
func (f *finder) startImporters(ctx context.Context) {
	f.goImporters = sync.OnceValues(func() (map[string][]string, error) {
		pkgs, err := f.goPackages()
		if err != nil {
			return nil, err
		}
		return searchImporters(ctx, f.ch, pkgs.paths, f.opts.noPerl)
	})
	go func() { _, _ = f.goImporters() }()
}

// symbolsOf lists the names (at most maxSymbols) that the changed lines
// define, each with the file that defines it, and the other names (at
// most maxUsed) on changed lines, each with the first file naming it.
func symbolsOf(files []*gitctx.File, patches map[*gitctx.File]*gitctx.Patch) *symbols {
	s := newSymbols()
	for _, c := range files {
		s.add(c, patches[c])
	}
	return s.done()
}

// changeSymbols is symbolsOf of the change. With a patch stream it takes
// the patches as the diff is parsed, and stops once they hold as many
// names as are searched for: the names of a large change are known long
// before its diff is read, and the search for them can start.
func (f *finder) changeSymbols(ctx context.Context) (*symbols, error) {
	if f.opts.PatchStream != nil {
		s := newSymbols()
		for fp := range f.opts.PatchStream {
			if s.add(fp.File, fp.Patch) {
				return s.done(), nil
			}
		}
	}
	patches, err := f.patches(ctx)
	if err != nil {
		return nil, err
	}
	return symbolsOf(f.ch.Files, patches), nil
}

func newSymbols() *symbols {
	return &symbols{defined: map[string]string{}, used: map[string]string{}, found: map[string][]string{},
		definedBy: map[string][]string{}, langs: map[string]bool{}}
}

// add takes the names of a changed file's patch, the files taken in the
// change's order. It reports whether the lists are full: no later patch
// can change them.
func (s *symbols) add(c *gitctx.File, patch *gitctx.Patch) (full bool) {
	if c.Status != gitctx.Deleted && patch != nil {
		before := len(s.defined) + len(s.used)
		defer func() {
			if len(s.defined)+len(s.used) > before {
				s.langs[languageOf(c.Path)] = true
			}
		}()
		for _, d := range definedIn(patch, len(s.defined) < maxSymbols) {
			if _, ok := s.defined[d]; !ok && specific(d) && len(s.defined) < maxSymbols {
				s.defined[d] = c.Path
			}
		}
		// past maxUsed names, a large change's every line would be read for
		// more than it tells
		if len(s.used) < maxUsed {
			for _, u := range usedIn(patch, maxUsed-len(s.used)) {
				if _, ok := s.used[u]; !ok && len(s.used) < maxUsed {
					s.used[u] = c.Path
				}
			}
		}
	}
	return len(s.defined) == maxSymbols && len(s.used) == maxUsed
}

// done drops the used names the change defines: their users are found the
// other way.
func (s *symbols) done() *symbols {
	for u := range s.used {
		if _, ok := s.defined[u]; ok {
			delete(s.used, u)
		}
	}
	return s
}

// search reads, with `git grep -P`, which files name each defined name
// and which define each used one. Without PCRE in git it falls back to the
// defined names alone (`git grep -w -F`). Many fixed words are slow to
// search when some are common (a used name such as TempDir is in
// thousands of lines): the pattern prints only the definitions of the
// used names. It reads the files of the names' languages alone (scopeOf).
//
// The names and the definitions are two `git grep`s: in one, git runs the
// definitions' pattern ahead to its next match at every line a name
// matches, to the end of the file when there is none. A change to ruff
// that names `__init__` took 3.2 s so (15,000 matches in 108 MB), 0.34 s
// apart; on terraform's last 8 commits apart costs 0.11 CPU-s more in
// all (0.43 against 0.33), and one pattern of both as alternatives 0.86.
func (s *symbols) search(ctx context.Context, ch *gitctx.Change, noPerl bool) error {
	seen := map[string]bool{}
	found := func(p string, match []byte) {
		p = path.Clean(p)
		if w := string(match); s.defined[w] != "" {
			if !seen["n\x00"+w+"\x00"+p] {
				seen["n\x00"+w+"\x00"+p] = true
				s.found[w] = append(s.found[w], p)
			}
			return
		}
		eachWord(match, func(b []byte) {
			if w := string(b); s.used[w] != "" && !seen["d\x00"+w+"\x00"+p] {
				seen["d\x00"+w+"\x00"+p] = true
				s.definedBy[w] = append(s.definedBy[w], p)
			}
		})
	}
	scope := scopeOf(s.langs)
	patterns := s.patterns(scope)
	if len(patterns) == 0 {
		return nil
	}
	err := gitctx.ErrNoPerl
	for i := 0; i < len(patterns) && !noPerl; i++ {
		if err = ch.GrepPerlIn(ctx, scope, patterns[i:i+1], found); err != nil {
			break
		}
	}
	if errors.Is(err, gitctx.ErrNoPerl) || perlFailed(ctx, err) {
		return ch.GrepIn(ctx, scope, sortedKeys(s.defined), found)
	}
	return err
}

// searchImporters finds the Go files that quote the import path of a Go
// seed's package (paths: seed → import path): the packages' importers,
// by import path. It is a `git grep` of its own, of the Go files alone:
// searched with the names, the import paths (found once a file, near its
// top) made git run the names' patterns ahead again at every import, 0.19
// against 0.11 CPU-s on prometheus' last 100 commits together and apart.
func searchImporters(ctx context.Context, ch *gitctx.Change, paths map[string]string, noPerl bool) (map[string][]string, error) {
	quoted := map[string]bool{}
	for _, ip := range paths {
		quoted[ip] = true
	}
	if len(quoted) == 0 {
		return nil, nil
	}
	importers := map[string][]string{}
	seen := map[string]bool{}
	found := func(p string, match []byte) {
		p = path.Clean(p)
		if ip, ok := unquoted(match); ok && quoted[ip] && !seen[ip+"\x00"+p] {
			seen[ip+"\x00"+p] = true
			importers[ip] = append(importers[ip], p)
		}
	}
	ips := sortedKeys(quoted)
	err := gitctx.ErrNoPerl
	if !noPerl {
		var alt []string
		for _, ip := range ips {
			alt = append(alt, regexp.QuoteMeta(ip))
		}
		err = ch.GrepPerlIn(ctx, []string{".go"}, []string{`"(?:` + strings.Join(alt, "|") + `)"`}, found)
	}
	if errors.Is(err, gitctx.ErrNoPerl) || perlFailed(ctx, err) {
		words := make([]string, len(ips))
		for i, ip := range ips {
			words[i] = `"` + ip + `"`
		}
		err = ch.GrepIn(ctx, []string{".go"}, words, found)
	}
	if err != nil {
		return nil, err
	}
	return importers, nil
}

// unquoted returns the text between the quotes of a match of a quoted
// import path.
func unquoted(match []byte) (string, bool) {
	if len(match) < 2 || match[0] != '"' || match[len(match)-1] != '"' {
		return "", false
	}
	return string(match[1 : len(match)-1]), true
}

// perlFailed reports whether git itself ended the Perl-compatible search
// with an error (a match limit on some odd file, say), rather than the run
// being cancelled: the fixed-word search then still finds the references.
func perlFailed(ctx context.Context, err error) bool {
	var gerr *gitctx.Error
	return err != nil && ctx.Err() == nil && errors.As(err, &gerr)
}

// nameUsers returns the number of files that use each name the changed
// lines use; nil when they were not counted (no words search: a change of
// many files). A name used in more than maxReferences files is too common for
// its definition to tell, as a defined name named in as many files is for
// its users: a changed line's `diags.HasErrors()` (511 of terraform's
// 5,457 files call it) says nothing about the file that defines it, which
// the definition and the import of its package together ranked with the
// paired tests, above every file that changes with the change. Below that,
// a name used in more than fewUsers files weighs in proportion less: the
// shared helpers of a test framework or a client library (etcd's
// `EtcdProcessCluster`, in 25 files) are named by many files and change
// with few. Measured on real commits: docs/neighbours.md, eighteenth round.
func (f *finder) nameUsers() (map[string]int, error) {
	if f.wordUses == nil {
		return nil, nil
	}
	found, err := f.wordUses()
	if err != nil {
		return nil, err
	}
	return found.users, nil
}

// patterns are the Perl-compatible regular expressions of search: a
// defined name as a word, or the definition of a used name (the forms of
// definition, loosened: a Go func, method, type or var, a JavaScript
// function, class or binding, `exports.name =`, `obj.name = function`, a
// Python def or class, a Rust item, any of them after modifiers such as
// `public final`). The words and the definitions, which
// start at a line's start, are patterns of their own: joined into one they
// took 0.37 CPU-s to search terraform for a 10-commit change, apart 0.25.
// JavaScript's assignment forms are looked for only when a name comes from
// JavaScript or from a language the scope does not know (scope is nil): on
// terraform they were 8 of the 102 ms of git's CPU the search took.
func (s *symbols) patterns(scope []string) []string {
	var out []string
	if len(s.defined) > 0 {
		out = append(out, `\b(?:`+strings.Join(sortedKeys(s.defined), "|")+`)\b`)
	}
	if len(s.used) > 0 {
		used := `(?:` + strings.Join(sortedKeys(s.used), "|") + `)\b`
		def := `^\s*(?:` +
			`(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:` + modifiers + `\s+)*` +
			`(?:func|type|var|const|let|function\*?|class|interface|enum|def|fn|struct|trait|fun|object|record)\s+(?:\([^)]*\)\s*)?` + used
		if s.langs["js"] || scope == nil {
			def += `|(?:module\.)?exports\.` + used + `\s*=` +
				`|[\w$.]+\.` + used + `\s*=\s*(?:async\s+)?function\b`
		}
		out = append(out, def+`)`)
	}
	return out
}

// references adds the files that name a symbol whose definition the
// change touched, and the files that define a symbol named on a changed
// line, found by startNames.
func (f *finder) references(context.Context) error {
	syms, err := f.named()
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(syms.found) {
		files := syms.found[name]
		if len(files) > maxReferences {
			continue
		}
		for _, p := range files {
			if p != syms.defined[name] {
				f.add(p, weightReference/spreadOver(len(files)), 0, "it names "+name+", which the change touches in "+syms.defined[name])
				f.noteName(p, name)
			}
		}
	}
	users, err := f.nameUsers()
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(syms.definedBy) {
		files := syms.definedBy[name]
		n := users[name]
		if len(files) > maxDefiners || n > maxReferences {
			continue
		}
		w := weightDefinition / float64(len(files))
		if n > fewUsers {
			w *= fewUsers / float64(n)
		}
		for _, p := range files {
			f.add(p, w, 0, fmt.Sprintf("it defines %s, named on a changed line of %s", name, syms.used[name]))
			f.noteName(p, name)
		}
	}
	return nil
}

// noteName keeps, for a candidate's excerpt, a name of code it shares
// with the change.
func (f *finder) noteName(p, name string) {
	if c := f.cands[p]; c != nil {
		c.addName(name)
	}
}
