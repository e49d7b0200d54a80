package gitctx

import (
	"errors"
	"strings"
)

// oldFromWorktree makes, from the work tree, the old sides of a range's
// files whose patches are known: the file on disk (or its bytes in
// newSides, read already) with its patch taken back is the old side, if
// the bytes it makes hash to the old blob's id.
// Those bytes are then the old blob's, whatever the work tree holds: a
// file edited since, or a work tree on another commit, makes bytes of
// another id, and the side is read from git. The gate reads the old side
// of every shown diff that deletes lines; `git cat-file` inflated them
// again after the diff had (19 ms of wall time on terraform's last 100
// commits, 28 on prometheus'). As in readVerified, the work tree is given
// up after maxDiskMisses files unlike their blobs and none alike, and at
// most maxDiskBytes are held.
func (c *Change) oldFromWorktree(files []*File, patches map[*File]*Patch, newSides map[*File]string, limit int64) map[*File][]byte {
	if c.repo == nil || !c.diskFirst || len(patches) == 0 {
		return nil
	}
	out := map[*File][]byte{}
	held, hits, misses := 0, 0, 0
	for _, f := range files {
		if hits == 0 && misses >= maxDiskMisses {
			break
		}
		p := patches[f]
		if p == nil || p.Binary || p.Oversize || !isFileMode(f.OldMode) || !isFileMode(f.NewMode) || len(c.blobID(f, Old)) != 40 {
			continue
		}
		newSide, err := c.newSide(f, newSides, limit)
		if errors.Is(err, ErrTooLarge) {
			continue
		}
		var old []byte
		ok := err == nil
		if ok {
			old, ok = c.OldSide(f, p, newSide)
		}
		if !ok || limit >= 0 && int64(len(old)) > limit {
			misses++
			continue
		}
		if held += len(old); held > maxDiskBytes {
			break
		}
		hits++
		out[f] = old
	}
	return out
}

// newSide is f's new side from newSides, else from the work tree.
func (c *Change) newSide(f *File, newSides map[*File]string, limit int64) (string, error) {
	if s, ok := newSides[f]; ok {
		return s, nil
	}
	_, data, err := c.repo.readWorktree(f.Path, limit)
	return string(data), err
}

func isFileMode(m uint32) bool { return m == ModeRegular || m == ModeExecutable }

// OldSide makes the old side of a changed file from its new side (its
// bytes, as read) and its patch: the bytes the patch taken back makes, if
// they hash to the file's old blob id (so they are the old blob's,
// whatever newSide was).
func (c *Change) OldSide(f *File, p *Patch, newSide string) ([]byte, bool) {
	if p == nil || p.Binary || p.Oversize || !isFileMode(f.OldMode) || len(c.blobID(f, Old)) != 40 {
		return nil, false
	}
	old, ok := reverseApply(newSide, p.Hunks)
	if !ok || blobIDOf(old) != f.OldID {
		return nil, false
	}
	return old, true
}

// reverseApply takes a patch back: from the bytes of a file's new side and
// the patch's hunks (in order, as git prints them), the old side's bytes.
// It reports false when the hunks do not fit the new side; where they fit
// but do not match it, the bytes it makes are wrong, which the caller's
// check of their blob id finds.
func reverseApply(newSide string, hunks []Hunk) ([]byte, bool) {
	out := make([]byte, 0, len(newSide))
	at, line := 0, 0 // newSide[at:] starts the new side's line line (0-based)
	// skip moves past n lines of the new side, and reports whether it has
	// them: whole blocks whose newlines are fewer than n at a time (counting
	// is many times faster than finding them one by one), then line by line.
	skip := func(n int) bool {
		const block = 4 << 10
		for n > 0 && len(newSide)-at > block {
			c := strings.Count(newSide[at:at+block], "\n")
			if c >= n {
				break
			}
			at, line, n = at+block, line+c, n-c
		}
		for ; n > 0; n-- {
			if at >= len(newSide) {
				return false
			}
			i := strings.IndexByte(newSide[at:], '\n')
			if i < 0 {
				at = len(newSide) // the last line, without a newline
			} else {
				at += i + 1
			}
			line++
		}
		return true
	}
	for _, h := range hunks {
		start := h.NewStart - 1 // the hunk's first line of the new side
		if h.NewLines == 0 {
			start = h.NewStart // a hunk adding nothing comes after line NewStart
		}
		from := at
		if start < line || !skip(start-line) {
			return nil, false
		}
		out = append(out, newSide[from:at]...)
		n := 0
		for _, l := range h.Lines {
			if l.Op != '-' {
				n++
			}
			if l.Op != '+' {
				out = append(out, l.Text...)
				if !l.NoNewline {
					out = append(out, '\n')
				}
			}
		}
		if n != h.NewLines || !skip(n) {
			return nil, false
		}
	}
	return append(out, newSide[at:]...), true
}
