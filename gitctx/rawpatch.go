package gitctx

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
)

// pendingPatches is a git run whose patches wait for Patches: a
// `git diff --patch-with-raw` whose listing of the changed files has been
// read, or a `git diff -p` of some of them (see patchGroups).
type pendingPatches struct {
	proc  *process
	rd    *bufio.Reader
	files []*File // the files it prints, in order; nil: every file of the change
}

func newPending(p *process, files []*File) *pendingPatches {
	return &pendingPatches{proc: p, rd: bufio.NewReaderSize(p.out, 64<<10), files: files}
}

// rawWithPatches lists the files changed between two commits and leaves
// their patches pending: one `git diff --patch-with-raw` instead of a
// `git diff --raw` and, later, a `git diff -p`, so that git finds the
// renames once (80 of the 95 ms that listing terraform's last 1,000
// commits takes) and the patches come as soon as the listing is read. The
// patches are what `git diff -p` prints with the same flags. With no file
// changed, nothing is pending.
func (r *Repo) rawWithPatches(ctx context.Context, base, head string) ([]*File, []*pendingPatches, error) {
	args := append([]string{"diff", "--patch-with-raw", "-z", "--no-abbrev"}, patchFlags...)
	args = append(append(args, diffFlags...), base, head, "--")
	p, err := r.git.start(ctx, nil, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("list changed files: %w", err)
	}
	pending := newPending(p, nil)
	raw, err := readRawListing(pending.rd)
	var files []*File
	if err == nil {
		files, err = parseRaw(raw)
	}
	if err != nil || len(files) == 0 {
		if werr := pending.finish(err); werr != nil {
			return nil, nil, fmt.Errorf("list changed files: %w", werr)
		}
		return files, nil, nil
	}
	return files, []*pendingPatches{pending}, nil
}

// readRawListing reads the NUL-terminated fields of a raw listing up to
// the empty field that ends it (or the end of the output: no change).
func readRawListing(rd *bufio.Reader) ([]byte, error) {
	var raw []byte
	for {
		field, err := rd.ReadBytes(0)
		switch {
		case err == io.EOF && len(field) == 0:
			return raw, nil
		case err != nil:
			return nil, fmt.Errorf("read git diff --patch-with-raw: %w", err)
		case len(field) == 1:
			return raw, nil // the empty field between the listing and the patches
		}
		raw = append(raw, field...)
	}
}

// finish reads what is left, stopping git first if readErr says the
// read failed, and reports how the run ended, as git.stream does.
func (pp *pendingPatches) finish(readErr error) error {
	if readErr != nil {
		pp.proc.kill()
	} else {
		_, _ = io.Copy(io.Discard, pp.rd)
	}
	waitErr := pp.proc.wait()
	if readErr != nil && !errors.Is(waitErr, errInterrupted) {
		return readErr
	}
	return waitErr
}

// takePending returns the change's pending patches, once.
func (c *Change) takePending() []*pendingPatches {
	c.pendingMu.Lock()
	defer c.pendingMu.Unlock()
	pp := c.pending
	c.pending = nil
	return pp
}

// readPending reads the pending patches as Patches does, if the change
// has some; ok is false when it has none (they were read before, or never
// were).
func (c *Change) readPending(ctx context.Context, want func(*File) bool, maxBytes int64, fn func(*File, *Patch) error) (ok bool, err error) {
	pps := c.takePending()
	if pps == nil {
		return false, nil
	}
	return true, c.readPendingAll(ctx, pps, want, maxBytes, fn)
}
