package gitctx

import (
	"bytes"
	"context"
	"strconv"
	"strings"
)

// HunkCommit is one commit of the history before a change, with the parts
// of the asked files it changed.
type HunkCommit struct {
	SHA   string
	Hunks []PastHunk
	// Changed is the text of the lines its hunks removed and added, one
	// line each without its '-' or '+', up to maxChangedText bytes: what the
	// commit did, to compare with another change (see neighbours' alike).
	Changed []byte
}

// PastHunk is a part of a file that a past commit changed: one hunk of a
// patch without context lines (-U0). Its line ranges count the file before
// and after that commit.
type PastHunk struct {
	Path               string
	OldStart, OldLines int
	NewStart, NewLines int
	Section            string   // what git printed after the second "@@": the enclosing function
	Heads              []string // changed lines that begin a definition by git's default rule, at most maxHeads
}

// maxHeads bounds the definition lines kept of one hunk: a hunk that adds
// a whole file of functions says little about any one of them.
const maxHeads = 8

// maxChangedText bounds the changed lines kept of one commit: a commit
// that rewrote a file is unlike any one change whatever its words, and 300
// of them must not hold a repository's worth of text.
const maxChangedText = 16 << 10

// HunkHistory reads the hunks that each of commits (as History listed
// them) changed in paths, and returns the commits in the same order; a
// commit that changed none of paths has no hunks. Given the commits, git
// diffs just them: walking the history again to find them would cost as
// much as History did (a quarter of a CPU-second on terraform's busiest
// files), diffing 300 of them about a twentieth. In a partial clone only
// the commits whose blobs are at hand are diffed: the others' would be
// fetched one commit at a time.
func (c *Change) HunkHistory(ctx context.Context, paths, commits []string) ([]HunkCommit, error) {
	if c.repo == nil || len(paths) == 0 || len(commits) == 0 {
		return nil, nil
	}
	if c.repo.partialClone(ctx) {
		var err error
		if commits, err = c.withBlobsAtHand(ctx, paths, commits); err != nil || len(commits) == 0 {
			return nil, err
		}
	}
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		want[p] = true
	}
	args := append([]string{"log", "--no-walk=unsorted", "--stdin", "--format=%x01%H", "-p", "-U0", "--no-renames",
		"--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "--"}, paths...)
	stdin := strings.NewReader(strings.Join(commits, "\n") + "\n")
	out := make([]HunkCommit, 0, len(commits))
	err := c.logRecordsFrom(ctx, stdin, args, func(rec []byte) error {
		if hc, ok := parseHunkRecord(rec, want); ok {
			out = append(out, hc)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// parseHunkRecord reads one commit of HunkHistory's log: its id on the
// first line, then its patch. Hunk bodies are skipped by their line
// counts, so a changed line that looks like a header is never taken for
// one.
func parseHunkRecord(rec []byte, want map[string]bool) (HunkCommit, bool) {
	first, rest, _ := bytes.Cut(rec, []byte{'\n'})
	if len(first) == 0 {
		return HunkCommit{}, false
	}
	hc := HunkCommit{SHA: string(bytes.TrimSpace(first))}
	path := ""
	var cur *PastHunk
	oldLeft, newLeft := 0, 0
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte{'\n'})
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case len(line) > 0 && line[0] == '-':
				oldLeft--
			case len(line) > 0 && line[0] == '+':
				newLeft--
			case len(line) > 0 && line[0] == '\\':
				continue
			default: // a short patch: stop counting
				oldLeft, newLeft = 0, 0
				continue
			}
			if cur != nil && len(cur.Heads) < maxHeads && len(line) > 1 && DefinitionStart(line[1]) {
				cur.Heads = append(cur.Heads, string(line[1:]))
			}
			if cur != nil && len(hc.Changed)+len(line) <= maxChangedText {
				hc.Changed = append(append(hc.Changed, line[1:]...), '\n')
			}
			continue
		}
		switch {
		case bytes.HasPrefix(line, []byte("diff --git ")):
			path, cur = "", nil
		case bytes.HasPrefix(line, []byte("+++ b/")):
			if p := string(line[len("+++ b/"):]); want[p] {
				path = p
			}
		case bytes.HasPrefix(line, []byte("@@ ")) && path != "":
			h, ok := parseHunkHeader(line)
			if !ok {
				continue
			}
			h.Path = path
			hc.Hunks = append(hc.Hunks, h)
			cur = &hc.Hunks[len(hc.Hunks)-1]
			oldLeft, newLeft = h.OldLines, h.NewLines
		}
	}
	return hc, true
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@ section".
func parseHunkHeader(line []byte) (PastHunk, bool) {
	body, section, ok := bytes.Cut(line[len("@@ "):], []byte(" @@"))
	if !ok {
		return PastHunk{}, false
	}
	oldR, newR, ok := bytes.Cut(body, []byte{' '})
	if !ok || len(oldR) < 2 || len(newR) < 2 || oldR[0] != '-' || newR[0] != '+' {
		return PastHunk{}, false
	}
	h := PastHunk{Section: string(bytes.TrimSpace(section))}
	var ok1, ok2 bool
	h.OldStart, h.OldLines, ok1 = parseRange(oldR[1:])
	h.NewStart, h.NewLines, ok2 = parseRange(newR[1:])
	return h, ok1 && ok2
}

// parseRange reads "start[,count]"; a missing count is 1.
func parseRange(r []byte) (start, count int, ok bool) {
	s, n, hasCount := bytes.Cut(r, []byte{','})
	start, err := strconv.Atoi(string(s))
	if err != nil {
		return 0, 0, false
	}
	if !hasCount {
		return start, 1, true
	}
	count, err = strconv.Atoi(string(n))
	return start, count, err == nil
}

// DefinitionStart reports whether a line starting with c begins a
// definition by git's default rule for a hunk's section: c is a letter,
// '_' or '$'.
func DefinitionStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}
