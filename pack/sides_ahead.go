package pack

import (
	"context"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
)

// aheadSide is one side of a changed file as startSides prepared it
// for the gate: its text and what fileImage asks of it.
type aheadSide struct {
	text  string
	facts sideFacts
}

// sideFacts returns what fileImage asks of one side's text of e (0 new,
// 1 old): prepared ahead when it was, else now.
func (b *builder) sideFacts(e *entry, side int, text string) sideFacts {
	if a := e.ahead[side]; a != nil && a.text == text { // the same string: compared by pointer
		return a.facts
	}
	return b.factsFor(e, side == 1, text)
}

// startSides prepares, while the diff still streams, the sides the gate
// will read of the changed files whose new sides are at hand. The old side
// is made from the new side, if that is the file's bytes, and the file's
// patch: the new side with its patch taken back, kept when it hashes to
// the old blob's id (see gitctx.Change.OldSide). The gate then reads it
// (see readSides) without reading the old blob from git or the file from
// disk again; a side not made here is read there as before. Each side's
// lines and what the rules across lines look for in it are found now too
// (see sideFacts). Once the contents are read, the Go side of a pack
// mostly waits for git's diff: this work is done while git works, not
// after it. At most maxAheadBytes of old sides are held. wait returns once
// every patch parsed was seen, or ctx is done.
func (b *builder) startSides(ctx context.Context, parsed <-chan filePatch) (wait func()) {
	if b.readBytes > maxAheadChange {
		return func() {} // the patches' buffer holds them all: none waits
	}
	byFile := make(map[*gitctx.File]*entry, len(b.entries))
	for _, e := range b.entries {
		if e.file != nil && e.heldText() != nil {
			byFile[e.file] = e
		}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		held := 0
		for {
			select {
			case <-ctx.Done():
				return
			case fp, ok := <-parsed:
				if !ok {
					return
				}
				if e := byFile[fp.file]; e != nil {
					held += b.prepareSides(e, fp, maxAheadBytes-held)
				}
			}
		}
	}()
	return wg.Wait
}

// prepareSides prepares an entry's sides (see startSides) and returns
// the bytes of old side it made, at most room.
func (b *builder) prepareSides(e *entry, fp filePatch, room int) int {
	e.ahead[0] = &aheadSide{text: e.content, facts: b.factsFor(e, false, e.content)}
	if !e.raw || !deletesLines(fp.patch) || len(e.content) > room {
		return 0
	}
	old, ok := b.ch.OldSide(fp.file, fp.patch, e.content)
	if !ok {
		return 0
	}
	if text := b.imageText(e, old); text != nil {
		e.ahead[1] = &aheadSide{text: *text, facts: b.factsFor(e, true, *text)}
	}
	return len(old)
}

// maxAheadBytes bounds the old sides startSides holds, and no side is
// prepared ahead for a change whose new sides are over maxAheadChange: its
// pack is a summary that lists most files by name only, both cores are
// busy through its diff, and its heap is near the soft limit, where each
// MB allocated more costs a collection. Made for terraform's last 1,000
// commits (22.6 MB), 2 MB of old sides cost 15 ms of wall time, 8 MB 50
// ms; prepared for prometheus' (16.1 MB), the sides cost 23 ms cold and
// saved nothing warm.
const (
	maxAheadBytes  = 4 << 20
	maxAheadChange = 12 << 20
)

// deletesLines reports whether a patch has a line only its old side has:
// the gate reads the old side of a diff that shows one.
func deletesLines(p *gitctx.Patch) bool {
	for _, h := range p.Hunks {
		for _, l := range h.Lines {
			if l.Op == '-' {
				return true
			}
		}
	}
	return false
}
