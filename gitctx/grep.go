package gitctx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"strings"
)

// Grep finds where the change's new side names one of the words as a
// whole word, and hands each match to match with its file's path. It
// searches the head commit of a range, the index for a staged change and
// the work tree otherwise, with one `git grep -o`, and reads its output as
// it comes. The words go to git on its standard input, never on its
// command line (see patternLines); an empty one is passed over.
func (c *Change) Grep(ctx context.Context, words []string, match func(path string, text []byte)) error {
	return c.GrepIn(ctx, nil, words, match)
}

// GrepIn is Grep in the files whose names end in one of the suffixes
// (".go", in any case) alone; none searches every file. A suffix holds no
// wildcard.
func (c *Change) GrepIn(ctx context.Context, suffixes []string, words []string, match func(path string, text []byte)) error {
	return c.grep(ctx, []string{"-w", "-F"}, words, suffixes, match)
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
//
// At each line where any pattern matches, git runs every pattern ahead to
// its next match, to the end of the file for one with no match left:
// patterns that match in different places (an import block, the bodies),
// or one that matches often beside one that rarely does, can cost more
// searched together than apart, ten times more on a large repository.
func (c *Change) GrepPerl(ctx context.Context, patterns []string, match func(path string, text []byte)) error {
	return c.GrepPerlIn(ctx, nil, patterns, match)
}

// GrepPerlIn is GrepPerl in the files whose names end in one of the
// suffixes alone, as GrepIn.
func (c *Change) GrepPerlIn(ctx context.Context, suffixes []string, patterns []string, match func(path string, text []byte)) error {
	err := c.grep(ctx, []string{"-P"}, patterns, suffixes, match)
	var gerr *Error
	if errors.As(err, &gerr) && strings.Contains(gerr.Stderr, "Perl-compatible") {
		return ErrNoPerl
	}
	return err
}

// grep runs `git grep -o` with the flags on the change's new side for any
// of the patterns, in the files whose names end in one of the suffixes
// (none: all). For a range, the work tree stands in for the head commit
// where it holds the same files (see standIn).
func (c *Change) grep(ctx context.Context, flags, patterns, suffixes []string, match func(path string, text []byte)) error {
	lines := patternLines(patterns)
	if c.repo == nil || lines == "" {
		return nil
	}
	c.waitPrefetch(ctx)
	g, only := &c.repo.git, []string(nil)
	literal := func(p string) string { return p }
	if passOver := c.passOverSpecs(); len(suffixes) > 0 || len(passOver) > 0 || len(c.large) > 0 {
		// "*.go" matches at any depth (a pathspec's "*" crosses "/"), and
		// git matches it in less time than ":(glob)**/*.go": on terraform,
		// 16 suffixes took 0.104 CPU-s of git grep against 0.116
		g = g.withMagic()
		for _, s := range suffixes {
			only = append(only, ":(icase)*"+s)
		}
		only = append(only, passOver...)
		for _, p := range c.large { // untracked, so in a work-tree change only
			only = append(only, ":(exclude,literal)"+p)
		}
		literal = func(p string) string { return ":(literal)" + p }
	}
	inScope := func(p string) bool {
		return !InDirNamed(p, c.passOver) && (len(suffixes) == 0 || slices.ContainsFunc(suffixes, func(s string) bool {
			return len(p) >= len(s) && strings.EqualFold(p[len(p)-len(s):], s)
		}))
	}
	args := append([]string{"grep", "-I", "-z", "-o", "--no-color", "--full-name"}, flags...)
	args = append(args, "-f", "-") // the patterns, on standard input (patternLines)
	switch c.Source.Kind {
	case KindRange, KindPullRequest:
		differ, ok := c.standIn(ctx)
		if !ok {
			return c.runGrep(ctx, g, lines, append(append(args, c.Source.Head, "--"), only...), true, match)
		}
		err := c.runGrep(ctx, g, lines, append(append(args, "--"), only...), false, func(path string, text []byte) {
			if !differ[path] {
				match(path, text)
			}
		})
		var paths []string // the files that differ, as the head commit has them
		for _, p := range slices.Sorted(maps.Keys(differ)) {
			if inScope(p) {
				paths = append(paths, literal(p))
			}
		}
		if err != nil || len(paths) == 0 {
			return err
		}
		return c.runGrep(ctx, g, lines, append(append(args, c.Source.Head, "--"), paths...), true, match)
	case KindStaged:
		args = append(args, "--cached")
	case KindWorktree:
		args = append(args, "--untracked") // untracked files are on the new side too
	}
	return c.runGrep(ctx, g, lines, append(append(args, "--"), only...), false, match)
}

// patternLines is the patterns as `git grep -f -` reads them from its
// standard input, one a line: never as arguments, since the words and
// lines of a change (a removed password among them) would then be on
// git's command line, which any user of the machine can read (ps,
// /proc/PID/cmdline) and a CI agent that logs the processes it starts
// keeps. git reads each line back as the pattern it was, but skips an
// empty line, strips a carriage return at a line's end and refuses a NUL
// in a fixed string. So a pattern that is empty (as an argument it matched
// every line), holds a line break (as an argument git split it in two) or
// a NUL (no file git searches holds one: -I leaves binary files out), or
// ends in a carriage return, is passed over; none of the searches gives
// one. "" when none is left.
func patternLines(patterns []string) string {
	var b strings.Builder
	for _, p := range patterns {
		if p == "" || strings.ContainsAny(p, "\x00\n") || strings.HasSuffix(p, "\r") {
			continue
		}
		b.WriteString(p)
		b.WriteByte('\n')
	}
	return b.String()
}

// runGrep runs one `git grep -f -` with the pattern lines on its standard
// input and hands on its matches.
func (c *Change) runGrep(ctx context.Context, g *git, lines string, args []string, fromTree bool, match func(path string, text []byte)) error {
	matched := false
	err := g.streamFrom(ctx, strings.NewReader(lines), func(r io.Reader) error {
		return readGrep(r, fromTree, func(path string, text []byte) {
			matched = true
			match(path, text)
		})
	}, args...)
	if err != nil {
		var gerr *Error
		if errors.As(err, &gerr) && !matched && (strings.TrimSpace(gerr.Stderr) == "" || unreadableOnly(gerr)) {
			return nil // exit 1: no match
		}
		return fmt.Errorf("search for references: %w", err)
	}
	return nil
}

// unreadableOnly reports whether git grep ended with exit status 1 (no
// match) having said only that it could not read some files: blobs
// missing from the repository (a clone that lacks them, a partial clone
// whose server cannot be reached). git searches the other files; with a
// match among them it ends with 0 and the files it could not read are
// passed over, as they are here.
func unreadableOnly(gerr *Error) bool {
	var exit *exec.ExitError
	if !errors.As(gerr.Err, &exit) || exit.ExitCode() != 1 {
		return false
	}
	for line := range strings.Lines(gerr.Stderr) {
		if l := strings.TrimSpace(line); l != "" && !(strings.HasPrefix(l, "error: ") && strings.Contains(l, "unable to read")) {
			return false
		}
	}
	return true
}

// PrepareSearch starts working out, in the background, what Grep and
// GrepPerl will need to know about the work tree (see standIn), so that a
// search started later does not wait for it. In a partial clone it also
// fetches the head's blobs the clone lacks, in one round trip (see
// prefetchTree); the searches and ReadTreeEach wait for that.
//
// From then on the searches pass over the files under a directory named
// one of passOver, at any depth and in any case (InDirNamed): files the
// caller never uses, such as vendored dependencies, which can be most of
// a repository (moby's vendor/ holds 9,711 of its 13,024 files). Call it
// before the first search.
func (c *Change) PrepareSearch(ctx context.Context, passOver []string) {
	c.passOver = slices.Clone(passOver)
	if c.repo != nil && (c.Source.Kind == KindRange || c.Source.Kind == KindPullRequest) {
		go c.standIn(ctx)
		c.prefetchOnce.Do(func() {
			done := make(chan struct{})
			c.prefetched.Store(done)
			go func() {
				defer close(done)
				c.repo.prefetchTree(ctx, c.Source.Head)
			}()
		})
	}
}

// InDirNamed reports whether the slash-separated path p lies under a
// directory named one of names, at any depth, ignoring case.
func InDirNamed(p string, names []string) bool {
	if len(names) == 0 {
		return false
	}
	for {
		dir, rest, ok := strings.Cut(p, "/")
		if !ok {
			return false
		}
		if slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, dir) }) {
			return true
		}
		p = rest
	}
}

// passOverSpecs are the pathspecs that leave out the directories the
// searches pass over.
func (c *Change) passOverSpecs() []string {
	quote := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`)
	var out []string
	for _, d := range c.passOver {
		out = append(out, ":(exclude,icase,glob)**/"+quote.Replace(d)+"/**")
	}
	return out
}

// waitPrefetch waits for the fetch PrepareSearch started, if it did.
func (c *Change) waitPrefetch(ctx context.Context) {
	if done, ok := c.prefetched.Load().(chan struct{}); ok {
		select {
		case <-done:
		case <-ctx.Done():
		}
	}
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
	var last, p string // the path as git printed it, and as handed on
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
		if string(path) != last { // git prints a file's matches together
			last, p = string(path), string(path)
			if fromTree {
				if _, rest, ok := strings.Cut(p, ":"); ok {
					p = rest
				}
			}
		}
		line(p, text)
	}
}
