package gitctx

import (
	"bytes"
	"context"
	"errors"
	"path"

	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
)

// A file with a `filter` attribute is not stored as the work tree holds
// it: git runs its clean filter on the way in and its smudge filter on the
// way out. git-crypt is one: the work tree holds the plaintext, git the
// ciphertext. A work-tree change's diff is of the cleaned text, as git
// stores it; the file read from the disk is the smudged text, which git
// never stores and the change's author may have meant never to leave the
// machine. So a filtered file is read as git holds it: a file the change
// leaves as it is from its blob, and a changed one not at all (its diff
// alone is shown).

// filteredFile is the error of reading a filtered file's new side from
// the work tree.
type filteredFile struct{ path string }

func (e *filteredFile) Error() string {
	return e.path + ": git filters it (a filter attribute): the work tree holds text git does not store, so the diff alone is shown"
}

// readFiltered reads a filtered file's new side as git holds it: its blob
// id, if git has stored it (a file the change leaves as it is); else it
// is a *filteredFile error.
func (c *Change) readFiltered(ctx context.Context, p, id string, limit int64) (int64, []byte, error) {
	if n, data, ok, err := c.storedBlob(ctx, id, limit); ok {
		return n, data, err
	}
	return 0, nil, &filteredFile{p}
}

// storedBlob reads the blob id if git has it (over limit, only its size,
// with an ErrTooLarge error); ok is false when there is no such blob to
// read, so that the caller falls back on what it knows.
func (c *Change) storedBlob(ctx context.Context, id string, limit int64) (n int64, data []byte, ok bool, err error) {
	if id == "" || isZeroID(id) {
		return 0, nil, false, nil
	}
	store, serr := c.repo.objectStore()
	if serr != nil {
		return 0, nil, false, nil
	}
	n, data, err = store.blob(ctx, id, limit)
	return n, data, err == nil || errors.Is(err, ErrTooLarge), err
}

// filtered reports whether p has a filter attribute, for a change whose new
// side is read from the work tree. The attributes are those of the
// .gitattributes files the index holds (listed by Tree), read from the
// work tree, as git applies them there; read once, on first need.
func (c *Change) filtered(ctx context.Context, p string) bool {
	if c.repo == nil || c.filtersDecided || c.Source.Kind != KindWorktree && c.Source.Kind != KindPatch {
		return false
	}
	c.filtersOnce.Do(func() {
		entries, err := c.Tree(ctx)
		if err == nil {
			c.filters = c.repo.filterStack(entries)
		}
	})
	return len(c.filters) > 0 && filterSet(c.filters, p)
}

// filterStack reads the tracked .gitattributes files among entries, from
// the work tree; a file that cannot be read or names no filter is left
// out.
func (r *Repo) filterStack(entries []TreeEntry) []gitattributes.MatchAttribute {
	var files []string
	for _, e := range entries {
		if e.ID != "" && path.Base(e.Path) == ".gitattributes" && e.Mode != ModeSymlink {
			files = append(files, e.Path)
		}
	}
	return parseAttributes(files, func(f string) ([]byte, bool) {
		_, data, err := r.readWorktree(f, maxAttributesBytes)
		return data, err == nil && bytes.Contains(data, []byte("filter"))
	})
}

// filterSet reports whether the last line of stack that matches p and
// names the filter attribute gives it a driver.
func filterSet(stack []gitattributes.MatchAttribute, p string) bool {
	a, ok := lastAttribute(stack, p, "filter")
	return ok && a.IsValueSet() && a.Value() != ""
}
