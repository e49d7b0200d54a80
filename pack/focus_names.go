package pack

import (
	"strings"
)

// Bounds of a neighbour's excerpt about the names it shares with the
// change.
const (
	nameHeadLines      = 30 // the head an excerpt keeps: the package clause, the imports
	maxDefinitionLines = 80 // a definition shows at most its first lines
	maxDefinitions     = 3  // definitions shown of one name
	useContext         = 3  // lines shown either side of a use
	maxUses            = 4  // uses shown of one name that the file does not define
	maxDocLines        = 15 // comment or decorator lines above a definition
)

// nameLines returns the numbers (1-based, ascending) of the lines of a
// neighbour's text that an excerpt shows when the text is not shown
// whole and the neighbour was chosen for names of code it shares with the
// change: its first lines (up to nameHeadLines and head), then, name by
// name, the name's definitions (the line that declares it, the comments
// or decorators right above, and the block below it, by indentation) or,
// in a file that defines none, the lines that use it, with useContext
// lines either side, and then, where room is left, the rest of its first
// head lines; limit lines in all (see keepLines). It returns nil when the
// text holds none of the names: a head and tail then serve as well.
func nameLines(text string, names []string, head, limit int) []int {
	if len(names) == 0 || text == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var regions []region
	for _, name := range names {
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:] // Type.method: the method is what a line declares
		}
		if name != "" {
			regions = append(regions, nameRegions(lines, name)...)
		}
	}
	if len(regions) == 0 {
		return nil
	}
	return keepLines(len(lines), head, limit, regions)
}

// region is a run of lines an excerpt shows, [start, end) indexes, and
// the line it is about (a declaration, or a use).
type region struct{ start, at, end int }

// keepLines returns the numbers (1-based, ascending) of the lines of a
// text of count lines an excerpt keeps, at most limit: its first lines
// (up to nameHeadLines and head), the line each region is about, then the
// regions whole in their order (so that one long function does not crowd
// out the declarations of the others), then the rest of its first head
// lines.
func keepLines(count, head, limit int, regions []region) []int {
	keep := make([]bool, count)
	n := 0
	add := func(from, to int) {
		for i := max(from, 0); i < min(to, count) && n < limit; i++ {
			if !keep[i] {
				keep[i] = true
				n++
			}
		}
	}
	add(0, min(head, nameHeadLines, count))
	for _, r := range regions {
		add(r.at, r.at+1)
	}
	for _, r := range regions {
		add(r.start, r.end)
	}
	add(nameHeadLines, min(head, count)) // the rest of the head, where the regions leave room
	out := make([]int, 0, n)
	for i, k := range keep {
		if k {
			out = append(out, i+1)
		}
	}
	return out
}

// nameRegions returns the regions about name: its definitions, or where
// there are none its uses.
func nameRegions(lines []string, name string) []region {
	var defs, uses []region
	for i, l := range lines {
		if !hasWord(l, name) {
			continue
		}
		if declares(l, name) {
			if len(defs) < maxDefinitions {
				defs = append(defs, region{docStart(lines, i), i, blockEnd(lines, i, maxDefinitionLines)})
			}
		} else if len(uses) < maxUses {
			uses = append(uses, region{max(0, i-useContext), i, min(len(lines), i+useContext+1)})
		}
	}
	if len(defs) > 0 {
		return defs
	}
	return uses
}

// declares reports whether a line declares name: as the neighbour search
// reads declarations (a Go func or type, a Python def or class, a
// JavaScript function or binding, a Rust item …), or as a line that
// starts with the name and an assignment, a colon or a parameter list (a
// Python constant, a field, a JavaScript or Ruby method).
func declares(line, name string) bool {
	if declaredName(line) == name {
		return true
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), name)
	if !ok || rest != "" && isNameByte(rest[0]) {
		return false
	}
	rest = strings.TrimSpace(rest)
	return rest != "" && (rest[0] == '(' || rest[0] == ':' || rest[0] == '=' && !strings.HasPrefix(rest, "=="))
}

// hasWord reports whether s holds name as a whole word of code.
func hasWord(s, name string) bool { return holdsWhole(s, name, isNameByte, isNameByte) }

func isNameByte(c byte) bool { return isWordByte(c) || c == '$' }

// docStart is the first line of the comments and decorators right above
// the declaration on line i, or i.
func docStart(lines []string, i int) int {
	start := i
	for j := i - 1; j >= 0 && i-j <= maxDocLines; j-- {
		t := strings.TrimSpace(lines[j])
		if !strings.HasPrefix(t, "//") && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "@") &&
			!strings.HasPrefix(t, "/*") && !strings.HasPrefix(t, "*") {
			break
		}
		start = j
	}
	return start
}

// blockEnd is the end (exclusive) of the declaration on line i: the lines
// below it indented deeper, blank lines among them, and the line at its
// own indentation that closes it (`}`, `end`, or a signature's `) {` or a
// generic's `> {` that opens the body), at most most lines in all.
func blockEnd(lines []string, i, most int) int {
	depth := indent(lines[i])
	limit := min(len(lines), i+most)
	j := i + 1
	for ; j < limit; j++ {
		t := strings.TrimSpace(lines[j])
		if t == "" || indent(lines[j]) > depth {
			continue
		}
		if t == "end" || strings.HasPrefix(t, "end ") || t[0] == '}' || t[0] == ')' || t[0] == ']' || t[0] == '>' {
			if opensBlock(t) {
				continue // `) (int, error) {`: the signature ends, the body follows
			}
			return j + 1
		}
		break
	}
	for j > i+1 && strings.TrimSpace(lines[j-1]) == "" {
		j-- // the blank lines after the block are not part of it
	}
	return j
}

// opensBlock reports whether a line ends by opening a block.
func opensBlock(t string) bool {
	return strings.HasSuffix(t, "{") || strings.HasSuffix(t, ":") || strings.HasSuffix(t, "(")
}
