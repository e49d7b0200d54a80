package pack

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack/outline"
	"github.com/gitctx/gitctx/secrets"
)

// redaction is an entry's shown parts through the gate.
type redaction struct {
	newWhole *image                  // the new side as read, for the content; nil if it could not be read
	newDiff  *image                  // the new side's lines of the diff
	oldDiff  *image                  // the old side's lines of the diff
	sections map[string]redactedText // hunk headers' section text
	outline  redactedText
}

// redactedText is a short text through the gate, with its placeholders.
type redactedText struct {
	text secrets.Text
	hits []secrets.Hit
}

// ruleOf reads the rule out of a placeholder "[REDACTED:<rule>#<n>]".
func ruleOf(placeholder string) string {
	s := strings.TrimPrefix(placeholder, "[REDACTED:")
	if i := strings.LastIndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}

// placed reports whether the redaction put a placeholder anywhere.
func (r *redaction) placed() bool {
	for _, im := range []*image{r.newWhole, r.newDiff, r.oldDiff} {
		if im != nil && len(im.hits) > 0 {
			return true
		}
	}
	for _, s := range r.sections {
		if len(s.hits) > 0 {
			return true
		}
	}
	return len(r.outline.hits) > 0
}

// needs reports which sides of an entry the pack shows lines of.
func needs(e *entry) (newSide, oldSide bool) {
	newSide = e.showContent != ""
	if e.showsDiff() {
		for _, h := range e.patch.Hunks {
			for _, l := range h.Lines {
				if l.Op == '-' {
					oldSide = true
				} else {
					newSide = true
				}
			}
		}
	}
	return newSide, oldSide
}

// redactEntries puts the entries' shown sides through the gate: each side
// is read whole (within the size limit) and scanned whole, so that a
// credential is found even when only part of it is in a hunk — a private
// key rotated in place has no BEGIN line in its hunk — and the placeholders
// are mapped onto the lines the pack shows. Scans run on every core.
func (b *builder) redactEntries(ctx context.Context, entries []*entry) error {
	var todo []*entry
	for _, e := range entries {
		if e.red == nil {
			todo = append(todo, e)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	texts, err := b.readSides(ctx, todo)
	if err != nil {
		return err
	}
	err = inOrder(ctx, b.opts.Gate, todo, func(g *secrets.Gate, e *entry) (bool, error) {
		red, err := b.redactEntry(ctx, g, e, texts[e])
		if err != nil {
			return false, err
		}
		e.red = red
		return red.placed(), nil
	})
	for _, e := range todo {
		e.ahead = [2]*aheadSide{} // the images hold what is needed of them
	}
	return err
}

// redactEntry scans the parts of one entry the pack may show.
func (b *builder) redactEntry(ctx context.Context, g *secrets.Gate, e *entry, whole [2]*string) (*redaction, error) {
	newSide, oldSide := needs(e)
	red := &redaction{sections: map[string]redactedText{}}
	var err error
	if newSide {
		var lines sideLines
		if whole[0] != nil {
			facts := b.sideFacts(e, 0, *whole[0])
			lines = facts.lines
			if red.newWhole, err = b.fileImage(ctx, g, facts, b.objectOf(e, false), shownLines(e, false), b.ahead); err != nil {
				return nil, fmt.Errorf("%s: %w", e.label.String(), err)
			}
		}
		red.newDiff = red.newWhole
		if whole[0] == nil || !agrees(lines, e.patch, false) {
			if red.newDiff, err = b.hunkImage(ctx, g, e, false); err != nil {
				return nil, err
			}
		}
	}
	if oldSide {
		var facts sideFacts
		if whole[1] != nil {
			facts = b.sideFacts(e, 1, *whole[1])
		}
		if whole[1] != nil && agrees(facts.lines, e.patch, true) {
			red.oldDiff, err = b.fileImage(ctx, g, facts, b.objectOf(e, true), shownLines(e, true), b.ahead)
		} else {
			red.oldDiff, err = b.hunkImage(ctx, g, e, true)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.label.String(), err)
		}
	}
	if red.sections, err = b.redactSections(ctx, g, e); err != nil {
		return nil, err
	}
	if err := keySections(ctx, g, red); err != nil {
		return nil, fmt.Errorf("%s: %w", e.label.String(), err)
	}
	if e.showContent == RepOutline {
		if red.outline, err = b.makeOutline(ctx, g, e, whole[0]); err != nil {
			return nil, err
		}
	}
	return red, nil
}

// makeOutline outlines the new side and puts the outline through the gate
// (an outline is text of its own, not lines of the file). A file that
// cannot be outlined (a syntax error) shows its head and tail instead.
func (b *builder) makeOutline(ctx context.Context, g *secrets.Gate, e *entry, whole *string) (redactedText, error) {
	if whole == nil {
		return redactedText{}, nil
	}
	text, ok := outline.Of(e.path, *whole)
	if !ok {
		text = truncateLines(*whole, e.trunc.HeadLines, e.trunc.TailLines)
	}
	e.outline = text
	red, hits, err := g.RedactString(ctx, text)
	if err != nil {
		return redactedText{}, fmt.Errorf("%s: %w", e.label.String(), err)
	}
	return redactedText{red, hits}, nil
}

// shownLines lists the lines of one side the entry may show (nil: all of
// them).
func shownLines(e *entry, old bool) []int {
	if !old && (e.showContent == RepFull || e.showContent == RepOutline) {
		return nil // shown whole, or an outline made from the whole
	}
	var out []int
	if !old && e.showContent == RepTruncated {
		out = append(out, e.truncatedLines(e.contentLines)...)
	}
	if e.patch != nil {
		for _, h := range e.patch.Hunks {
			for l := range hunkLines(h) {
				switch {
				case old && l.Op == '-':
					out = append(out, l.oldNo)
				case !old && l.Op != '-':
					out = append(out, l.newNo)
				}
			}
		}
	}
	return out
}

// sectionCandidates lists every text a hunk header of p may show: the
// sections git printed, and those of the hunks re-cut to less context.
func sectionCandidates(p *gitctx.Patch) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, h := range p.Hunks {
		add(h.Section)
	}
	for n := range 3 {
		for _, h := range p.Hunks {
			recutSections(h, n, add)
		}
	}
	return out
}

// redactSections puts through the gate every text a hunk header may show
// after "@@": the sections git printed, and the function lines a hunk cut
// to less context may show instead (see section).
func (b *builder) redactSections(ctx context.Context, g *secrets.Gate, e *entry) (map[string]redactedText, error) {
	out := map[string]redactedText{}
	if e.patch == nil {
		return out, nil
	}
	raw := sectionCandidates(e.patch)
	clean := make([]string, len(raw))
	for i, r := range raw {
		clean[i] = cleanText(decodeLine(r))
	}
	texts, hits, err := redactMany(ctx, g, clean)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.label.String(), err)
	}
	for i, r := range raw {
		out[r] = redactedText{texts[i], hits[i]}
	}
	return out, nil
}

// keySections puts in place of a hunk header's section that is a line the
// side's images redacted (a line of a private key block: git names a hunk
// by the last line above it that starts with a letter, and in a key that
// is a line of the key, which no rule knows on its own) the line as
// redacted there.
func keySections(ctx context.Context, g *secrets.Gate, red *redaction) error {
	for raw, sec := range red.sections {
		if len(sec.hits) > 0 || len(strings.TrimSpace(raw)) < minKeySection {
			continue
		}
		for _, im := range []*image{red.oldDiff, red.newDiff} {
			line, hits, ok := im.redactedLine(raw)
			if !ok {
				continue
			}
			t, _, err := g.RedactString(ctx, line)
			if err != nil {
				return err
			}
			for i := range hits {
				hits[i].Line = 0
			}
			red.sections[raw] = redactedText{t, hits}
			break
		}
	}
	return nil
}

// minKeySection is the shortest section keySections looks for: a key's
// lines are long; a short section ("}") is some other line's.
const minKeySection = 16

// redactedLine finds the first line of the side (read whole) that starts
// with section and that the image redacted, and returns it as redacted,
// with its placeholders.
func (im *image) redactedLine(section string) (string, []secrets.Hit, bool) {
	if im == nil || im.count == 0 {
		return "", nil, false
	}
	section = strings.TrimRight(section, " \t\r")
	lines := slices.Sorted(maps.Keys(im.hits))
	for _, n := range lines {
		if n >= 1 && n <= im.count && len(im.hits[n]) > 0 && strings.HasPrefix(im.all.line(n), section) {
			return im.lines[n], slices.Clone(im.hits[n]), true
		}
	}
	return "", nil, false
}

// imageVariant names how imageText makes a text from a blob, for the scan
// cache (with the entry's kind): change it whenever that changes.
const imageVariant = "pack-image-1/"

// objectOf names the git object a side's whole text was read from by
// redactEntries, if it was read from one.
func (b *builder) objectOf(e *entry, old bool) secrets.Object {
	var id string
	switch {
	case e.file != nil && old:
		id = b.ch.ObjectID(e.file, gitctx.Old)
	case e.file != nil:
		id = b.ch.ObjectID(e.file, gitctx.New)
	case e.role != RoleContext && !old:
		id = b.ch.TreeObjectID(e.tree)
	}
	if id == "" {
		return secrets.Object{}
	}
	return secrets.Object{ID: id, Variant: imageVariant + e.kind}
}

// imageText decodes a side the way its content is decoded, or returns nil
// when it is not text.
func (b *builder) imageText(e *entry, data []byte) *string {
	if e.kind == KindSymlink {
		s := cleanText(decodeLine(string(data)))
		return &s
	}
	d := decode(data)
	if d.Kind == KindBinary {
		return nil
	}
	s := cleanText(d.Text)
	return &s
}
