package gitctx

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// HooksDir is the directory git runs this work tree's hooks from, as
// `git rev-parse --git-path hooks` names it: core.hooksPath when it is set
// (a relative value is taken from the work tree's top level, or a bare
// repository's directory, as git does when it runs a hook), else the hooks directory of the common git
// directory, which a linked worktree shares with the main one. The
// directory may not exist yet.
func (r *Repo) HooksDir(ctx context.Context) (string, error) {
	out, err := r.git.output(ctx, nil, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return "", fmt.Errorf("find the hooks directory: %w", err)
	}
	dir := strings.TrimRight(string(out), "\n")
	if dir == "" {
		return "", fmt.Errorf("find the hooks directory: git rev-parse printed nothing")
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(r.Top(), dir) // where git runs
	}
	return filepath.Clean(dir), nil
}

// SelectIndex is SelectStaged with the index read from indexFile, as git
// hands it to a pre-commit hook in GIT_INDEX_FILE (`git commit -a` and
// `git commit PATH` build a temporary one). A relative path is taken from
// the current directory, as git takes it; "" is the repository's own
// index. Only the index and the object store are read, never the work tree.
func (r *Repo) SelectIndex(ctx context.Context, indexFile string) (*Change, error) {
	if indexFile == "" || r.Bare {
		return r.SelectStaged(ctx)
	}
	abs, err := filepath.Abs(indexFile)
	if err != nil {
		return nil, fmt.Errorf("index file %s: %w", indexFile, err)
	}
	base, unborn, err := r.head(ctx)
	if err != nil {
		return nil, err
	}
	src := Source{Kind: KindStaged, Spec: "--staged", Base: base, Shallow: r.Shallow}
	if unborn {
		src.Base = ""
	}
	env := []string{"GIT_INDEX_FILE=" + abs}
	files, unmerged, err := r.rawDiff(ctx, env, "--cached", base)
	if err != nil {
		return nil, err
	}
	if len(unmerged) > 0 {
		return nil, unmergedError(unmerged)
	}
	return &Change{Source: src, Files: files, repo: r, diffArgs: []string{"--cached", base}, diffEnv: env}, nil
}

// Outgoing lists the commits a push of local sends that no remote-tracking
// branch holds yet and that remoteTip (the remote's current commit, if this
// repository has it) does not reach: what a pre-push hook reads from its
// standard input. Merge commits are listed too: a merge's resolution can
// add lines of its own (see Parents). Oldest first; none when local is the
// all-zero id of a deletion. A push of a tag that names a tree or a blob,
// which no commit's change shows, is a *NotCommitError.
func (r *Repo) Outgoing(ctx context.Context, local, remoteTip string) ([]string, error) {
	return r.pushed(ctx, local, remoteTip, "--remotes")
}

// Incoming lists the commits a push to this repository brings in its
// update of a ref to newID that no ref holds yet: what a pre-receive hook
// reads from its standard input ("<old> <new> <ref>"; git keeps the
// pushed objects in a quarantine directory its environment names, where
// git finds them, and updates no ref before the hook accepts the push).
// Otherwise as Outgoing.
func (r *Repo) Incoming(ctx context.Context, newID string) ([]string, error) {
	return r.pushed(ctx, newID, "", "--all")
}

// pushed lists, oldest first, the commits tip reaches that neither have
// (when this repository has it) nor the refs of known reach (a rev-list
// option: --remotes, --all).
func (r *Repo) pushed(ctx context.Context, tip, have, known string) ([]string, error) {
	if !isObjectID(tip) {
		return nil, fmt.Errorf("push of %q: %w (want a full object id)", tip, ErrUnknownRevision)
	}
	if isZeroID(tip) {
		return nil, nil
	}
	out, err := r.git.output(ctx, nil, "cat-file", "-t", tip+"^{}")
	if err != nil {
		return nil, fmt.Errorf("the object pushed: %w", err)
	}
	if kind := strings.TrimSpace(string(out)); kind != "commit" {
		return nil, &NotCommitError{ID: tip, Kind: kind}
	}
	args := []string{"rev-list", "--reverse", tip}
	if have != "" && !isZeroID(have) {
		if !isObjectID(have) {
			return nil, fmt.Errorf("push over %q: %w (want a full object id)", have, ErrUnknownRevision)
		}
		if r.HasCommit(ctx, have) {
			args = append(args, "^"+have)
		}
	}
	out, err = r.git.output(ctx, nil, append(args, "--not", known, "--")...)
	if err != nil {
		return nil, fmt.Errorf("list the commits pushed: %w", err)
	}
	return strings.Fields(string(out)), nil
}

// NotCommitError is a push of an object that is not a commit (through any
// tags): a tree or a blob.
type NotCommitError struct {
	ID   string
	Kind string // as git names it: "tree", "blob"
}

func (e *NotCommitError) Error() string {
	return fmt.Sprintf("%s is a %s, not a commit", ShortID(e.ID), e.Kind)
}

// Parents lists a commit's parents, first parent first; none for a root
// commit.
func (r *Repo) Parents(ctx context.Context, id string) ([]string, error) {
	out, err := r.git.output(ctx, nil, "rev-list", "--parents", "-n", "1", id, "--")
	if err != nil {
		return nil, fmt.Errorf("parents of %s: %w", ShortID(id), err)
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 {
		return nil, fmt.Errorf("parents of %s: git rev-list printed nothing", ShortID(id))
	}
	return fields[1:], nil
}

// isObjectID reports whether s is a full hexadecimal object id (SHA-1 or
// SHA-256).
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
