package pack

import (
	"context"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
)

// startOldSides makes, while the diff still streams, the old sides the
// gate will read of the changed files whose new sides are at hand as
// their bytes: each is its new side with its patch taken back, kept when
// it hashes to the old blob's id (see gitctx.Change.OldSide). The gate
// then reads them (see readSides) without reading the old blobs from git
// or the files from disk again; a side not made here is read there as
// before. Once the contents are read, the Go side of a pack mostly waits
// for git's diff, so this work takes a core that was idle. At most
// maxAheadBytes of old sides are held. wait returns once every patch
// parsed was seen, or ctx is done.
func (b *builder) startOldSides(ctx context.Context, parsed <-chan filePatch) (wait func()) {
	if b.readBytes > maxAheadChange {
		return func() {} // the patches' buffer holds them all: none waits
	}
	byFile := make(map[*gitctx.File]*entry, len(b.entries))
	for _, e := range b.entries {
		if e.file != nil && e.rawContent && e.content != "" {
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
				e := byFile[fp.file]
				if e == nil || !deletesLines(fp.patch) || held+len(e.content) > maxAheadBytes {
					continue
				}
				old, ok := b.ch.OldSide(fp.file, fp.patch, e.content)
				if !ok {
					continue
				}
				held += len(old)
				e.oldText = b.imageText(e, old)
			}
		}
	}()
	return wg.Wait
}

// maxAheadBytes bounds the old sides startOldSides holds, and no old side
// is made ahead for a change whose new sides are over maxAheadChange: its
// pack is a summary that lists most files by name only, and its heap near
// the soft limit, where each MB allocated more costs a collection. Made
// for terraform's last 1,000 commits (22.6 MB), 2 MB of old sides cost 15
// ms of wall time, 8 MB 50 ms; prometheus' (16.1 MB) lost nothing.
const (
	maxAheadBytes  = 4 << 20
	maxAheadChange = 16 << 20
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
