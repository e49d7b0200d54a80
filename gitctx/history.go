package gitctx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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
// What costs is the walk: git diffs each commit's tree to match paths,
// about 15–90µs a commit without a commit-graph. The window's end is given
// to git as negative revisions (the parents of its oldest commit), so the
// walk stops there even when no commit near it touches the paths: a file
// moved or written a few hundred commits ago would otherwise have git diff
// every commit of the repository's history for nothing (moby's 57,000:
// 0.65 s, against 0.16 s for the window of 10,000).
func (c *Change) History(ctx context.Context, paths []string, max, window int) ([]HistoryCommit, error) {
	start := c.historyStart()
	if start == "" || len(paths) == 0 || max <= 0 {
		return nil, nil
	}
	if len(paths) > maxPathspecs {
		return c.historyOfMany(ctx, start, paths, max, window)
	}
	revs := []string{start}
	var inWindow map[string]bool
	if window > 0 {
		var beyond []string
		var err error
		if inWindow, beyond, err = c.repo.recentCommits(ctx, start, window); err != nil {
			return nil, fmt.Errorf("read history: %w", err)
		}
		for _, p := range beyond {
			revs = append(revs, "^"+p)
		}
	}
	args := append([]string{"log", "--no-merges", "-z", "--format=%x01%H", "--name-only", "--full-diff", "--no-renames",
		fmt.Sprintf("-n%d", max)}, revs...)
	args = append(append(args, "--"), paths...)
	var commits []HistoryCommit
	err := c.logRecords(ctx, args, func(rec []byte) error {
		// A commit of a side branch older than the window's oldest commit
		// is not its parents' ancestor, and is passed over.
		if hc, ok := parseHistoryRecord(rec); ok && (inWindow == nil || inWindow[hc.SHA]) {
			commits = append(commits, hc)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return commits, nil
}

// logRecords runs a `git log` whose format starts each commit with \x01
// and passes each commit's record, without it, to each. each may stop the
// log with errStopHistory, which is not an error.
func (c *Change) logRecords(ctx context.Context, args []string, each func(rec []byte) error) error {
	return c.logRecordsFrom(ctx, nil, args, each)
}

// logRecordsFrom is logRecords with stdin (which may be nil) as git's input.
func (c *Change) logRecordsFrom(ctx context.Context, stdin io.Reader, args []string, each func(rec []byte) error) error {
	err := c.repo.git.streamFrom(ctx, stdin, func(r io.Reader) error {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			rec, readErr := br.ReadBytes(1)
			if err := each(bytes.TrimSuffix(rec, []byte{1})); err != nil {
				return err
			}
			if readErr == io.EOF {
				return nil
			}
			if readErr != nil {
				return readErr
			}
		}
	}, args...)
	if err != nil && !errors.Is(err, errStopHistory) {
		return fmt.Errorf("read history: %w", err)
	}
	return nil
}

// maxPathspecs is the most paths History hands git to match. git matches
// each entry of every tree a commit changed against each path, so the walk
// slows with their product: on terraform, whose directories hold hundreds
// of files, 82 changed paths cost about 130µs a commit, and listing every
// commit's files unfiltered about 35µs. Past this many paths History lists
// every commit's files and keeps the commits that touch one of them
// (historyOfMany); below it the paths are cheaper for git to match.
const maxPathspecs = 32

// historyOfMany is History for many paths: `git log` lists the files of
// every commit of the window, unfiltered, and the commits that touch one
// of the paths are kept, up to max. It counts the window itself (merges
// included, as rev-list does) and stops git at the max-th commit kept.
// Unlike a path-limited log it does not simplify merges away, so a commit
// of a merged branch that touched a path is listed even when the merge
// kept the other side's version.
func (c *Change) historyOfMany(ctx context.Context, start string, paths []string, max, window int) ([]HistoryCommit, error) {
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		want[p] = true
	}
	args := []string{"log", "-z", "--format=%x01%H %P", "--name-only", "--no-renames"}
	if window > 0 {
		args = append(args, fmt.Sprintf("-n%d", window))
	}
	args = append(args, start, "--")
	var commits []HistoryCommit
	err := c.logRecords(ctx, args, func(rec []byte) error {
		if hc, merge, ok := parseParentedRecord(rec); ok && !merge && touchesAny(hc.Files, want) {
			if commits = append(commits, hc); len(commits) == max {
				return errStopHistory
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return commits, nil
}

// parseParentedRecord reads one commit of `git log -z --format="%x01%H %P"
// --name-only`, whose first line is the commit and its parents, and reports
// whether it is a merge.
func parseParentedRecord(rec []byte) (hc HistoryCommit, merge, ok bool) {
	hc, ok = parseHistoryRecord(rec)
	sha, parents, _ := strings.Cut(hc.SHA, " ")
	hc.SHA = sha
	return hc, strings.Contains(parents, " "), ok
}

func touchesAny(files []string, paths map[string]bool) bool {
	for _, f := range files {
		if paths[f] {
			return true
		}
	}
	return false
}

// errStopHistory stops `git log` once it has listed all that is wanted.
var errStopHistory = errors.New("past the history window")

// recentCommits lists the n most recent commits from start, in the order
// `git rev-list` walks them (newest first), and, when the history holds
// more, the parents of the last of them: the commits the window ends
// before. Listing 10,000 commits takes about 0.1 s without a commit-graph.
func (g *git) recentCommits(ctx context.Context, start string, n int) (map[string]bool, []string, error) {
	out, err := g.output(ctx, nil, "rev-list", "--parents", fmt.Sprintf("-n%d", n), start, "--")
	if err != nil {
		return nil, nil, err
	}
	in := make(map[string]bool, min(n, 1<<14))
	var last []string
	for line := range strings.Lines(string(out)) {
		if ids := strings.Fields(line); len(ids) > 0 {
			in[ids[0]] = true
			last = ids
		}
	}
	if len(in) < n || len(last) == 0 {
		return in, nil, nil // the whole history is in the window
	}
	return in, last[1:], nil
}

// parseHistoryRecord reads one commit of `git log -z --format=%x01%H
// --name-only`: "sha\nfile\0file\0…", without the leading \x01.
func parseHistoryRecord(rec []byte) (HistoryCommit, bool) {
	fields := bytes.Split(rec, []byte{0})
	if len(fields) == 0 || len(fields[0]) == 0 {
		return HistoryCommit{}, false
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
	return hc, true
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
