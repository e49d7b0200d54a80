package pack

import (
	"iter"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// numbered is a hunk line with its line numbers on both sides (0 where the
// line does not exist on that side).
type numbered struct {
	gitctx.Line
	oldNo, newNo int
}

// withContext re-cuts hunks so that at most n context lines surround each
// run of changes, splitting a hunk where more than 2n context lines
// separate two runs, as `git diff -U<n>` would.
func withContext(hunks []gitctx.Hunk, n int) []gitctx.Hunk {
	var out []gitctx.Hunk
	for _, h := range hunks {
		lines := number(h)
		keep := make([]bool, len(lines))
		last := -1 << 30
		for i, l := range lines {
			if l.Op != ' ' {
				last = i
				for j := max(0, i-n); j <= i; j++ {
					keep[j] = true
				}
			} else if i-last <= n {
				keep[i] = true
			}
		}
		for i := 0; i < len(lines); {
			if !keep[i] {
				i++
				continue
			}
			j := i
			for j < len(lines) && keep[j] {
				j++
			}
			sub := rehunk(lines[i:j], lines, i)
			sub.Section = section(lines[:i], h.Section)
			out = append(out, sub)
			i = j
		}
	}
	return out
}

// section is the function name git prints after "@@" for a hunk that
// starts after the lines before: the last of those lines of the old side
// that git's default rule takes for a function line (one that starts with
// a letter, '_' or '$'), cut at 80 bytes, else the section of the hunk
// they came from.
func section(before []numbered, fallback string) string {
	for i := len(before) - 1; i >= 0; i-- {
		if s, ok := functionLine(before[i].Line); ok {
			return s
		}
	}
	return fallback
}

// sectionOf is section for hunk lines without their numbers.
func sectionOf(before []gitctx.Line, fallback string) string {
	for i := len(before) - 1; i >= 0; i-- {
		if s, ok := functionLine(before[i]); ok {
			return s
		}
	}
	return fallback
}

// functionLine returns what git prints of a line its default rule takes
// for a function line.
func functionLine(l gitctx.Line) (string, bool) {
	if l.Op == '+' || l.Text == "" {
		return "", false
	}
	if gitctx.DefinitionStart(l.Text[0]) {
		t := l.Text[:min(len(l.Text), 80)]
		return strings.TrimRight(t, " \t\r\n\v\f"), true
	}
	return "", false
}

// number returns a hunk's lines with their numbers (see hunkLines).
func number(h gitctx.Hunk) []numbered {
	out := make([]numbered, 0, len(h.Lines))
	for l := range hunkLines(h) {
		out = append(out, l)
	}
	return out
}

// hunkLines yields a hunk's lines with their numbers on both sides,
// without a slice: the checks that walk every hunk line of a large change
// (agrees, shownLines) allocated 5 ms of a warm run's CPU for them.
func hunkLines(h gitctx.Hunk) iter.Seq[numbered] {
	return func(yield func(numbered) bool) {
		o, n := h.OldStart, h.NewStart
		for _, l := range h.Lines {
			out := numbered{Line: l}
			switch l.Op {
			case ' ':
				out.oldNo, out.newNo = o, n
				o++
				n++
			case '-':
				out.oldNo = o
				o++
			case '+':
				out.newNo = n
				n++
			}
			if !yield(out) {
				return
			}
		}
	}
}

// rehunk builds a hunk from a run of numbered lines that starts at index
// at of all.
func rehunk(run, all []numbered, at int) gitctx.Hunk {
	h := gitctx.Hunk{Lines: make([]gitctx.Line, len(run))}
	for i, l := range run {
		h.Lines[i] = l.Line
		if l.oldNo != 0 {
			h.OldLines++
			if h.OldStart == 0 {
				h.OldStart = l.oldNo
			}
		}
		if l.newNo != 0 {
			h.NewLines++
			if h.NewStart == 0 {
				h.NewStart = l.newNo
			}
		}
	}
	// A side with no lines starts, as in git, at the line before the change.
	if h.OldLines == 0 {
		h.OldStart = lineBefore(all, at, func(l numbered) int { return l.oldNo })
	}
	if h.NewLines == 0 {
		h.NewStart = lineBefore(all, at, func(l numbered) int { return l.newNo })
	}
	return h
}

func lineBefore(all []numbered, at int, side func(numbered) int) int {
	for i := at - 1; i >= 0; i-- {
		if n := side(all[i]); n != 0 {
			return n
		}
	}
	for i := at; i < len(all); i++ {
		if n := side(all[i]); n != 0 {
			return n - 1
		}
	}
	return 0
}
