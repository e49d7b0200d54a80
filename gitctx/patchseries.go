package gitctx

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// A patch series is several commits' patches in one input: what git
// format-patch --stdout writes (an mbox, oldest commit first, as GitHub
// serves a pull request's .patch), or git log -p and git show (newest
// first). go-gitdiff parses one patch at a time, so the series is split at
// the lines that begin each commit, and the commits' messages are kept.
var (
	// an mbox's "From " line: git's "From <id> Mon Sep 17 00:00:00 2001",
	// or a mail archive's "From mboxrd@z Thu Jan  1 00:00:00 1970" (b4,
	// public-inbox)
	mboxStart = regexp.MustCompile(`(?m)^From \S+ (?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} \d\d:\d\d:\d\d \d{4}\r?\n`)
	logStart  = regexp.MustCompile(`(?m)^commit ([0-9a-f]{40}(?:[0-9a-f]{24})?)(?: \(.*\))?\r?\n`)
)

// seriesPart is one commit's patch of a series (or a whole plain diff).
type seriesPart struct {
	files  []*gitdiff.File
	commit *Commit   // nil when the part names no commit message
	date   time.Time // the author's date, zero when not given
	cover  bool      // a message with no patch: a cover letter ("[PATCH 0/n]"), a merge in git log
}

// readSeries parses data, a patch or a series of them, into its parts in
// the order the patches apply (oldest first).
func readSeries(data []byte) ([]seriesPart, error) {
	texts, log := splitSeries(data)
	parts := make([]seriesPart, 0, len(texts))
	for i, text := range texts {
		if noPrefix(text) {
			text = withPrefixes(text)
		}
		files, preamble, err := gitdiff.Parse(bytes.NewReader(text))
		if err != nil {
			if len(texts) > 1 {
				return nil, fmt.Errorf("patch %d of the series: %w", i+1, err)
			}
			return nil, err
		}
		if twoTrees(text) {
			dropFirstDirectory(files)
		}
		commit, date, reply := seriesCommit(preamble)
		if reply && len(files) == 0 {
			commit = nil // a thread's answer to a patch is no commit of the series
		}
		parts = append(parts, seriesPart{files: files, commit: commit, date: date, cover: len(files) == 0 && commit != nil})
	}
	if log && !linkedInOrder(parts) {
		slices.Reverse(parts) // git log -p prints the newest commit first
	}
	return parts, nil
}

// splitSeries cuts data at the lines that begin a commit's patch, when it
// begins with one: an mbox's "From " line (see mboxStart) or "commit <id>"
// (git log -p, git show; log is true). Text before the first
// such line is part of the first patch. Anything else is one patch.
func splitSeries(data []byte) (parts [][]byte, log bool) {
	first, _, _ := bytes.Cut(bytes.TrimLeft(data, " \t\r\n"), []byte("\n"))
	first = append(bytes.Clone(bytes.TrimSuffix(first, []byte("\r"))), '\n')
	var starts [][]int
	switch {
	case mboxStart.Match(first):
		starts = mboxStart.FindAllIndex(data, -1)
	case logStart.Match(first):
		starts, log = logStart.FindAllIndex(data, -1), true
	}
	if len(starts) < 2 {
		return [][]byte{data}, log
	}
	for i := range starts {
		from, to := starts[i][0], len(data)
		if i == 0 {
			from = 0
		}
		if i+1 < len(starts) {
			to = starts[i+1][0]
		}
		parts = append(parts, data[from:to])
	}
	return parts, log
}

// seriesCommit reads the commit a patch's preamble describes (a mail's or
// git log's header) and its author's date, or nil when it describes none;
// reply tells a mail whose subject starts "Re:".
func seriesCommit(preamble string) (c *Commit, date time.Time, reply bool) {
	p := strings.TrimSpace(preamble)
	if !strings.HasPrefix(p, "From ") && !strings.HasPrefix(p, "commit ") {
		return nil, time.Time{}, false
	}
	h, err := gitdiff.ParsePatchHeader(p)
	if err != nil || h.Title == "" || h.Title == "*** SUBJECT HERE ***" {
		return nil, time.Time{}, false // a header gitdiff cannot read, or git's unedited cover letter
	}
	sha := h.SHA
	if !isFullID(sha) || isZeroID(sha) {
		sha = "" // format-patch --zero-commit, or a mail that names no commit
	}
	reply = strings.HasPrefix(strings.ToLower(strings.TrimSpace(h.SubjectPrefix)), "re:")
	return &Commit{SHA: sha, Subject: h.Title, Message: h.Message()}, h.AuthorDate, reply
}

// isFullID reports whether s is a full object id (SHA-1 or SHA-256).
func isFullID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}

// linkedInOrder reports whether the parts, in the order given, apply one
// after another (the order git log --reverse prints): where two of them
// change the same file, the later's base blob is the earlier's result.
// Where the ids tell nothing, the first part's author date is before the
// last's.
func linkedInOrder(parts []seriesPart) bool {
	forward, backward := 0, 0
	last := map[string]*gitdiff.File{} // the latest patch of each name, in the order given
	for _, p := range parts {
		for _, f := range p.files {
			name := f.OldName
			if f.IsNew {
				name = f.NewName
			}
			if prev := last[name]; prev != nil {
				if sameID(prev.NewOIDPrefix, f.OldOIDPrefix) {
					forward++
				}
				if sameID(f.NewOIDPrefix, prev.OldOIDPrefix) {
					backward++
				}
			}
			last[f.NewName] = f
		}
	}
	if forward != backward {
		return forward > backward
	}
	first, final := parts[0].date, parts[len(parts)-1].date
	return !first.IsZero() && !final.IsZero() && first.Before(final)
}

// sameID reports whether two (possibly abbreviated) blob ids name the
// same blob, neither empty nor all zeros.
func sameID(a, b string) bool {
	n := min(len(a), len(b))
	return n >= 4 && a[:n] == b[:n] && !isZeroID(a) && !isZeroID(b)
}

// seriesCommits are the parts' commits, newest first; a cover letter
// naming the same commit as a patch loses its id.
func seriesCommits(parts []seriesPart) []Commit {
	ids := map[string]bool{}
	for _, p := range parts {
		if p.commit != nil && !p.cover && p.commit.SHA != "" {
			ids[p.commit.SHA] = true
		}
	}
	var commits []Commit
	for _, p := range slices.Backward(parts) {
		if p.commit == nil {
			continue
		}
		c := *p.commit
		if p.cover && ids[c.SHA] {
			c.SHA = ""
		}
		commits = append(commits, c)
	}
	return commits
}
