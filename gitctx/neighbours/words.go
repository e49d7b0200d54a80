package neighbours

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
)

// Shared words: the files that use the uncommon words of the changed lines.
// A fix to how routing merges nested lifespans names `lifespan`, and the
// one test file of the repository that says `lifespan` is the test the fix
// extends; a renamed option is named in the guide that documents it. The
// files are ranked as a search engine ranks documents for a query (BM25,
// without its length normalisation: Robertson and Zaragoza, 2009), the
// query being the words of the changed lines: a word counts for more the
// fewer files use it, and for more, up to a point, the more often a file
// uses it.
//
// Measured on the six tuning repositories (420 commits, docs/neighbours.md),
// adding the best matches to the evidence of history raised the means of
// hit@3, recall@10 and MRR from 0.763 / 0.732 / 0.658 to 0.800 / 0.783 /
// 0.692 (a second sampling: 0.775 / 0.759 / 0.669 to 0.789 / 0.783 /
// 0.676): it finds files that no other signal links to the change, and
// breaks ties between those it does. In a replay, length normalisation
// (BM25's b of 0.25 or 0.75), weights of 1 to 4 and 5 to 20 best matches
// all ranked within 0.02 of each other; so did 30 words and 200.
const (
	// maxWordSeeds: for a change of more files, one search says little
	// about each. Raised from 4 to 8 when changes of several files
	// were replayed (half the files of 1,196 commits): recall@10 +0.015 in
	// the mean, for the one `git grep` a smaller change already pays
	// (docs/neighbours.md, twentieth round).
	maxWordSeeds = 8
	maxWords     = 50  // distinct words of the changed lines searched for
	maxWordFiles = 10  // best matches that gain weight
	weightWords  = 2.0 // what the best match adds, beside history; the others in proportion
	// uncommonShare: a word is uncommon if at most one file in uncommonShare
	// (and at most maxReferences files) uses it. A file that shares no
	// uncommon word gains nothing from the common ones: in a small
	// repository every file says `return`.
	uncommonShare = 10
	wordSatiety   = 1.2 // BM25's k1: how soon more uses of a word stop counting
	// maxWordsEverywhere is the most files the words are searched in
	// whatever their kind: in a larger repository (a monorepo of 100,000
	// files, gigabytes) only the files that can name the changed files'
	// symbols are read (scopeOf), as for the names.
	maxWordsEverywhere = 30000
)

// startWords starts the search for the changed lines' words in the
// background, for a change of at most maxWordSeeds files: a `git grep` of
// its own, once the patches are read. It needs the repository's files
// (f.files) listed.
func (f *finder) startWords(ctx context.Context) {
	seeds := f.seeds()
	if len(seeds) == 0 || len(seeds) > maxWordSeeds {
		return
	}
	var scope []string // every file
	if f.searched > cmp.Or(f.opts.wordsEverywhere, maxWordsEverywhere) {
		langs := map[string]bool{}
		for _, s := range seeds {
			langs[languageOf(s)] = true
		}
		scope = scopeOf(langs)
	}
	f.wordUses = sync.OnceValues(func() (*wordSearch, error) {
		patches, err := f.patches(ctx)
		if err != nil {
			return nil, err
		}
		words := changedWords(seeds, f.ch.Files, patches)
		names := namesBeyond(words, seeds, f.ch.Files, patches)
		uses, err := searchWords(ctx, f.ch, scope, append(slices.Clip(words), names...), f.opts.noPerl)
		if err != nil {
			return nil, err
		}
		return &wordSearch{uses: uses, users: usersApart(uses, names)}, nil
	})
	go func() { _, _ = f.wordUses() }()
	f.startTwins(ctx, scope)
}

// searchWords counts the uses of each word in each file of the change's
// new side: file → word → uses. One Perl-compatible pattern of the words as
// alternatives is searched in a single pass over each line; the same words
// as fixed strings (`git grep -w -F`, without PCRE in git) are searched one
// after another, 25 times slower for 23 words on ripgrep's 3 MB. With
// suffixes, only the files whose names end in one are searched (GrepIn).
func searchWords(ctx context.Context, ch *gitctx.Change, suffixes, words []string, noPerl bool) (map[string]map[string]int, error) {
	uses := map[string]map[string]int{}
	if len(words) == 0 {
		return uses, nil
	}
	// Counted in a slice per file, one place per word: a common word is
	// matched hundreds of thousands of times in a large repository.
	place := make(map[string]int, len(words))
	for i, w := range words {
		place[w] = i
	}
	counts := map[string][]int{}
	var lastPath string
	var cur []int
	count := func(p string, match []byte) {
		if p != lastPath || cur == nil {
			lastPath = p
			p = path.Clean(p)
			if cur = counts[p]; cur == nil {
				cur = make([]int, len(words))
				counts[p] = cur
			}
		}
		if i, ok := place[string(match)]; ok {
			cur[i]++
		}
	}
	err := gitctx.ErrNoPerl
	if !noPerl {
		// a word is letters, digits and underscores (eachWord): nothing to quote
		err = ch.GrepPerlIn(ctx, suffixes, []string{`\b(?:` + strings.Join(words, "|") + `)\b`}, count)
	}
	if errors.Is(err, gitctx.ErrNoPerl) || perlFailed(ctx, err) {
		clear(counts)
		cur = nil
		err = ch.GrepIn(ctx, suffixes, words, count)
	}
	if err != nil {
		return nil, err
	}
	for p, n := range counts {
		for i, c := range n {
			if c > 0 {
				if uses[p] == nil {
					uses[p] = map[string]int{}
				}
				uses[p][words[i]] = c
			}
		}
	}
	return uses, nil
}

// changedWords lists the first maxWords distinct words (eachWord) of the
// seeds' changed lines, added and removed: a word the change stops using
// links it to the files that use it as well as one it starts using. A
// word that starts with a digit says nothing; one that looks random (a
// key, a digest) or lies in a credential a line sets (maskCredentials)
// could be a credential, and is never searched for.
func changedWords(seeds []string, files []*gitctx.File, patches map[*gitctx.File]*gitctx.Patch) []string {
	var out []string
	seen := map[string]bool{}
	for l := range seedLines(seeds, files, patches) {
		eachWord(maskCredentials(l.Text), func(b []byte) {
			if w := string(b); !seen[w] && len(out) < maxWords && !('0' <= w[0] && w[0] <= '9') && !random(w) {
				seen[w] = true
				out = append(out, w)
			}
		})
		if len(out) == maxWords {
			break
		}
	}
	return out
}

// namesBeyond lists the names the seeds' changed lines use (usedIn, at
// most maxUsed) that words lacks: a large change's first maxWords words
// may not hold them. They are searched with the words so that their users
// are counted (see nameUsers), not for a match of their own.
func namesBeyond(words, seeds []string, files []*gitctx.File, patches map[*gitctx.File]*gitctx.Patch) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range words {
		seen[w] = true
	}
	for _, c := range files {
		if p := patches[c]; p != nil && slices.Contains(seeds, c.Path) {
			for _, u := range usedIn(p, maxUsed) {
				if !seen[u] && len(out) < maxUsed {
					seen[u] = true
					out = append(out, u)
				}
			}
		}
	}
	return out
}

// wordSearch is what the words search found.
type wordSearch struct {
	uses  map[string]map[string]int // file → word of the changed lines → its uses in the file
	users map[string]int            // the files that use each word, and each name the changed lines use
}

// usersApart counts the files that use each word and name searched, and
// takes the names out of uses: only the words are matched (words).
func usersApart(uses map[string]map[string]int, names []string) map[string]int {
	users := countUsers(uses)
	for p, ws := range uses {
		for _, n := range names {
			delete(ws, n)
		}
		if len(ws) == 0 {
			delete(uses, p)
		}
	}
	return users
}

// credential finds where a line sets a credential: a quoted value given to
// a name that says it is one (`password = "…"`, `Token: "…"`, `api_key =>
// '…'`), or the password of a URL (`https://user:…@host`); its first
// group, or its second, is the credential. It is a cheap guess, not the
// pack's redaction: it keeps the neighbour searches from sending git, and
// from ranking by, the text the pack most plainly redacts. It matches 13
// of the 92,552 lines terraform's last 500 commits add or remove, all in
// tests (`Token: "secret"`).
var credential = regexp.MustCompile(`(?i)(?:password|passwd|passphrase|pwd|secret|token|api_?key|access_?key|private_?key|credential)\w*["']?\s*(?::=|=>|=|:)\s*["']([^"']{4,})|://[^/\s:@]+:([^/\s@]+)@`)

// maskCredentials returns the line with the credentials it sets
// (credential) blanked out, and the other words as they were.
func maskCredentials(line string) []byte {
	b := []byte(line)
	if !strings.ContainsAny(line, "=:") {
		return b
	}
	for _, m := range credential.FindAllSubmatchIndex(b, -1) {
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] >= 0 {
				copy(b[m[g]:m[g+1]], bytes.Repeat([]byte{' '}, m[g+1]-m[g]))
			}
		}
	}
	return b
}

// seedLines yields the lines the seeds' patches add and remove, in the
// change's order.
func seedLines(seeds []string, files []*gitctx.File, patches map[*gitctx.File]*gitctx.Patch) iter.Seq[gitctx.Line] {
	return func(yield func(gitctx.Line) bool) {
		for _, c := range files {
			p := patches[c]
			if p == nil || !slices.Contains(seeds, c.Path) {
				continue
			}
			for _, h := range p.Hunks {
				for _, l := range h.Lines {
					if l.Op != ' ' && !yield(l) {
						return
					}
				}
			}
		}
	}
}

// words adds the files that match the changed lines' words best (see
// startWords): the best maxWordFiles of those that may be chosen, the
// best weighing weightWords and the others in proportion to their match.
func (f *finder) words(context.Context) error {
	if f.wordUses == nil {
		return nil
	}
	found, err := f.wordUses()
	if err != nil {
		return err
	}
	uses, users := found.uses, found.users
	rarity := wordRarity(users, f.searched)
	uncommon := func(w string) bool { return users[w] <= maxReferences && users[w]*uncommonShare <= f.searched }
	type match struct {
		path     string
		score    float64
		uncommon int
		shared   []string // its uncommon words
	}
	var best []match
	for p, ws := range uses {
		if !f.mayChoose(p) {
			continue
		}
		m := match{path: p}
		for _, w := range slices.Sorted(maps.Keys(ws)) { // in one order: a sum of floats depends on it
			n := ws[w]
			m.score += rarity[w] * float64(n) * (wordSatiety + 1) / (float64(n) + wordSatiety)
			if uncommon(w) {
				m.uncommon++
				m.shared = append(m.shared, w)
			}
		}
		if m.uncommon > 0 {
			best = append(best, m)
		}
	}
	slices.SortFunc(best, func(a, b match) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.path, b.path))
	})
	if len(best) > maxWordFiles {
		best = best[:maxWordFiles]
	}
	for _, m := range best {
		if m.score <= 0 {
			break
		}
		c := f.record(m.path, 0, 0, fmt.Sprintf("it shares %d uncommon word%s with the changed lines", m.uncommon, plural(m.uncommon)))
		c.words += weightWords * m.score / best[0].score
		c.shared = rarestFirst(m.shared, rarity, maxNames)
	}
	return nil
}

// countUsers counts the files that use each word.
func countUsers(uses map[string]map[string]int) map[string]int {
	n := map[string]int{}
	for _, ws := range uses {
		for w := range ws {
			n[w]++
		}
	}
	return n
}

// wordRarity is each word's weight in a match: BM25's inverse document
// frequency, ln(1 + (N - n + 0.5) / (n + 0.5)) for a word used in n of the
// repository's N files.
func wordRarity(users map[string]int, files int) map[string]float64 {
	out := make(map[string]float64, len(users))
	for w, k := range users {
		out[w] = math.Log(1 + (float64(max(files, k))-float64(k)+0.5)/(float64(k)+0.5))
	}
	return out
}

// rarestFirst returns at most n of words, the rarest first (then in
// alphabetical order).
func rarestFirst(words []string, rarity map[string]float64, n int) []string {
	out := slices.Clone(words)
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(cmp.Compare(rarity[b], rarity[a]), cmp.Compare(a, b)) })
	return out[:min(n, len(out))]
}
