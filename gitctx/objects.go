package gitctx

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ErrTooLarge is returned when content is over the size limit; the size is
// known without reading the content.
var ErrTooLarge = errors.New("over the size limit")

// objects reads blobs in process with go-git, and through the git CLI when
// go-git cannot (SHA-256 repositories, alternates, partial clones).
type objects struct {
	mu  sync.Mutex // go-git's storage is not safe for concurrent use
	st  *filesystem.Storage
	git *git
}

func openObjects(commonDir string, g *git) (*objects, error) {
	st := filesystem.NewStorageWithOptions(osfs.New(commonDir), cache.NewObjectLRU(16*cache.MiByte),
		filesystem.Options{KeepDescriptors: true})
	return &objects{st: st, git: g}, nil
}

func (o *objects) close() error { return o.st.Close() }

// blob returns a blob's size and, when the size is within limit (limit < 0:
// no limit), its content. Over the limit it returns the size and an error
// wrapping ErrTooLarge.
func (o *objects) blob(ctx context.Context, id string, limit int64) (int64, []byte, error) {
	if size, data, err := o.blobGoGit(id, limit); err == nil || errors.Is(err, ErrTooLarge) {
		return size, data, err
	}
	return o.blobCLI(ctx, id, limit)
}

// largeBlob is the size above which blob reads through git (blobCLI).
const largeBlob = 4 << 20

// errLargeBlob sends a blob over largeBlob to blobCLI.
var errLargeBlob = errors.New("a large blob, read through git")

func (o *objects) blobGoGit(id string, limit int64) (int64, []byte, error) {
	if len(id) != 40 {
		return 0, nil, errors.New("not a SHA-1 id")
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	// The size first, from the object's header: go-git reads a loose
	// object whole into a buffer it grows as it goes (300 MB allocated
	// for a 54 MB blob), so a large blob is left to git, whose answer
	// names its size before the content, and one over limit is not read.
	if size, err := o.st.EncodedObjectSize(plumbing.NewHash(id)); err == nil {
		switch {
		case limit >= 0 && size > limit:
			return size, nil, fmt.Errorf("blob %s is %d bytes: %w", id, size, ErrTooLarge)
		case size > largeBlob:
			return 0, nil, errLargeBlob
		}
	}
	obj, err := o.st.EncodedObject(plumbing.BlobObject, plumbing.NewHash(id))
	if err != nil {
		return 0, nil, err
	}
	size := obj.Size()
	if limit >= 0 && size > limit {
		return size, nil, fmt.Errorf("blob %s is %d bytes: %w", id, size, ErrTooLarge)
	}
	rd, err := obj.Reader()
	if err != nil {
		return 0, nil, err
	}
	defer rd.Close()
	data := make([]byte, size)
	if _, err := io.ReadFull(rd, data); err != nil {
		return 0, nil, err
	}
	return size, data, nil
}

// blobCLI is blob through one `git cat-file --batch`, which names the
// blob's size before its content: git is stopped there when the size is
// over limit.
func (o *objects) blobCLI(ctx context.Context, id string, limit int64) (int64, []byte, error) {
	var size int64
	var data []byte
	err := o.git.streamFrom(ctx, strings.NewReader(id+"\n"), func(out io.Reader) error {
		br := bufio.NewReader(out)
		header, err := br.ReadString('\n')
		if err != nil {
			return fmt.Errorf("read blob %s: %w", id, err)
		}
		// "<id> blob <size>", or "<id> missing"
		f := strings.Fields(header)
		if len(f) != 3 || f[1] != "blob" {
			return fmt.Errorf("read blob %s: git cat-file says %q", id, strings.TrimSpace(header))
		}
		if size, err = strconv.ParseInt(f[2], 10, 64); err != nil {
			return fmt.Errorf("read blob %s: size %q: %w", id, f[2], err)
		}
		if limit >= 0 && size > limit {
			return fmt.Errorf("blob %s is %d bytes: %w", id, size, ErrTooLarge)
		}
		data = make([]byte, size)
		if _, err := io.ReadFull(br, data); err != nil {
			return fmt.Errorf("read blob %s: %w", id, err)
		}
		return nil
	}, "cat-file", "--batch")
	if errors.Is(err, ErrTooLarge) {
		return size, nil, err
	}
	if err != nil {
		return 0, nil, err
	}
	return size, data, nil
}
