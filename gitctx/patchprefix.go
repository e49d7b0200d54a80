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

// gitFileHeader finds git's own file header.
var gitFileHeader = regexp.MustCompile(`(?m)^diff --git `)

// twoTrees reports whether data is a traditional diff of two trees: it
// has no git file header, and every pair of names whose sides both exist
// (neither /dev/null) differs in its first directory alone, as in
// "old/sub/f.txt" and "new/sub/f.txt"; at least one such pair.
func twoTrees(data []byte) bool {
	if gitFileHeader.Match(data) {
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
