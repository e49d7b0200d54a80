package gitctx

import (
	"bytes"
	"context"
	"fmt"
	"slices"
)

// ListFiles lists the files of the work tree that git does not ignore,
// under the given directories or files (relative to the root, taken
// literally; none: the whole tree). These are the files of the index and,
// with untracked, the untracked files that no .gitignore,
// .git/info/exclude or core.excludesFile excludes. The paths are relative
// to the root, with forward slashes, sorted, each once. A file of the
// index may be missing from the disk (deleted, or outside a sparse
// checkout): the caller checks.
func (r *Repo) ListFiles(ctx context.Context, untracked bool, paths ...string) ([]string, error) {
	args := []string{"ls-files", "-z", "--cached"}
	if untracked {
		args = append(args, "--others", "--exclude-standard")
	}
	args = append(args, "--")
	for _, p := range paths {
		if p == "." || p == "" {
			return r.ListFiles(ctx, untracked) // the whole tree
		}
		if err := checkPath(p); err != nil {
			return nil, err
		}
		args = append(args, p)
	}
	out, err := r.git.output(ctx, nil, args...)
	if err != nil {
		return nil, fmt.Errorf("list files: %w", err)
	}
	var list []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			list = append(list, string(p))
		}
	}
	slices.Sort(list)
	return slices.Compact(list), nil // a conflicted file is listed once per stage
}

// ReadWorktree reads a file of the work tree by its path relative to the
// root, as Read reads the new side of a work-tree change: never under .git
// or out of the root, a symbolic link as its target text, and over limit
// (≥ 0) only the size, with an error wrapping ErrTooLarge, the content
// unread.
func (r *Repo) ReadWorktree(name string, limit int64) (int64, []byte, error) {
	return r.readWorktree(name, limit)
}
