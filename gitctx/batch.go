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
// a blob over limit is never read. fn may keep data: it is read into
// memory of its own, which nothing changes after.
func (c *Change) ReadEach(ctx context.Context, files []*File, side Side, limit int64, fn func(f *File, size int64, data []byte, err error) error) error {
	var disk map[*File][]byte
	var later map[*File]bool
	if side == New {
		disk, later = c.readVerified(files, limit)
	}
	return c.readEach(ctx, files, side, limit, disk, later, fn)
}

// ReadOldEach is ReadEach of the old sides, where patches (the files'
// patches as Patches parsed them; may miss some) let an old side be made
// from the file's new side instead of read from git (see
// oldFromWorktree): newSides's (the bytes a caller read already; may miss
// some), else the work tree's.
func (c *Change) ReadOldEach(ctx context.Context, files []*File, patches map[*File]*Patch, newSides map[*File]string, limit int64, fn func(f *File, size int64, data []byte, err error) error) error {
	return c.readEach(ctx, files, Old, limit, c.oldFromWorktree(files, patches, newSides, limit), nil, fn)
}

// readEach is ReadEach with the files whose side disk holds already, and
// those later says to read from the work tree when their turn comes.
func (c *Change) readEach(ctx context.Context, files []*File, side Side, limit int64, disk map[*File][]byte, later map[*File]bool, fn func(f *File, size int64, data []byte, err error) error) error {
	// Which files come from the disk, which from the batch, and their
	// blob ids.
	ids := make([]string, len(files))
	var batch []string
	for i, f := range files {
		if id := c.blobID(f, side); id != "" {
			ids[i] = id
			if _, ok := disk[f]; !ok && !later[f] {
				batch = append(batch, id)
			}
		}
	}
	var sizes map[string]int64
	var stream *blobStream
	if len(batch) > 0 {
		var err error
		if sizes, stream, err = c.repo.sizedBlobs(ctx, batch, limit); err != nil {
			return err
		}
	}
	stop := func(err error) error {
		if stream != nil {
			stream.proc.kill()
			if werr := stream.proc.wait(); errors.Is(werr, errInterrupted) {
				return werr // the read failed because git was interrupted
			}
		}
		return err
	}
	for i, f := range files {
		var ferr error
		id := ids[i]
		size, known := sizes[id]
		data, onDisk := disk[f]
		switch {
		case onDisk:
			ferr = fn(f, int64(len(data)), data, nil)
		case later[f]:
			size, data, err := c.readLater(ctx, f, id, side, limit)
			ferr = fn(f, size, data, err)
		case id == "":
			size, data, err := c.Read(ctx, f, side, limit)
			ferr = fn(f, size, data, err)
		case !known:
			ferr = fn(f, 0, nil, fmt.Errorf("%s: blob %s is missing from the repository", f.Path, id))
		case limit >= 0 && size > limit:
			ferr = fn(f, size, nil, fmt.Errorf("%s is %d bytes: %w", f.Path, size, ErrTooLarge))
		default:
			data, err := stream.next(id)
			if err != nil {
				return stop(err)
			}
			ferr = fn(f, size, data, nil)
		}
		if ferr != nil {
			return stop(ferr)
		}
	}
	if stream != nil {
		return stream.close()
	}
	return nil
}

// blobID is the id of the blob ReadEach streams for one side of f, or ""
// when that side is read another way (from the work tree, a submodule's
// pointer, a patch).
func (c *Change) blobID(f *File, side Side) string {
	id, mode := f.NewID, f.NewMode
	if side == Old {
		id, mode = f.OldID, f.OldMode
	}
	if c.repo == nil || id == "" || isZeroID(id) || mode == 0 || mode == ModeSubmodule {
		return ""
	}
	if side == New && c.worktree && !f.newFromBlob {
		return "" // the work tree is the new side, whatever id git computed for it
	}
	return id
}

// sizedBlobs looks up the size of each blob (a missing one has none) and
// starts streaming, in order, those of at most limit bytes (every one when
// limit < 0). With git 2.36 or later one `git cat-file --batch-command`
// does both; before, a `--batch-check`, then a `--batch`. The second
// process cost about 40 ms of a pack of terraform's last 10 commits, which
// reads eight times.
func (r *Repo) sizedBlobs(ctx context.Context, ids []string, limit int64) (map[string]int64, *blobStream, error) {
	if !r.noBatchCommand.Load() {
		sizes, stream, err := r.batchCommand(ctx, ids, limit)
		if !errors.Is(err, errNoBatchCommand) {
			return sizes, stream, err
		}
		r.noBatchCommand.Store(true)
	}
	sizes, err := r.blobSizes(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	stream, err := r.openBlobs(ctx, within(ids, sizes, limit))
	return sizes, stream, err
}

// within lists the ids whose size is known and at most limit (any, when
// limit < 0).
func within(ids []string, sizes map[string]int64, limit int64) []string {
	var out []string
	for _, id := range ids {
		if size, ok := sizes[id]; ok && (limit < 0 || size <= limit) {
			out = append(out, id)
		}
	}
	return out
}

// errNoBatchCommand is a git older than 2.36, whose cat-file has no
// --batch-command.
var errNoBatchCommand = errors.New("git cat-file has no --batch-command")

// batchCommand is sizedBlobs with one `git cat-file --batch-command`: it
// asks every size, reads the answers, then asks the contents of the
// blobs within limit and closes git's input.
func (r *Repo) batchCommand(ctx context.Context, ids []string, limit int64) (map[string]int64, *blobStream, error) {
	p, in, err := r.git.startWriting(ctx, "cat-file", "--batch-command", "--buffer")
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (map[string]int64, *blobStream, error) {
		p.kill()
		werr := p.wait()
		if strings.Contains(p.stderr.String(), "batch-command") {
			return nil, nil, errNoBatchCommand
		}
		if errors.Is(werr, errInterrupted) {
			return nil, nil, werr
		}
		return nil, nil, err
	}
	// Commands are written beside the reading: git's answers may fill
	// its output before it has read every command.
	asked := writeCommands(in, "info", ids, "flush\n")
	rd := bufio.NewReaderSize(p.out, 256<<10)
	sizes := make(map[string]int64, len(ids))
	for _, id := range ids {
		line, err := rd.ReadString('\n')
		if err != nil {
			return fail(fmt.Errorf("look up blob sizes: %w", err))
		}
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == id && f[1] == "blob" {
			sizes[id], _ = strconv.ParseInt(f[2], 10, 64)
		}
	}
	if err := <-asked; err != nil {
		return fail(fmt.Errorf("look up blob sizes: %w", err))
	}
	fetched := writeCommands(in, "contents", within(ids, sizes, limit), "")
	go func() {
		<-fetched // an error shows as a short read of the contents
		in.Close()
	}()
	return sizes, &blobStream{proc: p, rd: rd}, nil
}

// writeCommands writes "command id" for each id, then end, to git's input
// in the background, and reports on the channel how the writing ended.
func writeCommands(in io.Writer, command string, ids []string, end string) <-chan error {
	done := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(in, 64<<10)
		for _, id := range ids {
			w.WriteString(command + " " + id + "\n")
		}
		w.WriteString(end)
		done <- w.Flush()
	}()
	return done
}

// blobSizes returns the size of each blob; a missing blob has no entry.
func (r *Repo) blobSizes(ctx context.Context, ids []string) (map[string]int64, error) {
	in := strings.Join(ids, "\n") + "\n"
	out, err := r.git.output(ctx, strings.NewReader(in), "cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)")
	if err != nil {
		return nil, fmt.Errorf("look up blob sizes: %w", err)
	}
	sizes := make(map[string]int64, len(ids))
	sc := bufio.NewScanner(bytes.NewReader(out))
	for _, id := range ids {
		if !sc.Scan() {
			return nil, errors.New("look up blob sizes: short answer from git cat-file")
		}
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[1] == "blob" {
			sizes[id], _ = strconv.ParseInt(f[2], 10, 64)
		}
	}
	return sizes, sc.Err()
}

// blobStream reads blobs, in the order asked for, from `git cat-file --batch`.
type blobStream struct {
	proc *process
	rd   *bufio.Reader
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

// next reads the next blob, which must be id, into memory of its own:
// the caller may keep it (pack decodes text without a copy).
func (s *blobStream) next(id string) ([]byte, error) {
	header, err := s.rd.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", id, err)
	}
	f := strings.Fields(header)
	if len(f) != 3 || f[0] != id {
		return nil, fmt.Errorf("git cat-file: expected blob %s, got %q", id, strings.TrimSpace(header))
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(header))
	}
	buf := make([]byte, size+1) // the content and a newline
	if _, err := io.ReadFull(s.rd, buf); err != nil {
		return nil, fmt.Errorf("read blob %s: %w", id, err)
	}
	return buf[:size], nil
}

func (s *blobStream) close() error { return s.proc.wait() }
