package pack

import (
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// A changed lock file's diff, and a lock neighbour's excerpt, are shown
// as a reviewer reads a lock: by names, versions and sources. Digests are
// cut short, and runs of like lines (a file and its digest each, from one
// host) are counted rather than shown.

// shownDigestBytes is how much of a digest a lock file's lines keep: 16
// hex digits are 64 bits, enough to tell two apart and more than anyone
// can make two contents share.
const shownDigestBytes = 16

// digestNames are the algorithms whose name (and a '-' or ':') stands
// before a base64 digest in a lock file: npm's sha512-…, go.sum's h1:…,
// Nix's sha256-…, Terraform's zh:….
var digestNames = []string{"sha512", "sha384", "sha256", "sha1", "md5", "h1", "zh"}

// Lengths of what shortenDigests takes for a digest.
const (
	minHexDigest    = 32 // a run of hex digits at least this long
	minBase64Digest = 24 // a base64 run after an algorithm's name at least this long
)

// shortenDigests cuts each digest on a lock file's line to its first
// shownDigestBytes characters and an ellipsis, and says whether the line
// held one: a reviewer reads a lock's change by its names, versions and
// sources, and a digest costs a token for every two or three of its
// characters. A digest is a run of minHexDigest or more hex digits that
// is a word of its own (a commit id too), or a base64 run after an
// algorithm's name. (By hand, not with a regular expression: Go's took
// 30 ms of terraform's last 100 commits, whose go.sum files changed.)
func shortenDigests(line string) (string, bool) {
	if len(line) < minBase64Digest {
		return line, false
	}
	var b strings.Builder
	done := 0 // line[:done] is in b
	for i := 0; i < len(line); i++ {
		if i > 0 && isWordByte(line[i-1]) {
			continue
		}
		start, end := digestAt(line, i)
		if end == 0 {
			continue
		}
		keep := start + shownDigestBytes
		if end-keep <= 4 {
			i = end - 1
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(line))
		}
		b.WriteString(line[done:keep])
		b.WriteString("…")
		done, i = end, end-1
	}
	if done == 0 {
		return line, false
	}
	b.WriteString(line[done:])
	return b.String(), true
}

// digestAt returns where the digest that starts a word at i begins (after
// an algorithm's name) and ends, or 0, 0.
func digestAt(line string, i int) (start, end int) {
	j := i
	for j < len(line) && isHexByte(line[j]) {
		j++
	}
	if j-i >= minHexDigest && (j == len(line) || !isWordByte(line[j])) {
		return i, j
	}
	for _, name := range digestNames {
		if !strings.HasPrefix(line[i:], name) || len(line) <= i+len(name) || (line[i+len(name)] != '-' && line[i+len(name)] != ':') {
			continue
		}
		start = i + len(name) + 1
		j = start
		for j < len(line) && isBase64Byte(line[j]) {
			j++
		}
		if j-start < minBase64Digest {
			return 0, 0
		}
		for k := 0; k < 2 && j < len(line) && line[j] == '='; k++ {
			j++
		}
		return start, j
	}
	return 0, 0
}

func isHexByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isBase64Byte(c byte) bool { return isWordByte(c) && c != '_' || c == '+' || c == '/' }

// minLikeRun is the shortest run of like lines a lock file's diff shows
// as its first line and a count.
const minLikeRun = 4

// collapseLikeLines shows each run of minLikeRun or more like lines of a
// lock file's diff (see likeKey: uv.lock's wheels, one per platform, or a
// Pipfile.lock's hashes) as its first line and a marker that counts the
// rest. A line from another host, a line that names a package (go.sum's,
// whose module and version are what a reviewer reads), and a line with a
// placeholder are always shown: a source or version that changes is what
// a reviewer of a lock looks for.
func collapseLikeLines(lines []line) []line {
	out := make([]line, 0, len(lines))
	for i := 0; i < len(lines); {
		j := i + 1
		key, like := likeKey(lines[i])
		for like && j < len(lines) && lines[j].op == lines[i].op {
			if k, ok := likeKey(lines[j]); !ok || k != key {
				break
			}
			j++
		}
		if j-i < minLikeRun {
			out = append(out, lines[i:j]...)
		} else {
			out = append(out, lines[i], line{text: likeMarker(j-i-1, key)})
		}
		i = j
	}
	return out
}

// Kinds of like lines that hold no URL (see likeKey).
const (
	likeFile   = "\x00file"
	likeDigest = "\x00digest"
)

// likeKey says what a lock's line is alike other lines by, and whether it
// is one that may be counted rather than shown: a file and its digest,
// keyed by the host of its URL (uv.lock) or without one (poetry.lock's
// file = "…"), or a line that is nothing but a digest.
func likeKey(l line) (string, bool) {
	if !l.digest || len(l.items) > 0 {
		return "", false
	}
	if h := urlHost(l.text); h != "" {
		return h, true
	}
	if strings.Contains(l.text, `file = "`) {
		return likeFile, true
	}
	if t := strings.Trim(l.text, " \t\"',[]"); strings.HasSuffix(t, "…") && !strings.ContainsAny(t, " \t=") {
		return likeDigest, true
	}
	return "", false
}

func likeMarker(n int, key string) string {
	what := "a file from " + key + " and its digest"
	switch key {
	case likeFile:
		what = "a file and its digest"
	case likeDigest:
		what = "a digest"
	}
	return fmt.Sprintf("... [gitctx: %d more lines like the one above, %s each] ...", n, what)
}

// urlHost returns the host of the first URL on a line, "" if it has none.
func urlHost(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return ""
	}
	rest := s[i+3:]
	if end := strings.IndexAny(rest, "/\"'` ,}]"); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// lockDiffSize is hunkSize for a lock file's diff, whose digests are
// shortened and like lines collapsed: half a uv.lock's diff is its
// wheels' lines.
func lockDiffSize(hunks []gitctx.Hunk, context int) (n, lines int) {
	if context < 3 {
		hunks = withContext(hunks, context)
	}
	var ls []line
	for _, h := range hunks {
		n += 24 + len(h.Section)
		lines++
		ls = append(ls, line{}) // the header, between runs
		for _, l := range h.Lines {
			t, d := shortenDigests(l.Text)
			ls = append(ls, line{op: l.Op, text: t, digest: d})
		}
	}
	for _, l := range collapseLikeLines(ls) {
		if l.op != 0 || l.text != "" {
			n += len(l.text) + 2
			lines++
		}
	}
	return n, lines
}
