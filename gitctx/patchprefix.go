package gitctx

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// A traditional diff (no "diff --git" line) names each file as the tool
// saw it: `diff -ruN old new` writes "--- old/sub/f.txt" and
// "+++ new/sub/f.txt", hg diff "--- a/f.txt" and "+++ b/f.txt". git apply
// and patch -p1 drop the first directory of such names; go-gitdiff keeps
// them whole, so gitctx drops it where the input shows the pattern.

// traditionalHeader matches a traditional diff's pair of file lines, with
// what follows a tab (a date) left out, and the hunk that must follow.
var traditionalHeader = regexp.MustCompile(`(?m)^--- ([^\t\n]*)[^\n]*\n\+\+\+ ([^\t\n]*)[^\n]*\n@@ -`)

// twoTrees reports whether data is a traditional diff of two trees: it
// has no git file header, and every pair of names whose sides both exist
// (neither /dev/null) differs in its first directory alone, as in
// "old/sub/f.txt" and "new/sub/f.txt"; at least one such pair.
func twoTrees(data []byte) bool {
	if gitFileHeaderLine.Match(data) {
		return false
	}
	pairs := 0
	for _, m := range traditionalHeader.FindAllSubmatch(data, -1) {
		oldName, newName := string(bytes.TrimRight(m[1], " \r")), string(bytes.TrimRight(m[2], " \r"))
		if oldName == "/dev/null" || newName == "/dev/null" {
			continue
		}
		oldTop, oldRest, ok1 := strings.Cut(oldName, "/")
		newTop, newRest, ok2 := strings.Cut(newName, "/")
		if !ok1 || !ok2 || oldTop == newTop || oldRest != newRest || oldRest == "" {
			return false
		}
		pairs++
	}
	return pairs > 0
}

// dropFirstDirectory drops the first directory of each name of files.
func dropFirstDirectory(files []*gitdiff.File) {
	for _, f := range files {
		for _, name := range []*string{&f.OldName, &f.NewName} {
			if _, rest, ok := strings.Cut(*name, "/"); ok {
				*name = rest
			}
		}
	}
}

// git diff --no-prefix (or diff.noprefix set) writes "diff --git f.txt
// f.txt" and "--- f.txt", where go-gitdiff, like git apply without -p0,
// drops the first directory of every name: .github/ci.yml became ci.yml.
// gitctx gives such a patch git's usual a/ and b/ before parsing it.

// noPrefix reports whether data's git file headers name files without
// git's a/ and b/: some header names one file twice as it is, and none
// names it with two one-letter prefixes (a/x b/x, i/x w/x).
func noPrefix(data []byte) bool {
	bare, prefixed := 0, 0
	for _, m := range gitFileHeaderLine.FindAllSubmatch(data, -1) {
		src, dst, ok := headerNames(string(m[1]))
		switch {
		case !ok:
		case src == dst:
			bare++
		case len(src) > 2 && len(dst) > 2 && src[1] == '/' && dst[1] == '/' && src[2:] == dst[2:]:
			prefixed++
		}
	}
	return bare > 0 && prefixed == 0
}

// gitFileHeaderLine captures the names of a git file header.
var gitFileHeaderLine = regexp.MustCompile(`(?m)^diff --git ([^\n]*?)\r?$`)

// headerNames splits the names of a git file header where that can be
// done for sure: two quoted names, or two unquoted names that are the
// same (names may hold spaces). The quotes are kept.
func headerNames(s string) (src, dst string, ok bool) {
	if strings.HasPrefix(s, `"`) {
		end := closingQuote(s)
		if end < 0 || end+2 >= len(s) || s[end+1] != ' ' || s[end+2] != '"' {
			return "", "", false
		}
		return s[:end+1], s[end+2:], true
	}
	if n := len(s); n%2 == 1 && s[n/2] == ' ' && s[:n/2] == s[n/2+1:] {
		return s[:n/2], s[n/2+1:], true
	}
	return "", "", false
}

// closingQuote is the index of the quote that ends the quoted name s
// starts with, or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// withPrefixes gives a --no-prefix patch's file headers git's a/ and b/:
// the "diff --git" line where its names can be split, and the "---" and
// "+++" lines, up to each file's first hunk.
func withPrefixes(data []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(data) + len(data)/20)
	inHeader := false
	for line := range bytes.SplitAfterSeq(data, []byte("\n")) {
		s := string(line)
		switch {
		case strings.HasPrefix(s, "diff --git "):
			inHeader = true
			body, eol := cutEOL(s[len("diff --git "):])
			if src, dst, ok := headerNames(body); ok {
				s = "diff --git " + prefixed("a/", src) + " " + prefixed("b/", dst) + eol
			}
		case !inHeader:
		case strings.HasPrefix(s, "@@ "), strings.HasPrefix(s, "GIT binary patch"), strings.HasPrefix(s, "Binary files "):
			inHeader = false
		case strings.HasPrefix(s, "--- "), strings.HasPrefix(s, "+++ "):
			if name, eol := cutEOL(s[4:]); name != "/dev/null" {
				side := "b/"
				if s[0] == '-' {
					side = "a/"
				}
				s = s[:4] + prefixed(side, name) + eol
			}
		}
		out.WriteString(s)
	}
	return out.Bytes()
}

// cutEOL splits a line's end ("\n" or "\r\n") from it.
func cutEOL(s string) (body, eol string) {
	body = strings.TrimRight(s, "\r\n")
	return body, s[len(body):]
}

// prefixed puts prefix before a name, inside its quotes if it has them.
func prefixed(prefix, name string) string {
	if strings.HasPrefix(name, `"`) {
		return `"` + prefix + name[1:]
	}
	return prefix + name
}
