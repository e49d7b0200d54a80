package gitctx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
)

// HistoryCommit is one commit of the history before a change: the files
// it touched.
type HistoryCommit struct {
	SHA   string
	Files []string
}

// History lists, newest first, up to max commits (merges left out) that
// touched any of paths, each with every file it touched, among the window
// most recent commits (0: all of them). It walks the history the change
// starts from: the base of a range, HEAD for the index and the work tree.
// A patch without a repository has none.
//
// The window bounds the walk, which is what costs: git diffs each commit's
// tree to match paths, about 30µs a commit without a commit-graph.
func (c *Change) History(ctx context.Context, paths []string, max, window int) ([]HistoryCommit, error) {
	start := c.historyStart()
	if start == "" || len(paths) == 0 || max <= 0 {
		return nil, nil
	}
	revs := []string{start}
	if window > 0 {
		// the first commit outside the window; none when history is shorter
		out, err := c.repo.git.output(ctx, nil, "rev-list", fmt.Sprintf("--skip=%d", window), "-n1", start, "--")
		if err != nil {
			return nil, fmt.Errorf("read history: %w", err)
		}
		if edge := strings.TrimSpace(string(out)); edge != "" {
			revs = append(revs, "^"+edge)
		}
	}
	args := append([]string{"log", "--no-merges", "-z", "--format=%x01%H", "--name-only", "--full-diff", "--no-renames",
		fmt.Sprintf("-n%d", max)}, revs...)
	out, err := c.repo.git.output(ctx, nil, append(append(args, "--"), paths...)...)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	var commits []HistoryCommit
	for _, rec := range bytes.Split(out, []byte{1}) {
		fields := bytes.Split(rec, []byte{0})
		if len(fields) == 0 || len(fields[0]) == 0 {
			continue
		}
		sha, first, _ := strings.Cut(string(fields[0]), "\n")
		hc := HistoryCommit{SHA: sha}
		if first != "" {
			hc.Files = append(hc.Files, first)
		}
		for _, f := range fields[1:] {
			if p := strings.TrimPrefix(string(f), "\n"); p != "" {
				hc.Files = append(hc.Files, p)
			}
		}
		commits = append(commits, hc)
	}
	return commits, nil
}

// historyStart is the commit the history before the change ends at.
func (c *Change) historyStart() string {
	if c.repo == nil {
		return ""
	}
	switch c.Source.Kind {
	case KindRange, KindPullRequest:
		return c.Source.Base
	case KindPatch:
		return "HEAD"
	}
	return c.Source.Base // HEAD's commit; empty on an unborn branch
}

// Grep finds which files on the change's new side contain each word as a
// whole word: word → paths. It searches the head commit of a range, the
// index for a staged change and the work tree otherwise, with one
// `git grep`.
func (c *Change) Grep(ctx context.Context, words []string) (map[string][]string, error) {
	if c.repo == nil || len(words) == 0 {
		return nil, nil
	}
	args := []string{"grep", "-I", "-z", "-w", "-F", "-o", "--no-color", "--full-name"}
	for _, w := range words {
		args = append(args, "-e", w)
	}
	switch c.Source.Kind {
	case KindRange, KindPullRequest:
		args = append(args, c.Source.Head)
	case KindStaged:
		args = append(args, "--cached")
	case KindWorktree:
		args = append(args, "--untracked") // untracked files are on the new side too
	}
	g := c.repo.git
	out, err := g.output(ctx, nil, append(args, "--")...)
	if err != nil {
		var gerr *Error
		if errors.As(err, &gerr) && len(out) == 0 && strings.TrimSpace(gerr.Stderr) == "" {
			return map[string][]string{}, nil // exit 1: no match
		}
		return nil, fmt.Errorf("search for references: %w", err)
	}
	return parseGrep(out, c.Source.Kind == KindRange || c.Source.Kind == KindPullRequest), nil
}

// parseGrep reads `git grep -z -o` output: path NUL line-number-less match
// lines, "path\0word\n" (a commit-prefixed path, "rev:path", for a tree).
func parseGrep(out []byte, fromTree bool) map[string][]string {
	found := map[string][]string{}
	seen := map[string]bool{}
	for _, line := range bytes.Split(out, []byte{'\n'}) {
		path, word, ok := bytes.Cut(line, []byte{0})
		if !ok {
			continue
		}
		p := string(path)
		if fromTree {
			if _, rest, ok := strings.Cut(p, ":"); ok {
				p = rest
			}
		}
		key := string(word) + "\x00" + p
		if !seen[key] {
			seen[key] = true
			found[string(word)] = append(found[string(word)], p)
		}
	}
	return found
}
