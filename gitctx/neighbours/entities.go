package neighbours

import (
	"context"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// maxEntitySeeds is the most changed files whose parts (entities) are
// matched against the history, and whose earlier commits are compared with
// the change (see alike): past that, a change touches so much that "the
// same part" no longer narrows anything. 8 rather than 4 gained a little
// on changes of several files replayed (docs/neighbours.md, twentieth
// round), at no cost worth measuring.
const maxEntitySeeds = 8

// entitySlack is how many lines apart a past hunk and a changed line may
// be and still count as the same part of a file.
const entitySlack = 3

// lineRange is an inclusive range of line numbers.
type lineRange struct{ lo, hi int }

// changedParts is what the change touches in one file: the definitions
// its changed lines sit in, and the lines themselves, numbered as in the
// file before the change.
type changedParts struct {
	names map[string]bool
	lines []lineRange
}

// entityKey is how a definition line is compared: trimmed, and cut short
// (git cuts a hunk's section at 80 bytes).
func entityKey(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}

// partsOf reads a patch (with context lines) for the lines it changes and,
// in a source file, the definitions they sit in: in a document or a data
// file, git's rule for a definition (a line that starts with a letter)
// holds for most lines, and names nothing.
func partsOf(p *gitctx.Patch, code bool) changedParts {
	parts := changedParts{names: map[string]bool{}}
	for _, h := range p.Hunks {
		name := entityKey(h.Section)
		old := h.OldStart
		lo, hi := -1, -1
		for _, l := range h.Lines {
			if l.Op != '+' && l.Text != "" && gitctx.DefinitionStart(l.Text[0]) {
				name = entityKey(l.Text)
			}
			switch l.Op {
			case ' ':
				old++
				continue
			case '-':
				if lo < 0 {
					lo = old
				}
				hi = old
				old++
			case '+':
				if lo < 0 {
					lo = old - 1
				}
				hi = max(hi, old)
			}
			if name != "" && code {
				parts.names[name] = true
			}
		}
		if lo >= 0 {
			parts.lines = append(parts.lines, lineRange{lo, hi})
		}
	}
	return parts
}

// sameParts returns the past commits that changed a part of a changed
// file that the change changes too: a definition of the same name, or
// lines that, followed back through the later commits, overlap the
// changed ones. A commit that wrote the whole file (added it, or moved it:
// the history is read without renames) wrote every part, and so none in
// particular: its other files (a manifest's exports, an index that
// registers the new file) are not the same code's, and a reason that
// said so was wrong. On the six tuning repositories (two samplings of 440
// samples) the sums of the means of hit@3, recall@10 and MRR moved by
// +0.042 / +0.011 / +0.019 and -0.020 / -0.002 / +0.023; on flask, hono
// and terraform (180) one sample moved out of the top 3 and recall@10
// rose 0.002: within a few samples either way.
func sameParts(parts map[string]changedParts, past []gitctx.HunkCommit) map[string]bool {
	out := map[string]bool{}
	tracked := map[string][]lineRange{}
	for p, cp := range parts {
		tracked[p] = cp.lines
	}
	for _, c := range past {
		byPath := map[string][]gitctx.PastHunk{}
		for _, h := range c.Hunks {
			byPath[h.Path] = append(byPath[h.Path], h)
		}
		for p, hunks := range byPath {
			cp, ok := parts[p]
			if !ok {
				continue
			}
			if !writesWhole(hunks) && (namesMatch(cp.names, hunks) || linesMatch(tracked[p], hunks)) {
				out[c.SHA] = true
			}
			tracked[p] = mapBack(tracked[p], hunks)
		}
	}
	return out
}

// writesWhole reports whether a commit's hunks of a file write all of it
// from nothing: "@@ -0,0 +1,n @@".
func writesWhole(hunks []gitctx.PastHunk) bool {
	return len(hunks) == 1 && hunks[0].OldStart == 0 && hunks[0].OldLines == 0
}

func namesMatch(names map[string]bool, hunks []gitctx.PastHunk) bool {
	for _, h := range hunks {
		if k := entityKey(h.Section); k != "" && names[k] {
			return true
		}
		for _, d := range h.Heads {
			if names[entityKey(d)] {
				return true
			}
		}
	}
	return false
}

// linesMatch reports whether a hunk's new lines come within entitySlack
// of a tracked range.
func linesMatch(ranges []lineRange, hunks []gitctx.PastHunk) bool {
	for _, h := range hunks {
		lo, hi := h.NewStart, h.NewStart+h.NewLines-1
		if h.NewLines == 0 {
			hi = h.NewStart + 1 // a deletion sits after NewStart
		}
		for _, r := range ranges {
			if lo <= r.hi+entitySlack && r.lo-entitySlack <= hi {
				return true
			}
		}
	}
	return false
}

// mapBack numbers tracked ranges as in the file before a commit whose
// hunks (of that file, in order) are given. A line the commit wrote maps
// to the lines it replaced.
func mapBack(ranges []lineRange, hunks []gitctx.PastHunk) []lineRange {
	out := make([]lineRange, 0, len(ranges))
	for _, r := range ranges {
		lo, _ := mapLine(r.lo, hunks)
		_, hi := mapLine(r.hi, hunks)
		if hi >= lo && hi > 0 {
			out = append(out, lineRange{lo, hi})
		}
	}
	return out
}

// mapLine maps one line of the file after a commit to the range of lines
// before it.
func mapLine(x int, hunks []gitctx.PastHunk) (int, int) {
	delta := 0
	for _, h := range hunks {
		end := h.NewStart + h.NewLines - 1
		if h.NewLines == 0 {
			end = h.NewStart
		}
		if h.NewLines > 0 && x >= h.NewStart && x <= end {
			return h.OldStart, h.OldStart + max(h.OldLines, 1) - 1
		}
		if x <= end {
			break
		}
		delta += h.OldLines - h.NewLines
	}
	return x + delta, x + delta
}

// entityParts reads the changed parts of the change's seeds, when there
// are few of them.
func (f *finder) entityParts(ctx context.Context) (map[string]changedParts, error) {
	seeds := f.seeds()
	if len(seeds) > maxEntitySeeds {
		return nil, nil
	}
	patches, err := f.patches(ctx)
	if err != nil {
		return nil, err
	}
	isSeed := map[string]bool{}
	for _, s := range seeds {
		isSeed[s] = true
	}
	out := map[string]changedParts{}
	for file, p := range patches {
		if isSeed[file.Path] && p != nil && len(p.Hunks) > 0 {
			out[file.Path] = partsOf(p, languageOf(file.Path) != "")
		}
	}
	return out, nil
}

// sameEntity returns the past commits that changed the same parts of the
// seeds as the change (nil: not read).
func (f *finder) sameEntity(ctx context.Context) (map[string]bool, error) {
	if f.pastHunks == nil {
		return nil, nil
	}
	past, err := f.pastHunks()
	if err != nil {
		return nil, err
	}
	parts, err := f.entityParts(ctx)
	if err != nil || len(parts) == 0 {
		return nil, err
	}
	return sameParts(parts, past), nil
}
