package pack

import (
	"context"
	"errors"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
)

// readSides reads whole the sides of the entries redactEntries scans: the
// new and the old sides of changed files, and the files neighbours and
// guides show, each through a git cat-file of its own, at the same time.
// A side that cannot be read is left out (it is scanned from the hunks).
// Context files come from the work tree, unless their content is at hand.
// A new side the entry still holds whole is not read again (see
// gateText).
func (b *builder) readSides(ctx context.Context, todo []*entry) (map[*entry][2]*string, error) {
	var mu sync.Mutex
	plan := b.planSides(todo)
	texts := plan.texts
	keep := func(e *entry, side int, data []byte) {
		text := b.imageText(e, data)
		mu.Lock()
		defer mu.Unlock()
		pair := texts[e]
		pair[side] = text
		texts[e] = pair
	}
	skip := func(err error) error {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return nil
	}
	var waits []func() error
	for side, which := range []gitctx.Side{gitctx.New, gitctx.Old} {
		files, byFile, patches := plan.toRead(todo, side)
		each := func(f *gitctx.File, _ int64, data []byte, err error) error {
			if err != nil {
				return skip(err)
			}
			keep(byFile[f], side, data)
			return nil
		}
		waits = append(waits, inBackground(func() error {
			if which == gitctx.Old {
				return b.ch.ReadOldEach(ctx, files, patches, plan.newBytes, b.opts.MaxFileBytes, each)
			}
			return b.ch.ReadEach(ctx, files, which, b.opts.MaxFileBytes, each)
		}))
	}
	waits = append(waits, inBackground(func() error {
		return b.ch.ReadTreeEach(ctx, plan.trees, b.opts.MaxFileBytes, func(t gitctx.TreeEntry, data []byte, err error) error {
			if err != nil {
				return skip(err)
			}
			keep(plan.byPath[t.Path], 0, data)
			return nil
		})
	}))
	var first error
	for _, wait := range waits {
		if err := wait(); err != nil && first == nil {
			first = err
		}
	}
	return texts, first
}

// sidePlan is what readSides has at hand and what it must read.
type sidePlan struct {
	texts    map[*entry][2]*string   // the sides at hand
	held     map[*entry]bool         // the new sides at hand, not read again
	madeOld  map[*entry]bool         // the old sides made ahead (see startSides)
	newBytes map[*gitctx.File]string // the new sides at hand that are the files' bytes
	trees    []gitctx.TreeEntry      // the files of neighbours and guides, read from the tree
	byPath   map[string]*entry       // their entries
}

// planSides sorts the entries' sides into those at hand and those to read.
func (b *builder) planSides(todo []*entry) sidePlan {
	p := sidePlan{texts: make(map[*entry][2]*string, len(todo)), held: map[*entry]bool{}, madeOld: map[*entry]bool{},
		newBytes: map[*gitctx.File]string{}, byPath: map[string]*entry{}}
	for _, e := range todo {
		if text := e.gateText(); text != nil {
			p.texts[e], p.held[e] = [2]*string{text, nil}, true
			if e.raw && e.file != nil {
				p.newBytes[e.file] = *text // an old side is made from it, not from the file read again
			}
		}
		if a := e.ahead[1]; a != nil {
			pair := p.texts[e]
			pair[1] = &a.text
			p.texts[e], p.madeOld[e] = pair, true
		}
		switch {
		case e.file != nil, p.held[e]:
		case e.role == RoleContext:
			p.texts[e] = [2]*string{b.contextText(e), nil}
		default:
			p.trees = append(p.trees, e.tree)
			p.byPath[e.tree.Path] = e
		}
	}
	return p
}

// toRead lists the changed files whose side (0 new, 1 old) must be read,
// with their entries and patches.
func (p sidePlan) toRead(todo []*entry, side int) ([]*gitctx.File, map[*gitctx.File]*entry, map[*gitctx.File]*gitctx.Patch) {
	var files []*gitctx.File
	byFile := map[*gitctx.File]*entry{}
	patches := map[*gitctx.File]*gitctx.Patch{}
	for _, e := range todo {
		newSide, oldSide := needs(e)
		if e.file != nil && ((side == 0 && newSide && e.file.NewMode != 0 && !p.held[e]) || (side == 1 && oldSide && e.file.OldMode != 0 && !p.madeOld[e])) {
			files = append(files, e.file)
			byFile[e.file] = e
			if e.patch != nil {
				patches[e.file] = e.patch
			}
		}
	}
	return files, byFile, patches
}
