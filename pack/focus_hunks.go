package pack

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack/outline"
)

// centreOnHunks cuts each changed file too long for any pack to show
// whole to its head and the declarations its hunks sit in (see
// enclosingLines), once its patch is known, rather than to its head and
// tail. A file whose text the builder could not hold (see holdWhole), or
// whose hunks sit in no declaration, keeps its head and tail.
func (b *builder) centreOnHunks() {
	for _, e := range b.entries {
		if e.role != RoleChanged || !e.oversize || e.lock || e.generated != "" || e.kind != KindText || e.whole == "" {
			continue
		}
		if kept := enclosingLines(e.path, e.whole, e.patch, e.trunc.HeadLines, e.trunc.HeadLines+e.trunc.TailLines); kept != nil {
			e.kept = kept
			e.excerpt = e.cutText(e.whole)
		}
	}
}

// maxEnclosingScan bounds how far above a hunk its enclosing declaration
// is looked for, and how far below it the declaration's block may end.
const maxEnclosingScan = 5000

// enclosingLines returns the numbers (1-based, ascending) of the lines of a
// changed file's new side that an excerpt shows when the file is too long
// to show whole: its first lines (up to nameHeadLines and head), then the
// declarations its hunks sit in, each from the comments above it through
// its block (the diff shows the hunks themselves; the excerpt shows the
// function or type around them), then, where room is left, the rest of
// its first head lines; limit lines in all. The units around a unit (a
// method's class) are shown by their first lines. Go's declarations are
// read from its syntax tree (a raw string's lines are not indented),
// others by indentation (see opensUnit). It returns nil when no hunk sits
// in a unit: a head and tail then serve as well.
func enclosingLines(path, text string, p *gitctx.Patch, head, limit int) []int {
	if p == nil || len(p.Hunks) == 0 || text == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var regions []region
	if decls := goDeclarations(path, text); decls != nil {
		for _, h := range p.Hunks {
			if r, ok := containing(decls, firstChange(h)-1); ok {
				regions = append(regions, r)
			}
		}
	} else {
		regions = indentedRegions(lines, p)
	}
	if len(regions) == 0 {
		return nil
	}
	return keepLines(len(lines), head, limit, regions)
}

// indentedRegions returns, read by indentation, the units the hunks of p
// sit in (see enclosing), each after the first lines of the units it sits
// in: a method's class, a nested function's function.
func indentedRegions(lines []string, p *gitctx.Patch) []region {
	var regions []region
	for _, h := range p.Hunks {
		d := enclosing(lines, firstChange(h)-1)
		if d < 0 {
			continue
		}
		for _, o := range outers(lines, d) {
			regions = append(regions, region{o, o, o + 1})
		}
		regions = append(regions, region{docStart(lines, d), d, blockEnd(lines, d, maxEnclosingScan)})
	}
	return regions
}

// firstChange is the new side's number of the hunk's first added line, or
// of the line after its first deleted one.
func firstChange(h gitctx.Hunk) int {
	n := h.NewStart
	for _, l := range h.Lines {
		if l.Op != ' ' {
			break
		}
		n++
	}
	return n
}

// enclosing returns the index of the line that opens the unit line i
// sits in (see opensUnit): the nearest above it (or it) whose block
// reaches line i and holds more than its own line (a local `let x = 1` is
// no unit); -1 if none does.
func enclosing(lines []string, i int) int {
	if i < 0 || i >= len(lines) {
		return -1
	}
	for j := i; j >= 0 && i-j < maxEnclosingScan; j-- {
		if opensUnit(lines[j]) {
			if end := blockEnd(lines, j, maxEnclosingScan); end > i && end > j+1 {
				return j
			}
		}
	}
	return -1
}

// maxOuters bounds how many units around a unit an excerpt names.
const maxOuters = 3

// outers returns the indexes of the lines that open the units the unit on
// line d sits in, innermost first (a method's class; a nested function's
// function, and that one's): each the nearest line above the last,
// indented less, that opens a unit whose block reaches d.
func outers(lines []string, d int) []int {
	var out []int
	depth := indent(lines[d])
	for j := d - 1; j >= 0 && d-j < maxEnclosingScan && len(out) < maxOuters && depth > 0; j-- {
		if indent(lines[j]) < depth && opensUnit(lines[j]) && blockEnd(lines, j, maxEnclosingScan) > d {
			out = append(out, j)
			depth = indent(lines[j])
		}
	}
	return out
}

// goDeclarations returns the top-level declarations of a Go file, each as
// the region from its doc comment to its end, or nil for a file that is
// not Go or does not parse. Only where declarations begin and end matters,
// so the file is parsed with its function bodies blanked (most of the
// parsing), and whole only when that fails.
func goDeclarations(path, text string) []region {
	if !strings.HasSuffix(path, ".go") {
		return nil
	}
	if decls := declarationsOf(outline.WithoutBodies(text)); decls != nil {
		return decls
	}
	return declarationsOf(text)
}

// declarationsOf is goDeclarations of a text known to be Go.
func declarationsOf(text string) []region {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	out := make([]region, 0, len(f.Decls))
	for _, d := range f.Decls {
		at := fset.Position(d.Pos()).Line - 1
		start := at
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			start = fset.Position(fd.Doc.Pos()).Line - 1
		} else if gd, ok := d.(*ast.GenDecl); ok && gd.Doc != nil {
			start = fset.Position(gd.Doc.Pos()).Line - 1
		}
		out = append(out, region{start, at, fset.Position(d.End()).Line})
	}
	return out
}

// containing returns the region of the declaration that holds line i.
func containing(decls []region, i int) (region, bool) {
	for _, r := range decls {
		if r.at <= i && i < r.end {
			return r, true
		}
	}
	return region{}, false
}
