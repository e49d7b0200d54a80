package pack

import (
	"context"
	"errors"
	"fmt"

	"github.com/gitctx/gitctx/gitctx"
)

// prepare runs the pipeline up to shaping: the change's text through the
// gate, the files classified and read, the view gathered, and the shaper
// that will fit it.
//
// The slow steps that do not depend on each other overlap: the commit
// messages go through the gate while the files are read, `git diff`
// streams while `git cat-file` reads the new sides, and the neighbours are
// searched meanwhile (their history and import index need no patch; only
// the search for references waits for the diff). What they find is
// applied in the order the steps always had.
func (b *builder) prepare(ctx context.Context) (*view, *shaper, error) {
	ctx, cancel := context.WithCancel(ctx)
	// What the record says of the change goes through the gate first, so
	// that even the record of an empty change holds nothing unredacted.
	commits := inBackground(func() error { return b.redactCommits(ctx) })
	v, s, err := b.prepareFiles(ctx, commits)
	if err != nil {
		cancel() // stop what still runs before waiting for it
	}
	if cerr := commits(); err == nil || (cerr != nil && !errors.Is(cerr, context.Canceled)) {
		err = cerr
	}
	cancel()
	return v, s, err
}

// prepareFiles is prepare after the commit messages, which are through the
// gate once commits returns.
func (b *builder) prepareFiles(ctx context.Context, commits func() error) (*view, *shaper, error) {
	if len(b.ch.Files) == 0 {
		if err := commits(); err != nil {
			return nil, nil, err
		}
		return nil, nil, ErrEmpty
	}
	if err := b.gatherContext(ctx); err != nil {
		return nil, nil, err
	}
	b.opts.Progress("reading files")
	b.classify()
	ctx, cancel := context.WithCancel(ctx)
	settleGenerated := b.startGenerated(ctx)
	leftOut := b.leftOut() // listed here: the entries change while the lines are counted
	countLeftOut := inBackground(func() error { return b.countLines(ctx, leftOut) })
	// With no search to run beside the diff (none asked for, or one kept
	// from an earlier run), a core would wait for git: git prints the
	// patches on both instead.
	if b.opts.NoNeighbours || b.opts.NeighbourMemo.Answers(b.ch, b.neighbourOptions()) {
		b.ch.SpreadPatches(ctx)
	}
	patches, stream, parsed := b.startPatches(ctx)
	handOver := make(chan map[*gitctx.File]*gitctx.Patch, 1)
	extras := b.startExtras(ctx, stream, func() (map[*gitctx.File]*gitctx.Patch, error) {
		select {
		case p := <-handOver:
			return p, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	defer func() {
		// whatever happened, nothing started here outlives prepare
		cancel()
		_, _ = patches()
		_, _, _ = extras()
		_ = settleGenerated()
		_ = countLeftOut()
	}()
	if err := b.readContents(ctx); err != nil {
		return nil, nil, err
	}
	oldSides := b.startSides(ctx, parsed)
	b.opts.Progress("reading the diff")
	list, err := patches()
	oldSides()
	if err != nil {
		return nil, nil, err
	}
	if err := b.applyTextPatches(ctx, b.applyPatches(list)); err != nil {
		return nil, nil, err
	}
	b.centreOnHunks()
	if err := settleGenerated(); err != nil {
		return nil, nil, err
	}
	handOver <- b.patchesOf()
	b.opts.Progress("finding neighbours")
	ns, guides, err := extras()
	if err != nil {
		if gitctx.FetchFailed(err) {
			return nil, nil, fmt.Errorf("find neighbours (--no-neighbours packs the change without them): %w", err)
		}
		return nil, nil, fmt.Errorf("find neighbours: %w", err)
	}
	if err := b.addExtras(ctx, ns, guides); err != nil {
		return nil, nil, err
	}
	if err := commits(); err != nil {
		return nil, nil, err
	}
	if err := countLeftOut(); err != nil {
		return nil, nil, err
	}
	v, err := b.view(ctx)
	if err != nil {
		return nil, nil, err
	}
	s := &shaper{v: v, r: rendererFor(b.opts.Format), counter: b.opts.Counter, opts: b.opts, fullPossible: b.fullPossible, prepare: b.redactEntries, riskKinds: b.riskKinds}
	return v, s, nil
}

// leftOut lists the entries of the changed files left out by a rule (a
// dependency directory, a credential file), whose patches are never read.
func (b *builder) leftOut() []*entry {
	var out []*entry
	for _, e := range b.entries {
		if e.role == RoleChanged && e.excluded != "" && e.file != nil {
			out = append(out, e)
		}
	}
	return out
}

// countLines counts the lines of the files left out (leftOut), so that
// the pack and the record still give every changed file's counts. It
// writes only those entries' lines.
func (b *builder) countLines(ctx context.Context, entries []*entry) error {
	files := make([]*gitctx.File, len(entries))
	byFile := make(map[*gitctx.File]*entry, len(entries))
	for i, e := range entries {
		files[i], byFile[e.file] = e.file, e
	}
	counts, err := b.ch.LineCounts(ctx, files)
	if err != nil {
		return err
	}
	for f, n := range counts {
		byFile[f].lines = &n
	}
	return nil
}

// patchesOf lists the patches of the entries, for the neighbours.
func (b *builder) patchesOf() map[*gitctx.File]*gitctx.Patch {
	patches := map[*gitctx.File]*gitctx.Patch{}
	for _, e := range b.entries {
		if e.patch != nil {
			patches[e.file] = e.patch
		}
	}
	return patches
}
