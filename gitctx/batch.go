package gitctx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadEach reads one side of many files and calls fn for each, in order,
// with what Read would return. Blobs stream from a single
// `git cat-file --batch`, several times faster than a lookup per file;
// files of the work tree are read from disk. Sizes are looked up first, so
// a blob over limit is never read. fn's data is valid only during the call.
func (c *Change) ReadEach(ctx context.Context, files []*File, side Side, limit int64, fn func(f *File, size int64, data []byte, err error) error) error {
	var batch []*File
	var ids []string
	for _, f := range files {
		id := f.NewID
		if side == Old {
			id = f.OldID
		}
		if c.repo == nil || id == "" || isZeroID(id) || f.Mode() == ModeSubmodule || f.patch != nil {
			size, data, err := c.Read(ctx, f, side, limit)
			if ferr := fn(f, size, data, err); ferr != nil {
				return ferr
			}
			continue
		}
		batch = append(batch, f)
		ids = append(ids, id)
	}
	if len(batch) == 0 {
		return nil
	}
	sizes, err := c.repo.blobSizes(ctx, ids)
	if err != nil {
		return err
	}
	var fetch []string
	for i, id := range ids {
		if sizes[i] >= 0 && (limit < 0 || sizes[i] <= limit) {
			fetch = append(fetch, id)
		}
	}
	stream, err := c.repo.openBlobs(ctx, fetch)
	if err != nil {
		return err
	}
	for i, f := range batch {
		var ferr error
		switch size := sizes[i]; {
		case size < 0:
			ferr = fn(f, 0, nil, fmt.Errorf("%s: blob %s is missing from the repository", f.Path, ids[i]))
		case limit >= 0 && size > limit:
			ferr = fn(f, size, nil, fmt.Errorf("%s is %d bytes: %w", f.Path, size, ErrTooLarge))
		default:
			data, err := stream.next(ids[i])
			if err != nil {
				stream.proc.kill()
				_ = stream.proc.wait()
				return err
			}
			ferr = fn(f, size, data, nil)
		}
		if ferr != nil {
			stream.proc.kill()
			_ = stream.proc.wait()
			return ferr
		}
	}
	return stream.close()
}

// blobSizes returns the size of each blob, -1 for one that is missing.
func (r *Repo) blobSizes(ctx context.Context, ids []string) ([]int64, error) {
	in := strings.Join(ids, "\n") + "\n"
	out, err := r.git.output(ctx, strings.NewReader(in), "cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)")
	if err != nil {
		return nil, fmt.Errorf("look up blob sizes: %w", err)
	}
	sizes := make([]int64, len(ids))
	sc := bufio.NewScanner(bytes.NewReader(out))
	for i := range ids {
		if !sc.Scan() {
			return nil, errors.New("look up blob sizes: short answer from git cat-file")
		}
		f := strings.Fields(sc.Text())
		sizes[i] = -1
		if len(f) == 3 && f[1] == "blob" {
			sizes[i], _ = strconv.ParseInt(f[2], 10, 64)
		}
	}
	return sizes, sc.Err()
}

// blobStream reads blobs, in the order asked for, from `git cat-file --batch`.
type blobStream struct {
	proc *process
	rd   *bufio.Reader
	buf  []byte
}

func (r *Repo) openBlobs(ctx context.Context, ids []string) (*blobStream, error) {
	var in io.Reader = strings.NewReader(strings.Join(ids, "\n") + "\n")
	if len(ids) == 0 {
		in = strings.NewReader("")
	}
	p, err := r.git.start(ctx, in, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	return &blobStream{proc: p, rd: bufio.NewReaderSize(p.out, 256<<10)}, nil
}

// next reads the next blob, which must be id. The data is valid until the
// next call.
func (s *blobStream) next(id string) ([]byte, error) {
	header, err := s.rd.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(header)
	if len(f) != 3 || f[0] != id {
		return nil, fmt.Errorf("git cat-file: expected blob %s, got %q", id, strings.TrimSpace(header))
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(header))
	}
	if cap(s.buf) < size+1 {
		s.buf = make([]byte, size+1)
	}
	s.buf = s.buf[:size+1] // the content and a newline
	if _, err := io.ReadFull(s.rd, s.buf); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return s.buf[:size], nil
}

func (s *blobStream) close() error { return s.proc.wait() }
