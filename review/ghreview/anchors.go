package ghreview

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gitctx/gitctx/review"
)

// anchors is, for each file of the pull request, the lines a review
// comment may point at, as GitHub decides it: on the RIGHT side the added
// and context lines of the new file, on the LEFT side the removed and
// context lines of the old file. A range's start must be in the same hunk
// as its end and come before it in the patch.
type anchors map[string]*fileAnchors

type fileAnchors struct {
	path  string // the file's name in the pull request (the new one)
	right map[int]spot
	left  map[int]spot
}

// spot is where a line sits in the patch: its hunk and its index.
type spot struct{ hunk, index int }

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// parsePatch reads the hunks of a file's patch, as the pull request files
// endpoint gives it (no file header). Lines outside a hunk's counts, such
// as a trailing empty line, are ignored.
func parsePatch(patch string) (right, left map[int]spot) {
	right, left = map[int]spot{}, map[int]spot{}
	hunk := -1
	var oldLine, newLine, oldLeft, newLeft int
	for i, line := range strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n") {
		if oldLeft <= 0 && newLeft <= 0 {
			m := hunkHeader.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			hunk++
			oldLine, oldLeft = atoi(m[1]), count(m[2])
			newLine, newLeft = atoi(m[3]), count(m[4])
			continue
		}
		here := spot{hunk: hunk, index: i}
		switch {
		case strings.HasPrefix(line, "+"):
			right[newLine] = here
			newLine++
			newLeft--
		case strings.HasPrefix(line, "-"):
			left[oldLine] = here
			oldLine++
			oldLeft--
		case strings.HasPrefix(line, `\`): // "\ No newline at end of file"
		default: // context; an empty line is a context line whose space was lost
			right[newLine], left[oldLine] = here, here
			newLine++
			oldLine++
			newLeft--
			oldLeft--
		}
	}
	return right, left
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// count is a hunk header's line count, which is 1 when left out.
func count(s string) int {
	if s == "" {
		return 1
	}
	return atoi(s)
}

// add indexes a file of the pull request; a renamed file can also be
// found by its old name.
func (a anchors) add(name, previous, patch string) {
	right, left := parsePatch(patch)
	f := &fileAnchors{path: name, right: right, left: left}
	a[name] = f
	if previous != "" && previous != name {
		if _, taken := a[previous]; !taken {
			a[previous] = f
		}
	}
}

// place splits findings into those that can be posted inline, with their
// path, side and range made what GitHub accepts, and those that cannot.
// A range whose start is not valid is narrowed to its last line.
func (a anchors) place(findings []review.Finding) (inline, outside []review.Finding) {
	for _, f := range findings {
		g, ok := a.anchor(f)
		if ok {
			inline = append(inline, g)
		} else {
			outside = append(outside, f)
		}
	}
	return inline, outside
}

func (a anchors) anchor(f review.Finding) (review.Finding, bool) {
	file := a[strings.TrimPrefix(f.Path, "./")]
	side := strings.ToUpper(strings.TrimSpace(f.Side))
	if side == "" {
		side = "RIGHT"
	}
	if file == nil || f.Line <= 0 || (side != "RIGHT" && side != "LEFT") {
		return f, false
	}
	lines := file.right
	if side == "LEFT" {
		lines = file.left
	}
	end, ok := lines[f.Line]
	if !ok {
		return f, false
	}
	f.Path, f.Side = file.path, side
	if f.StartLine != 0 {
		start, ok := lines[f.StartLine]
		if !ok || f.StartLine >= f.Line || start.hunk != end.hunk || start.index >= end.index {
			f.StartLine = 0
		}
	}
	return f, true
}
