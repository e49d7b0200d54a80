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
	var inWindow func() (map[string]bool, error)
	if window > 0 {
		inWindow = c.repo.git.windowOf(ctx, start, window)
	}
	args := append([]string{"log", "--no-merges", "-z", "--format=%x01%H", "--name-only", "--full-diff", "--no-renames",
		fmt.Sprintf("-n%d", max), start, "--"}, paths...)
	var commits []HistoryCommit
	var recent map[string]bool
	err := c.repo.git.stream(ctx, func(r io.Reader) error {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			rec, readErr := br.ReadBytes(1)
			if hc, ok := parseHistoryRecord(bytes.TrimSuffix(rec, []byte{1})); ok {
				if inWindow != nil && recent == nil {
					var err error
					if recent, err = inWindow(); err != nil {
						return err
					}
				}
				if recent != nil && !recent[hc.SHA] {
					return errStopHistory // past the window: nothing older counts
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

// windowOf lists the n most recent commits from start, in the background:
// the set is ready by the time `git log` prints its first commit.
func (g *git) windowOf(ctx context.Context, start string, n int) func() (map[string]bool, error) {
	type result struct {
		set map[string]bool
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := g.output(ctx, nil, "rev-list", fmt.Sprintf("-n%d", n), start, "--")
		set := make(map[string]bool, n)
		for _, sha := range strings.Fields(string(out)) {
			set[sha] = true
		}
		done <- result{set, err}
	}()
	return func() (map[string]bool, error) {
		r := <-done
		return r.set, r.err
	}
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
