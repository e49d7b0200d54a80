package pack

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/gitctx/neighbours"
	"github.com/gitctx/gitctx/secrets"
)

// startExtras starts the search for the change's neighbours and guide
// files in the background; stream hands on the change's patches as they
// are parsed, and patches returns them all once they are read.
func (b *builder) startExtras(ctx context.Context, stream <-chan neighbours.FilePatch, patches func() (map[*gitctx.File]*gitctx.Patch, error)) func() ([]neighbours.Neighbour, []neighbours.Guide, error) {
	// The files of the new side are listed now, beside the diff: addExtras
	// needs them even when the neighbours' memo answers at once (an error
	// comes out there, when it lists them again), and so does the project's
	// manifest, read meanwhile (see view).
	var manifest Manifest
	var manifestErr error
	listed := inBackground(func() error {
		if _, err := b.ch.Tree(ctx); err != nil {
			manifestErr = err
			return err
		}
		manifest, manifestErr = b.manifest(ctx)
		return nil
	})
	b.manifestAhead = func() (Manifest, error) {
		_ = listed()
		return manifest, manifestErr
	}
	var ns []neighbours.Neighbour
	var guides []neighbours.Guide
	opts := b.neighbourOptions()
	opts.WaitPatches, opts.PatchStream = patches, stream
	wait := inBackground(func() (err error) {
		ns, guides, err = neighbours.Find(ctx, b.ch, opts)
		return err
	})
	return func() ([]neighbours.Neighbour, []neighbours.Guide, error) {
		err := wait()
		_ = listed()
		return ns, guides, err
	}
}

// neighbourOptions are the options of the neighbours' search, but for the
// patches.
func (b *builder) neighbourOptions() neighbours.Options {
	inContext := make(map[string]bool, len(b.context))
	for _, e := range b.context {
		inContext[e.path] = true
	}
	rules := b.opts.Rules
	return neighbours.Options{
		Max:              b.opts.MaxNeighbours,
		HistoryDepth:     b.opts.HistoryDepth,
		Skip:             func(p string) bool { return inContext[p] || rules.ExcludeReason(p, true) != "" },
		SkipDirs:         rules.dirNames(),
		Quiet:            func(p string) bool { return quietReason(rules.ExcludeReason(p, true)) },
		Memo:             b.opts.NeighbourMemo,
		MemoKey:          skipKey(rules, inContext),
		GuidesOnly:       b.opts.NoNeighbours,
		MaxGuides:        b.opts.KeyFiles.MaxTotal,
		MaxGuidesPerKind: b.opts.KeyFiles.MaxPerCategory,
	}
}

// quietReason reports whether a changed file excluded for the reason still
// leads to neighbours, by its path alone (its history, and the files that
// name it): a binary fixture is never shown, nor is a script under build/,
// nor a file named as a credential (secrets_hook.go, .env), but the test
// that reads the one, the manifest that runs the other and the code that
// changes with the third belong beside the change. Nothing of a
// credential's text is read for it. Dependencies and caches do not lead:
// they change by the hundred.
func quietReason(reason string) bool {
	return reason == ReasonBinary || reason == ReasonBuildOutput || reason == ReasonCredentials
}

// redactReasons returns the neighbours with their reasons through the
// gate: a reason names files and the names a changed line uses, and it is
// recorded as it is (record.json's neighbours[]).
func redactReasons(ctx context.Context, g *secrets.Gate, ns []neighbours.Neighbour) ([]neighbours.Neighbour, error) {
	var texts []string
	for _, n := range ns {
		for _, r := range n.Reasons {
			texts = append(texts, cleanText(decodeLine(r)))
		}
	}
	red, _, err := redactMany(ctx, g, texts)
	if err != nil {
		return nil, fmt.Errorf("check the neighbours' reasons for credentials: %w", err)
	}
	out := make([]neighbours.Neighbour, len(ns))
	for i, n := range ns {
		n.Reasons = make([]string, len(n.Reasons))
		for j := range n.Reasons {
			n.Reasons[j], red = red[0].String(), red[1:]
		}
		out[i] = n
	}
	return out, nil
}

// addExtras adds the neighbours and guide files found by startExtras as
// entries after the changed files: neighbours in rank order, then the
// user's context files, then guides. A context file is never also a
// neighbour or a guide.
func (b *builder) addExtras(ctx context.Context, ns []neighbours.Neighbour, guides []neighbours.Guide) error {
	tree, err := b.ch.Tree(ctx)
	if err != nil {
		return err
	}
	byPath := make(map[string]gitctx.TreeEntry, len(tree))
	for _, t := range tree {
		byPath[t.Path] = t
	}
	if ns, err = redactReasons(ctx, b.opts.Gate, ns); err != nil {
		return err
	}
	var extras []*entry
	for _, n := range ns {
		score := n.Score
		extras = append(extras, &entry{path: n.Path, role: RoleNeighbour, kind: KindText, score: &score,
			reason: strings.Join(n.Reasons, "; "), reasons: n.Reasons, diffContext: -1, tree: byPath[n.Path],
			lock: n.Lock, focus: n.Focus, names: n.Names})
	}
	for _, g := range guides {
		extras = append(extras, &entry{path: g.Path, role: RoleGuide, kind: KindText, reason: g.Reason, diffContext: -1, tree: byPath[g.Path]})
	}
	if err := b.readExtras(ctx, extras); err != nil {
		return err
	}
	for _, e := range b.context {
		if !b.fullPossible {
			b.dropContent(e)
		}
	}
	b.entries = append(b.entries, extras[:len(ns)]...)
	b.entries = append(b.entries, b.context...)
	b.entries = append(b.entries, extras[len(ns):]...)
	return nil
}

// readExtras reads the content of neighbours and guides, which show whole
// files (or their outlines, or the head and tail of a file over its
// truncation limit: KeyFiles.MaxContentPerFileBytes for a guide) and no
// diff. No file is read beyond MaxFileBytes.
func (b *builder) readExtras(ctx context.Context, extras []*entry) error {
	entries := make([]gitctx.TreeEntry, len(extras))
	byPath := make(map[string]*entry, len(extras))
	for i, e := range extras {
		entries[i] = e.tree
		byPath[e.path] = e
	}
	return b.ch.ReadTreeEach(ctx, entries, b.opts.MaxFileBytes, func(t gitctx.TreeEntry, data []byte, err error) error {
		e := byPath[t.Path]
		switch {
		case errors.Is(err, gitctx.ErrTooLarge):
			e.excluded = ReasonSizeLimit
			return nil
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			return err
		case err != nil:
			e.excluded = ReasonUnreadable
			b.warn(t.Path, ReasonUnreadable, err.Error())
			return nil
		}
		e.size = int64(len(data))
		b.setContent(e, data)
		if e.hasContent && !b.fullPossible {
			b.dropContent(e)
		}
		return nil
	})
}

// skipKey names what the neighbours' Skip leaves out: the rules and the
// user's context files.
func skipKey(rules Rules, inContext map[string]bool) string {
	var b strings.Builder
	b.WriteString(rules.key())
	for _, p := range slices.Sorted(maps.Keys(inContext)) {
		fmt.Fprintf(&b, "context %q\n", p)
	}
	return b.String()
}
