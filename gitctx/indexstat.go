package gitctx

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// emptyBlob is the id of the empty blob (SHA-1).
var emptyBlob = plumbing.NewHash("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")

// unsureFiles reads the work tree's index and lists the files whose state
// its stat data leaves open: every tracked file whose size, times, inode,
// owner or type differ from what the index recorded, that the index
// records as racily clean (modified no earlier than the index was
// written, to the nanosecond, where git compares seconds), a racily
// smudged entry, a submodule, an unmerged or intent-to-add entry. Every
// other file is as the index has it, as git itself would conclude (git
// diff-files compares the same fields). A file marked skip-worktree is
// left out, as git leaves it out (skipWorktree says whether there is
// one). ok is false where the index cannot be read so: a GIT_INDEX_FILE,
// an index extension go-git does not know (a split or sparse index), a
// repository of SHA-256 ids (commit is one of its ids), a system whose
// stat data this does not read.
func (r *Repo) unsureFiles(commit string) (unsure []string, skipWorktree, ok bool) {
	if !statSettles || len(commit) != 40 || os.Getenv("GIT_INDEX_FILE") != "" {
		return nil, false, false
	}
	idx, st, err := readIndex(filepath.Join(r.GitDir, "index"))
	if err != nil {
		return nil, false, false
	}
	skipWorktree = slices.ContainsFunc(idx.Entries, func(e *index.Entry) bool { return e.SkipWorktree })
	return r.unsureEntries(idx.Entries, st.ModTime()), skipWorktree, true
}

// readIndex decodes the index file at path, and stats it: with
// decodeIndex, else (a layout it does not read) with go-git.
func readIndex(path string) (*index.Index, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, st.Size()+1))
	if err != nil {
		return nil, nil, err
	}
	if idx, err := decodeIndex(data); err == nil {
		return idx, st, nil
	}
	var idx index.Index
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(&idx); err != nil {
		return nil, nil, err
	}
	return &idx, st, nil
}

// unsureEntries checks the entries' files on every core (a stat each:
// 8 ms for terraform's 5,457 files on one).
func (r *Repo) unsureEntries(entries []*index.Entry, written time.Time) []string {
	workers := max(1, min(runtime.GOMAXPROCS(0), 4, len(entries)/512))
	found := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		part := entries[w*len(entries)/workers : (w+1)*len(entries)/workers]
		wg.Go(func() {
			for _, e := range part {
				if !r.settled(e, written) {
					found[w] = append(found[w], e.Name)
				}
			}
		})
	}
	wg.Wait()
	var out []string
	for _, names := range found {
		out = append(out, names...)
	}
	return out
}

// settled reports whether the index entry settles its file's state: the
// work tree holds what the entry records, or git leaves the file alone.
func (r *Repo) settled(e *index.Entry, written time.Time) bool {
	switch {
	case e.SkipWorktree:
		return true
	case e.Stage != 0, e.IntentToAdd, e.Mode == filemode.Submodule:
		// (the decoder reads git's stage, 0 when merged; go-git's
		// constant index.Merged is 1)
		return false
	case e.Size == 0 && e.Hash != emptyBlob:
		return false // smudged: git found it racily clean when it wrote the index
	}
	mtime, same := statMatches(filepath.Join(r.Root, filepath.FromSlash(e.Name)), e)
	return same && mtime.Before(written)
}
