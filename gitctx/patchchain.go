package gitctx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// A file several patches of a series change is one file of the change, as
// a range shows it: its diff runs from the file before the first patch to
// the file after the last. That diff is computed here (see composeSeries).

// maxComposed caps the size of a file whose patches are composed: beyond
// it, the diff shows each patch's hunks in turn.
const maxComposed = 8 << 20

// fileChain is the patches of a series that change one file, in order.
type fileChain struct {
	steps []*gitdiff.File
	part  int // the part of its latest step
}

// chainFiles groups the parts' file patches by the file they change. A
// file a later part changes again, under the name an earlier part gave it
// or added again after a deletion, joins the earlier's chain; a copy
// starts its own. Within one part each patch stands alone (git diff shows
// a type change as a deletion and an addition of one name).
func chainFiles(parts []seriesPart) []*fileChain {
	var chains []*fileChain
	live, gone := map[string]*fileChain{}, map[string]*fileChain{}
	for i, p := range parts {
		for _, f := range p.files {
			var c *fileChain
			switch {
			case f.IsNew:
				c = gone[f.NewName]
			case !f.IsCopy:
				c = live[f.OldName]
			}
			if c == nil || c.part == i {
				c = &fileChain{}
				chains = append(chains, c)
			}
			c.steps, c.part = append(c.steps, f), i
			if !f.IsNew && !f.IsCopy && live[f.OldName] == c {
				delete(live, f.OldName)
			}
			if f.IsDelete {
				gone[f.OldName] = c
			} else {
				live[f.NewName] = c
				delete(gone, f.NewName)
			}
		}
	}
	return chains
}

// file is the chain as one patch: the first step's old side, the last
// step's new side, and every step's hunks in turn (composeSeries makes
// them one diff where it can). nil when the series adds the file and
// deletes it again.
func (c *fileChain) file() *gitdiff.File {
	first, last := c.steps[0], c.steps[len(c.steps)-1]
	if len(c.steps) == 1 {
		return first
	}
	if first.IsNew && last.IsDelete {
		return nil
	}
	f := &gitdiff.File{
		OldName: first.OldName, NewName: last.NewName,
		IsNew: first.IsNew, IsDelete: last.IsDelete, IsCopy: first.IsCopy,
		OldMode: first.OldMode, NewMode: last.NewMode,
		OldOIDPrefix: first.OldOIDPrefix, NewOIDPrefix: last.NewOIDPrefix,
	}
	if f.IsDelete {
		f.OldName, f.NewName = first.OldName, ""
	}
	f.IsRename = !f.IsNew && !f.IsDelete && !f.IsCopy && f.OldName != f.NewName
	for _, s := range c.steps {
		f.IsBinary = f.IsBinary || s.IsBinary
		f.TextFragments = append(f.TextFragments, s.TextFragments...)
	}
	if f.IsBinary {
		f.TextFragments = nil
	}
	return f
}

// composeSeries gives each file that several patches change one diff, from
// its content before the first patch (its base blob, or nothing for a file
// the series adds) to its content after the last, and drops a file the
// series leaves as it found it. A file whose base is not at hand, is
// binary or too large, or whose patches do not apply in turn keeps their
// hunks in turn; reading its new version then fails, saying why.
func (c *Change) composeSeries(ctx context.Context) error {
	kept := c.Files[:0]
	for _, f := range c.Files {
		same, err := c.compose(ctx, f)
		if err != nil {
			return err
		}
		if !same {
			kept = append(kept, f)
		}
	}
	clear(c.Files[len(kept):])
	c.Files = kept
	return nil
}

// compose makes f's diff one (see composeSeries); same reports that the
// series leaves f's content, name and mode as they were.
func (c *Change) compose(ctx context.Context, f *File) (same bool, err error) {
	if len(f.steps) < 2 || f.applyTo.IsBinary || (f.Status != Added && f.OldID == "") {
		return false, nil
	}
	var base []byte
	if f.Status != Added {
		if _, base, err = c.Read(ctx, f, Old, maxComposed); err != nil {
			if errors.Is(err, ErrTooLarge) {
				return false, nil
			}
			return false, fmt.Errorf("read the base of %s: %w", f.Path, err)
		}
	}
	cur, err := applySteps(f, base)
	if err != nil || len(cur) > maxComposed {
		return false, nil // reading the new version says why
	}
	if bytes.Equal(base, cur) && f.OldMode == f.NewMode && f.OldPath == "" && f.Status == Modified {
		return true, nil
	}
	net := *f.applyTo
	net.TextFragments = lineDiff(string(base), string(cur))
	f.applyTo, f.patch = &net, convert(&net)
	return false, nil
}

// diffTimeout bounds the line diff of one file; past it the rest is one
// deletion and one addition, still a correct diff.
const diffTimeout = 5 * time.Second

// lineDiff returns the hunks, with git's three lines of context, that turn
// a into b.
func lineDiff(a, b string) []*gitdiff.TextFragment {
	var lines []gitdiff.Line
	for _, d := range diff.DoWithTimeout(a, b, diffTimeout) {
		op := gitdiff.OpContext
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = gitdiff.OpAdd
		case diffmatchpatch.DiffDelete:
			op = gitdiff.OpDelete
		}
		for rest := d.Text; rest != ""; {
			i := len(rest)
			if n := strings.IndexByte(rest, '\n'); n >= 0 {
				i = n + 1
			}
			lines = append(lines, gitdiff.Line{Op: op, Line: rest[:i]})
			rest = rest[i:]
		}
	}
	frags := hunks(lines, 3)
	old := strings.SplitAfter(a, "\n")
	for _, f := range frags {
		f.Comment = sectionAbove(old, int(f.OldPosition)-1)
	}
	return frags
}

// sectionAbove is what git prints after a hunk's "@@" by default: the
// nearest line above line n (0-based) of the old side that starts with a
// letter, "_" or "$", its first 80 bytes without their trailing space.
func sectionAbove(old []string, n int) string {
	for i := min(n, len(old)) - 1; i >= 0; i-- {
		l := old[i]
		if l == "" {
			continue
		}
		if c := l[0]; c == '_' || c == '$' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') {
			return strings.TrimRight(l[:min(len(l), 80)], " \t\r\n\f\v")
		}
	}
	return ""
}

// hunks groups a whole file's diff lines into hunks of changes with
// context lines around them, joining changes at most 2×context lines
// apart, as git does.
func hunks(lines []gitdiff.Line, context int) []*gitdiff.TextFragment {
	oldAt, newAt := make([]int, len(lines)+1), make([]int, len(lines)+1) // lines of each side before lines[i]
	for i, l := range lines {
		oldAt[i+1], newAt[i+1] = oldAt[i], newAt[i]
		if l.Op != gitdiff.OpAdd {
			oldAt[i+1]++
		}
		if l.Op != gitdiff.OpDelete {
			newAt[i+1]++
		}
	}
	var frags []*gitdiff.TextFragment
	floor := 0 // the end of the last hunk
	for i := 0; i < len(lines); i++ {
		if lines[i].Op == gitdiff.OpContext {
			continue
		}
		start := max(i-context, floor)
		stop := min(changesEnd(lines, i, context)+context, len(lines))
		frags = append(frags, fragment(lines[start:stop], oldAt[start], newAt[start]))
		floor, i = stop, stop-1
	}
	return frags
}

// changesEnd is the end of the run of changes that starts at lines[i]:
// context runs of at most 2×context lines between changes join them.
func changesEnd(lines []gitdiff.Line, i, context int) int {
	end := i
	for j := i; j < len(lines); {
		if lines[j].Op != gitdiff.OpContext {
			j++
			end = j
			continue
		}
		k := j
		for k < len(lines) && lines[k].Op == gitdiff.OpContext {
			k++
		}
		if k == len(lines) || k-j > 2*context {
			break
		}
		j = k
	}
	return end
}

// fragment makes one hunk of lines, the first of which is line oldAt+1 of
// the old side and newAt+1 of the new.
func fragment(lines []gitdiff.Line, oldAt, newAt int) *gitdiff.TextFragment {
	f := &gitdiff.TextFragment{Lines: lines}
	changed := false
	for _, l := range lines {
		switch l.Op {
		case gitdiff.OpContext:
			f.OldLines++
			f.NewLines++
			if changed {
				f.TrailingContext++
			} else {
				f.LeadingContext++
			}
		case gitdiff.OpAdd:
			f.NewLines++
			f.LinesAdded++
			changed, f.TrailingContext = true, 0
		case gitdiff.OpDelete:
			f.OldLines++
			f.LinesDeleted++
			changed, f.TrailingContext = true, 0
		}
	}
	// git numbers an empty side by the line before it (0 for an empty file)
	f.OldPosition, f.NewPosition = int64(oldAt), int64(newAt)
	if f.OldLines > 0 {
		f.OldPosition++
	}
	if f.NewLines > 0 {
		f.NewPosition++
	}
	return f
}
