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
// about 30–90µs a commit without a commit-graph. `git log` streams, and is
// stopped at the max-th commit or at the first one outside the window, so
// only the commits up to there are diffed. (A window given to git as a
// negative revision would make it diff the whole window before printing
// anything.)
func (c *Change) History(ctx context.Context, paths []string, max, window int) ([]HistoryCommit, error) {
	start := c.historyStart()
	if start == "" || len(paths) == 0 || max <= 0 {
		return nil, nil
	}
	if len(paths) > maxPathspecs {
		return c.historyOfMany(ctx, start, paths, max, window)
	}
	var win *recentCommits
	if window > 0 {
		var err error
		if win, err = c.repo.git.startWindow(ctx, start, window); err != nil {
			return nil, fmt.Errorf("read history: %w", err)
		}
		defer win.close()
	}
	args := append([]string{"log", "--no-merges", "-z", "--format=%x01%H", "--name-only", "--full-diff", "--no-renames",
		fmt.Sprintf("-n%d", max), start, "--"}, paths...)
	var commits []HistoryCommit
	err := c.logRecords(ctx, args, func(rec []byte) error {
		hc, ok := parseHistoryRecord(rec)
		if !ok {
			return nil
		}
		if win != nil {
			in, err := win.contains(hc.SHA)
			if err != nil {
				return err
			}
			if !in {
				return errStopHistory // past the window: nothing older counts
			}
		}
		commits = append(commits, hc)
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

// errStopHistory stops `git log` once the walk leaves the window.
var errStopHistory = errors.New("past the history window")

// recentCommits is the window of History: the n most recent commits from
// a start, listed by `git rev-list` in the order `git log` walks them, and
// read only as far as asked: a log that stops after 300 matching commits a
// few thousand commits back leaves the rest of a 10,000-commit window
// unread (and rev-list is stopped).
type recentCommits struct {
	p     *process
	r     *bufio.Reader
	seen  map[string]bool
	n     int  // commits in the window
	ended bool // rev-list has printed its last commit
}

// startWindow starts listing the n most recent commits from start.
func (g *git) startWindow(ctx context.Context, start string, n int) (*recentCommits, error) {
	p, err := g.start(ctx, nil, "rev-list", fmt.Sprintf("-n%d", n), start, "--")
	if err != nil {
		return nil, err
	}
	return &recentCommits{p: p, r: bufio.NewReader(p.out), seen: map[string]bool{}, n: n}, nil
}

// contains reports whether a commit is in the window, reading rev-list's
// output up to it. The log walks in the same order, so a commit not found
// by the window's end is past it.
func (w *recentCommits) contains(sha string) (bool, error) {
	for !w.seen[sha] && !w.ended {
		line, err := w.r.ReadString('\n')
		if id := strings.TrimSpace(line); id != "" {
			w.seen[id] = true
		}
		if err == io.EOF || len(w.seen) == w.n {
			w.ended = true
			if err := w.close(); err != nil {
				return false, err
			}
		} else if err != nil {
			return false, err
		}
	}
	return w.seen[sha], nil
}

// close stops rev-list if it still runs, and reports how it ended when
// it ran to its end.
func (w *recentCommits) close() error {
	if w.p == nil {
		return nil
	}
	p := w.p
	w.p = nil
	if !w.ended {
		p.kill()
		_ = p.wait()
		return nil
	}
	return p.wait()
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
