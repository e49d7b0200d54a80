package gitctx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// TreeEntry is one file of the repository as it is after the change.
type TreeEntry struct {
	Path string
	Mode uint32
	ID   string // blob id; empty for a file only in the work tree
	// SkipWorktree marks a file of the index outside a sparse checkout
	// (skip-worktree): git takes the index's blob for it, whatever the
	// work tree holds (most often nothing), so it is read from ID even
	// where the work tree is the new side.
	SkipWorktree bool
}

// fromWorktree reports whether e's content is read from the work tree in
// change c: a work-tree change's or a patch's tracked and untracked
// files, and any file without a blob, but not a file git leaves out of
// the work tree (skip-worktree).
func (c *Change) fromWorktree(e TreeEntry) bool {
	return e.ID == "" || (c.Source.Kind == KindWorktree || c.Source.Kind == KindPatch) && !e.SkipWorktree
}

// Tree lists the files of the repository on the change's new side: the head
// commit of a range, the index for a staged change, the work tree (tracked
// and untracked-but-not-ignored files) for a work-tree change or a patch.
// It is listed once and kept. Without a repository it is empty.
func (c *Change) Tree(ctx context.Context) ([]TreeEntry, error) {
	if c.repo == nil {
		return nil, nil
	}
	c.treeMu.Lock()
	defer c.treeMu.Unlock()
	if c.tree != nil {
		return c.tree, nil
	}
	var entries []TreeEntry
	var err error
	switch c.Source.Kind {
	case KindRange, KindPullRequest:
		var ok bool
		if entries, ok = c.repo.treeFromIndex(ctx, c.Source.Head); !ok {
			entries, err = c.repo.lsTree(ctx, c.Source.Head)
		}
	default:
		entries, err = c.repo.lsFiles(ctx)
		if c.Source.Kind == KindStaged {
			// an unmerged path has no staged version (SelectStaged
			// refuses an index with one), nor has an intent-to-add one
			ita := c.repo.intentToAdd(ctx, entries)
			entries = slices.DeleteFunc(entries, func(e TreeEntry) bool { return e.ID == "" || ita[e.Path] })
		} else if err == nil {
			untracked := c.untracked
			if untracked == nil {
				untracked, err = c.repo.untracked(ctx)
			}
			for _, p := range untracked {
				entries = append(entries, TreeEntry{Path: p, Mode: ModeRegular})
			}
		}
	}
	if err != nil {
		return nil, err
	}
	c.tree = entries
	return entries, nil
}

// ReadTree reads a file listed by Tree, with the same rules as Read: links
// are not followed, and over limit only the size is returned.
func (c *Change) ReadTree(ctx context.Context, e TreeEntry, limit int64) (int64, []byte, error) {
	if c.repo == nil {
		return 0, nil, fmt.Errorf("%s: no repository to read from", e.Path)
	}
	if e.Mode == ModeSubmodule {
		line := []byte("Subproject commit " + e.ID + "\n")
		return int64(len(line)), line, nil
	}
	if c.fromWorktree(e) && (e.ID == "" || !c.filtered(ctx, e.Path)) {
		return c.repo.readWorktree(e.Path, limit) // a filtered file as git holds it (see filtered)
	}
	// A few files are read this way (manifests, guides): a git process
	// each is cheaper than opening a large pack index in process.
	store, err := c.repo.objectStore()
	if err != nil {
		return 0, nil, err
	}
	return store.blobCLI(ctx, e.ID, limit)
}

// lsTree lists the files of a commit.
func (r *Repo) lsTree(ctx context.Context, commit string) ([]TreeEntry, error) {
	out, err := r.git.output(ctx, nil, "ls-tree", "-r", "-z", "--full-tree", commit)
	if err != nil {
		return nil, fmt.Errorf("list files of %s: %w", ShortID(commit), err)
	}
	var entries []TreeEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		// <mode> SP <type> SP <id> TAB <path>
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := bytes.Fields(meta)
		if len(f) != 3 {
			continue
		}
		mode, _ := strconv.ParseUint(string(f[0]), 8, 32)
		entries = append(entries, TreeEntry{Path: string(path), Mode: uint32(mode), ID: string(f[2])})
	}
	return entries, nil
}

// lsFiles lists the files of the index, those outside a sparse checkout
// marked SkipWorktree. An unmerged path (a conflict git left for the user
// to resolve) is listed once, with no id: none of its stages (the merge
// base's, ours, theirs) is the file, which only the work tree holds; its
// mode is ours where there is one.
func (r *Repo) lsFiles(ctx context.Context) ([]TreeEntry, error) {
	out, err := r.git.output(ctx, nil, "ls-files", "-s", "-t", "-z")
	if err != nil {
		return nil, fmt.Errorf("list files of the index: %w", err)
	}
	var entries []TreeEntry
	at := map[string]int{} // an unmerged path's entry
	for _, rec := range bytes.Split(out, []byte{0}) {
		// <tag> SP <mode> SP <id> SP <stage> TAB <path>; tag S: skip-worktree
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := bytes.Fields(meta)
		if len(f) != 4 {
			continue
		}
		mode, _ := strconv.ParseUint(string(f[1]), 8, 32)
		e := TreeEntry{Path: string(path), Mode: uint32(mode), ID: string(f[2]), SkipWorktree: string(f[0]) == "S"}
		if stage := string(f[3]); stage != "0" {
			e.ID = ""
			if i, seen := at[e.Path]; seen {
				if stage == "2" {
					entries[i].Mode = e.Mode
				}
				continue
			}
			at[e.Path] = len(entries)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// intentToAdd names the index's intent-to-add entries (`git add -N`):
// a file promised to a later commit, held in the index as the empty blob,
// which is not what the file holds nor anything staged. nil when no entry
// is the empty blob (the index is read only then). An index gitctx cannot
// decode (a split one, SHA-256) is asked of git (see intentToAddByGit).
func (r *Repo) intentToAdd(ctx context.Context, entries []TreeEntry) map[string]bool {
	empty := emptyBlob.String()
	var candidates []string
	for _, e := range entries {
		if e.ID == empty || e.ID == emptyBlobSHA256 {
			candidates = append(candidates, e.Path)
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	path := os.Getenv("GIT_INDEX_FILE")
	switch {
	case path == "":
		path = filepath.Join(r.GitDir, "index")
	case !filepath.IsAbs(path):
		path = filepath.Join(r.Root, path) // git runs at the root
	}
	idx, _, err := readIndex(path)
	if err != nil {
		return r.intentToAddByGit(ctx, candidates)
	}
	var out map[string]bool
	for _, e := range idx.Entries {
		if e.IntentToAdd {
			if out == nil {
				out = map[string]bool{}
			}
			out[e.Name] = true
		}
	}
	return out
}

// emptyBlobSHA256 is the id of the empty blob in a SHA-256 repository.
const emptyBlobSHA256 = "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813"

// intentToAddByGit tells the intent-to-add entries among paths (entries of
// the empty blob) by asking git to diff the index against HEAD twice: an
// intent-to-add entry is an added file, unless intent-to-add entries are
// left out (--ita-invisible-in-index). nil when git cannot say.
func (r *Repo) intentToAddByGit(ctx context.Context, paths []string) map[string]bool {
	base, _, err := r.head(ctx)
	if err != nil {
		return nil
	}
	added := func(extra ...string) map[string]bool {
		args := append([]string{"diff-index", "--cached", "--name-only", "-z", "--diff-filter=A", "--no-renames"}, extra...)
		out, err := r.git.output(ctx, nil, append(append(args, base, "--"), paths...)...)
		if err != nil {
			return nil
		}
		set := map[string]bool{}
		for _, p := range strings.Split(string(out), "\x00") {
			if p != "" {
				set[p] = true
			}
		}
		return set
	}
	all, visible := added(), added("--ita-invisible-in-index")
	if all == nil || visible == nil {
		return nil
	}
	var out map[string]bool
	for p := range all {
		if !visible[p] {
			if out == nil {
				out = map[string]bool{}
			}
			out[p] = true
		}
	}
	return out
}

// ReadBaseFile reads a file as it is in the change's base commit: the
// configuration a change must not be able to rewrite (in a pull request,
// the head is the author's; the base is not). ok is false when the base
// has no such file or there is no base commit.
func (c *Change) ReadBaseFile(ctx context.Context, path string, limit int64) (data []byte, ok bool, err error) {
	if c.repo == nil || c.Source.Base == "" {
		return nil, false, nil
	}
	if err := checkPath(path); err != nil {
		return nil, false, err
	}
	out, err := c.repo.git.output(ctx, nil, "cat-file", "-s", c.Source.Base+":"+path)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		return nil, false, nil // no such file (or the base is the empty tree)
	}
	if size, _ := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64); limit >= 0 && size > limit {
		return nil, false, fmt.Errorf("%s in %s is %d bytes: %w", path, ShortID(c.Source.Base), size, ErrTooLarge)
	}
	data, err = c.repo.git.output(ctx, nil, "cat-file", "blob", c.Source.Base+":"+path)
	if err != nil {
		return nil, false, fmt.Errorf("read %s from %s: %w", path, ShortID(c.Source.Base), err)
	}
	return data, true, nil
}

// ReadTreeToSearch is ReadTreeEach for files read to be searched, not
// shown, in no particular order. For a range whose head commit the work
// tree stands in for (see standIn), the files the work tree holds as the
// commit does are read from disk: on prometheus, 400 Go files took 26 ms
// of git's CPU to inflate and 5 to 10 ms to read. Their bytes are the work
// tree's, so a checkout's conversions (end of line) show; the others come
// from the commit, as does a file the work tree turns out not to have. fn
// may keep data, as ReadEach's.
func (c *Change) ReadTreeToSearch(ctx context.Context, entries []TreeEntry, limit int64, fn func(e TreeEntry, data []byte, err error) error) error {
	if len(entries) == 0 {
		return nil
	}
	if c.repo == nil || (c.Source.Kind != KindRange && c.Source.Kind != KindPullRequest) {
		return c.ReadTreeEach(ctx, entries, limit, fn)
	}
	differ, ok := c.standIn(ctx)
	if !ok {
		return c.ReadTreeEach(ctx, entries, limit, fn)
	}
	var same, other []TreeEntry
	for _, e := range entries {
		if differ[e.Path] || e.Mode != ModeRegular && e.Mode != ModeExecutable {
			other = append(other, e)
		} else {
			same = append(same, e)
		}
	}
	// searched, never shown: a filtered file's text as the work tree holds
	// it does (see filtered), and the work tree is not listed for it
	worktree := &Change{Source: Source{Kind: KindWorktree}, repo: c.repo, filtersDecided: true}
	err := worktree.ReadTreeEach(ctx, same, limit, func(e TreeEntry, data []byte, err error) error {
		if err != nil && !errors.Is(err, ErrTooLarge) && ctx.Err() == nil {
			// not in the work tree after all (a file marked skip-worktree
			// and removed, which git diff-index does not report)
			other = append(other, e)
			return nil
		}
		return fn(e, data, err)
	})
	if err != nil {
		return err
	}
	return c.ReadTreeEach(ctx, other, limit, fn)
}

// ReadTreeEach reads many files listed by Tree, in order, as ReadTree would:
// blobs stream from one `git cat-file --batch`; files of the work tree are
// read from disk. fn may keep data, as ReadEach's.
func (c *Change) ReadTreeEach(ctx context.Context, entries []TreeEntry, limit int64, fn func(e TreeEntry, data []byte, err error) error) error {
	c.waitPrefetch(ctx)
	files := make([]*File, len(entries))
	byFile := make(map[*File]TreeEntry, len(entries))
	for i, e := range entries {
		f := &File{Path: e.Path, Status: Modified, NewMode: e.Mode, NewID: e.ID, newFromBlob: e.SkipWorktree}
		switch {
		case c.fromWorktree(e) && e.ID != "" && c.filtered(ctx, e.Path):
			f.newFromBlob = true // as git holds it (see filtered)
		case c.fromWorktree(e):
			f.NewID = "" // read from the work tree
		}
		files[i] = f
		byFile[f] = e
	}
	tree := &Change{Source: Source{Kind: KindWorktree}, repo: c.repo, worktree: c.Source.Kind == KindWorktree || c.Source.Kind == KindPatch, diskFirst: c.diskFirst,
		filtersDecided: true}
	return tree.ReadEach(ctx, files, New, limit, func(f *File, _ int64, data []byte, err error) error {
		return fn(byFile[f], data, err)
	})
}
