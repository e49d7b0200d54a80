package gitctx

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
)

// SourceKind says where a change came from.
type SourceKind string

// The kinds of change gitctx can select.
const (
	KindRange       SourceKind = "range"
	KindStaged      SourceKind = "staged"
	KindWorktree    SourceKind = "worktree"
	KindPatch       SourceKind = "patch"
	KindPullRequest SourceKind = "pull_request"
)

// Source describes the selected change: what the user asked for and the
// commits it resolved to.
type Source struct {
	Kind      SourceKind
	Spec      string // as given: "HEAD~3..HEAD", "main...feature", "-" for a patch on stdin
	Base      string // the commit (or tree) the change is measured from; empty for a patch
	Head      string // the commit the change leads to; empty for staged, worktree and patch
	MergeBase string // for A...B: the merge base, which is also Base
	Shallow   bool   // the repository is a shallow clone
}

// Status is how a file changed.
type Status string

// File statuses, as the record names them.
const (
	Added       Status = "added"
	Modified    Status = "modified"
	Deleted     Status = "deleted"
	Renamed     Status = "renamed"
	Copied      Status = "copied"
	ModeChanged Status = "mode_changed"
	TypeChanged Status = "type_changed"
)

// Git file modes that matter to a pack.
const (
	ModeRegular    = 0o100644
	ModeExecutable = 0o100755
	ModeSymlink    = 0o120000
	ModeSubmodule  = 0o160000
)

// File is one changed file. Paths are relative to the repository root with
// forward slashes, exactly as git stores them (any byte but NUL).
type File struct {
	Path    string // the new path (the old one for a deletion)
	OldPath string // set for renames and copies
	Status  Status
	OldMode uint32 // 0 when the file is added
	NewMode uint32 // 0 when the file is deleted
	OldID   string // blob id of the pre-image; empty when added or unknown
	NewID   string // blob id of the post-image; empty when deleted or only in the work tree
	Score   int    // similarity in percent for renames and copies

	patch   *Patch        // set for patch input, where the diff is all there is
	applyTo *gitdiff.File // the parsed patch, to rebuild the post-image
	// steps: the patches of a series that change the file, in order,
	// when there are several (see composeSeries)
	steps []*gitdiff.File
	// newFromBlob: the new side is NewID's blob even in a change whose
	// new side is the work tree (a file outside a sparse checkout)
	newFromBlob bool
}

// Mode is the file's mode on the side that exists (new, else old).
func (f *File) Mode() uint32 {
	if f.NewMode != 0 {
		return f.NewMode
	}
	return f.OldMode
}

// IsSubmodule reports whether the file is a submodule pointer.
func (f *File) IsSubmodule() bool { return f.Mode() == ModeSubmodule }

// IsSymlink reports whether the file is a symbolic link.
func (f *File) IsSymlink() bool { return f.Mode() == ModeSymlink }

// Commit is one commit of a range.
type Commit struct {
	SHA     string
	Subject string
	Message string // the whole message, subject included
}

// Change is a selected change: its source, the files it touches and, for a
// range, its commits. Its methods read the patches and the contents of its
// files on demand, so that only what is emitted is ever read.
type Change struct {
	Source Source
	Files  []*File
	// Commits are the change's commits, newest first. A range's are
	// listed in the background: they are complete once WaitCommits has
	// returned without error.
	Commits []Commit
	commits func() error // waits for Commits (nil: complete)
	cut     []string     // see CommitsCut

	repo     *Repo
	diffArgs []string // the endpoints given to git diff: ["base", "head"], ["--cached", "base"], ["base"]
	diffEnv  []string // extra environment for git diff (a temporary index)
	worktree bool     // post-images live in the work tree
	// diskFirst: new sides the work tree holds as their blobs are read
	// from it (see readVerified)
	diskFirst bool
	cleanup   func() error

	treeMu    sync.Mutex // Tree may be asked from several goroutines
	tree      []TreeEntry
	untracked []string // a work-tree change's untracked files, as selected (nil: not listed)
	large     []string // those of them over LargeFile, listed but never diffed or searched

	largeMu      sync.Mutex
	largePatches map[*File]*Patch // the large files' patches, read once (see largePatch)

	pendingMu sync.Mutex
	pending   []*pendingPatches // the patches git is printing for the first Patches, if any (see rawWithPatches)

	standInOnce sync.Once // see standIn
	differ      map[string]bool
	standInOK   bool

	filtersOnce    sync.Once // see filtered
	filters        []gitattributes.MatchAttribute
	filtersDecided bool // the files to read were told filtered or not (see ReadTreeEach)

	prefetchOnce sync.Once
	prefetched   atomic.Value // chan struct{}, closed once the head's blobs are fetched (see PrepareSearch)
	passOver     []string     // names of the directories the searches pass over (see PrepareSearch)
}

// WaitCommits waits until Commits is complete, and reports why it could
// not be listed.
func (c *Change) WaitCommits() error {
	if c.commits == nil {
		return nil
	}
	return c.commits()
}

// CommitsCut lists the commits of Commits whose parents a shallow clone
// lacks: git's walk of the range stops at them, so Commits may miss older
// commits of the range (the diff, tree against tree, is whole). Empty
// when the list is complete. Valid once WaitCommits has returned.
func (c *Change) CommitsCut() []string { return c.cut }

// Repo is the repository the change belongs to; nil for a patch read
// outside any repository.
func (c *Change) Repo() *Repo { return c.repo }

// Close removes temporary files made for the change.
func (c *Change) Close() error {
	for _, pp := range c.takePending() {
		_ = pp.finish(errors.New("closed")) // patches never read: stop git
	}
	if c.cleanup == nil {
		return nil
	}
	err := c.cleanup()
	c.cleanup = nil
	return err
}

// Side says which version of a file to read.
type Side int

// The two sides of a change.
const (
	Old Side = iota
	New
)

// Read returns the content of one side of f. limit caps the size (in bytes,
// < 0 for none): over it, Read returns the size and an error wrapping
// ErrTooLarge without reading the content. A symbolic link reads as its
// target text, a submodule as its pointer line; neither is followed.
func (c *Change) Read(ctx context.Context, f *File, side Side, limit int64) (int64, []byte, error) {
	mode, id := f.NewMode, f.NewID
	if side == Old {
		mode, id = f.OldMode, f.OldID
	}
	if mode == 0 {
		return 0, nil, fmt.Errorf("%s has no %s version", f.Path, sideName(side))
	}
	if mode == ModeSubmodule {
		line := []byte("Subproject commit " + id + "\n")
		return int64(len(line)), line, nil
	}
	if side == New && c.worktree && !f.newFromBlob {
		// The work tree is the new side: git may have hashed a file for
		// rename detection without storing the blob.
		if c.filtered(ctx, f.Path) {
			return c.readFiltered(ctx, f.Path, id, limit)
		}
		n, data, err := c.repo.readWorktree(f.Path, limit)
		if errors.Is(err, fs.ErrNotExist) {
			// not on disk, yet changed: a skip-worktree entry (outside a
			// sparse checkout), which git takes as the index has it
			if n, data, ok, berr := c.storedBlob(ctx, id, limit); ok {
				return n, data, berr
			}
		}
		return n, data, err
	}
	if side == New && f.patch != nil && id == "" {
		return c.readPatched(ctx, f, limit)
	}
	if id == "" || isZeroID(id) || c.repo == nil {
		return 0, nil, fmt.Errorf("%s: the %s version is not available", f.Path, sideName(side))
	}
	store, err := c.repo.objectStore()
	if err != nil {
		return 0, nil, err
	}
	return store.blob(ctx, id, limit)
}

func sideName(s Side) string {
	if s == Old {
		return "old"
	}
	return "new"
}

func isZeroID(id string) bool {
	for i := 0; i < len(id); i++ {
		if id[i] != '0' {
			return false
		}
	}
	return true
}
