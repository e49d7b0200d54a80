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
	err := c.repo.git.stream(ctx, func(r io.Reader) error {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			rec, readErr := br.ReadBytes(1)
			if hc, ok := parseHistoryRecord(bytes.TrimSuffix(rec, []byte{1})); ok {
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
		return nil, fmt.Errorf("read history: %w", err)
	}
	return commits, nil
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

// Grep finds where the change's new side names one of the words as a
// whole word, and hands each match to match with its file's path. It
// searches the head commit of a range, the index for a staged change and
// the work tree otherwise, with one `git grep -o`, and reads its output as
// it comes.
func (c *Change) Grep(ctx context.Context, words []string, match func(path string, text []byte)) error {
	if len(words) == 0 {
		return nil
	}
	args := []string{"-w", "-F"}
	for _, w := range words {
		args = append(args, "-e", w)
	}
	return c.grep(ctx, args, match)
}

// ErrNoPerl is returned by GrepPerl when git was built without
// Perl-compatible regular expressions.
var ErrNoPerl = errors.New("git has no Perl-compatible regular expressions")

// GrepPerl is Grep with Perl-compatible regular expressions (`git grep
// -P`): each match of any of the patterns is handed on. A pattern with
// alternatives is much faster than many fixed words when some are common,
// because only the matches are printed. Give alternatives of different
// shapes (one anchored at the line's start, one not) as patterns of their
// own: PCRE optimizes each for its shape, which it cannot do for one
// pattern joining them. Without PCRE in git it returns ErrNoPerl.
func (c *Change) GrepPerl(ctx context.Context, patterns []string, match func(path string, text []byte)) error {
	if len(patterns) == 0 {
		return nil
	}
	args := []string{"-P"}
	for _, p := range patterns {
		args = append(args, "-e", p)
	}
	err := c.grep(ctx, args, match)
	var gerr *Error
	if errors.As(err, &gerr) && strings.Contains(gerr.Stderr, "Perl-compatible") {
		return ErrNoPerl
	}
	return err
}

// grep runs `git grep -o` with the pattern arguments on the change's new
// side.
func (c *Change) grep(ctx context.Context, pattern []string, match func(path string, text []byte)) error {
	if c.repo == nil {
		return nil
	}
	args := append([]string{"grep", "-I", "-z", "-o", "--no-color", "--full-name"}, pattern...)
	switch c.Source.Kind {
	case KindRange, KindPullRequest:
		args = append(args, c.Source.Head)
	case KindStaged:
		args = append(args, "--cached")
	case KindWorktree:
		args = append(args, "--untracked") // untracked files are on the new side too
	}
	fromTree := c.Source.Kind == KindRange || c.Source.Kind == KindPullRequest
	matched := false
	err := c.repo.git.stream(ctx, func(r io.Reader) error {
		return readGrep(r, fromTree, func(path string, text []byte) {
			matched = true
			match(path, text)
		})
	}, append(args, "--")...)
	if err != nil {
		var gerr *Error
		if errors.As(err, &gerr) && !matched && strings.TrimSpace(gerr.Stderr) == "" {
			return nil // exit 1: no match
		}
		return fmt.Errorf("search for references: %w", err)
	}
	return nil
}

// maxGrepLine bounds a line of grep output (path and text) handed on by
// Grep: a longer line is minified code or data.
const maxGrepLine = 16 << 10

// readGrep reads `git grep -z -o` output, "path\0match\n" (a
// commit-prefixed path, "rev:path", for a tree). A match longer than
// maxGrepLine is handed on cut short.
func readGrep(r io.Reader, fromTree bool, line func(path string, text []byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for {
		chunk, isPrefix, err := br.ReadLine()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		buf = append(buf[:0], chunk[:min(len(chunk), maxGrepLine)]...)
		for isPrefix { // an over-long line: keep its start, skip the rest
			if chunk, isPrefix, err = br.ReadLine(); err != nil {
				return err
			}
			if room := maxGrepLine - len(buf); room > 0 {
				buf = append(buf, chunk[:min(room, len(chunk))]...)
			}
		}
		path, text, ok := bytes.Cut(buf, []byte{0})
		if !ok {
			continue
		}
		p := string(path)
		if fromTree {
			if _, rest, ok := strings.Cut(p, ":"); ok {
				p = rest
			}
		}
		line(p, text)
	}
}
