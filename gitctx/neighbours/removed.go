package neighbours

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
)

// Removed text: a change that stops using a name, or removes a line, is
// often one of several alike. A rename changes every use of the old name,
// a sweep removes the same line from every file it touches, and copied
// code keeps the removed line's twins. So the few files that still use a
// name the changed lines stop using, or still hold a line the change
// removes, are evidence.
//
// Over the tuning repositories' two samplings (1,080 commits; the twelfth
// round of docs/neighbours.md), of the files holding a removed line (20
// bytes or more) that at most 10 files hold, 41 of the 203 not yet among
// the first ten neighbours were right: 20%, where the list's eighth to
// tenth places are right 4% to 6% of the time. With both kinds of evidence
// the means over the eight repositories rose from 0.807 / 0.782 / 0.703 to
// 0.817 / 0.787 / 0.716 (hit@3 / recall@10 / MRR; the second sampling from
// 0.799 / 0.795 / 0.696 to 0.804 / 0.803 / 0.709). The names come from the
// words' search (see words.go); the lines take one `git grep` of their own.
//
// A name weighs as an import does, shared among the files that use it: a
// file that alone still uses three or more of the dropped names (a copy
// of the removed code) ranks with the paired tests. Kept below them, the
// replay's sum of the six means was 0.008 lower, all of it MRR.
const (
	maxRemovedUsers = 10  // a name or a line in more files tells nothing
	maxRemovedLines = 50  // distinct removed lines searched for
	minRemovedLine  = 15  // bytes, spaces trimmed: a shorter line is `return nil` or `}`
	maxRemovedLine  = 300 // bytes: a longer line is data or minified code
	weightTwinLine  = 2.0 // what a removed line a file still holds adds, beside history…
	maxTwinLines    = 3   // …for at most this many lines
)

// removedLines lists the first maxRemovedLines distinct lines (spaces
// trimmed) the seeds' patches remove and do not add back, of
// minRemovedLine to maxRemovedLine bytes, with a word of three letters. A
// line with a random-looking word (a key, a digest) could hold a
// credential, and one that sets a credential (credential) does: neither is
// ever searched for.
func removedLines(seeds []string, files []*gitctx.File, patches map[*gitctx.File]*gitctx.Patch) []string {
	added := map[string]bool{}
	var removed []string
	for l := range seedLines(seeds, files, patches) {
		switch t := strings.TrimSpace(l.Text); l.Op {
		case '+':
			added[t] = true
		case '-':
			if len(t) >= minRemovedLine && len(t) <= maxRemovedLine && hasLetters(t, 3) && !hasRandomWord(t) && !credential.MatchString(t) {
				removed = append(removed, t)
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range removed {
		if !added[t] && !seen[t] && len(out) < maxRemovedLines {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// droppedNames are the words (eachWord) on the seeds' removed lines that no
// added line uses.
func droppedNames(seeds []string, files []*gitctx.File, patches map[*gitctx.File]*gitctx.Patch) map[string]bool {
	added, removed := map[string]bool{}, map[string]bool{}
	for l := range seedLines(seeds, files, patches) {
		into := removed
		if l.Op == '+' {
			into = added
		}
		eachWord([]byte(l.Text), func(b []byte) { into[string(b)] = true })
	}
	for w := range added {
		delete(removed, w)
	}
	return removed
}

func hasLetters(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			if run++; run == n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

func hasRandomWord(s string) bool {
	found := false
	eachWord([]byte(s), func(b []byte) { found = found || random(string(b)) })
	return found
}

// startTwins starts the search for the removed lines (removedLines) in the
// background, for the changes the words are searched for (startWords),
// in the same files: file → the removed lines it holds.
func (f *finder) startTwins(ctx context.Context, scope []string) {
	f.twinUses = sync.OnceValues(func() (map[string]map[string]bool, error) {
		patches, err := f.patches(ctx)
		if err != nil {
			return nil, err
		}
		lines := removedLines(f.seeds(), f.ch.Files, patches)
		holds := map[string]map[string]bool{}
		if len(lines) == 0 {
			return holds, nil
		}
		found := func(p string, match []byte) {
			p = path.Clean(p)
			if holds[p] == nil {
				holds[p] = map[string]bool{}
			}
			holds[p][string(match)] = true
		}
		err = gitctx.ErrNoPerl
		if !f.opts.noPerl {
			quoted := make([]string, len(lines))
			for i, l := range lines {
				quoted[i] = quotePerl(l)
			}
			err = f.ch.GrepPerlIn(ctx, scope, []string{"(?:" + strings.Join(quoted, "|") + ")"}, found)
		}
		if errors.Is(err, gitctx.ErrNoPerl) || perlFailed(ctx, err) {
			clear(holds)
			err = f.ch.GrepIn(ctx, scope, lines, found)
		}
		return holds, err
	})
	go func() { _, _ = f.twinUses() }()
}

// quotePerl quotes every byte of s that is not a letter or a digit: in a
// Perl-compatible pattern a quoted non-alphanumeric byte stands for itself.
func quotePerl(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && !isWordByte(c) {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// removed adds the files that still use a name the changed lines stop
// using, and those that still hold a line the change removes, when few
// files do.
func (f *finder) removed(ctx context.Context) error {
	if f.wordUses == nil {
		return nil
	}
	found, err := f.wordUses()
	if err != nil {
		return err
	}
	uses := found.uses
	patches, err := f.patches(ctx)
	if err != nil {
		return err
	}
	dropped := droppedNames(f.seeds(), f.ch.Files, patches)
	byUse(f, uses, func(w string) bool { return dropped[w] }, func(p string, users int) {
		f.add(p, 1/float64(users), 0, "it uses a name that the changed lines stop using")
	})
	holds, err := f.twinUses()
	if err != nil {
		return err
	}
	counts := map[string]int{}
	byUse(f, holds, nil, func(p string, _ int) { counts[p]++ })
	for _, p := range slices.Sorted(maps.Keys(counts)) {
		n := min(counts[p], maxTwinLines)
		c := f.record(p, 0, 0, fmt.Sprintf("it still holds %d line%s that the change removes", counts[p], plural(counts[p])))
		c.twins += weightTwinLine * float64(n)
	}
	return nil
}

// byUse calls fn for each file that may be chosen and uses a word that
// keep accepts (nil: any), when at most maxRemovedUsers files but the changed ones
// use that word, with their number.
func byUse[V any](f *finder, uses map[string]map[string]V, keep func(string) bool, fn func(p string, users int)) {
	users := map[string][]string{}
	for p, ws := range uses {
		if f.changed[p] {
			continue
		}
		for w := range ws {
			if keep == nil || keep(w) {
				users[w] = append(users[w], p)
			}
		}
	}
	for _, w := range slices.Sorted(maps.Keys(users)) {
		ps := users[w]
		if len(ps) > maxRemovedUsers {
			continue
		}
		slices.Sort(ps)
		for _, p := range ps {
			if f.mayChoose(p) {
				fn(p, len(ps))
			}
		}
	}
}
