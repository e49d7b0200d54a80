package pack

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/gitctx/neighbours"
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
// its first head lines; limit lines in all. A method's class is shown by
// its declaration's line. Go's declarations are read from its syntax tree
// (a raw string's lines are not indented), others by indentation. It
// returns nil when no hunk sits in a declaration: a head and tail then
// serve as well.
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

// indentedRegions returns, read by indentation, the declarations the
// hunks of p sit in, each after its class's line when it is a method.
func indentedRegions(lines []string, p *gitctx.Patch) []region {
	var regions []region
	for _, h := range p.Hunks {
		d := enclosing(lines, firstChange(h)-1)
		if d < 0 {
			continue
		}
		if o := outer(lines, d); o >= 0 {
			regions = append(regions, region{o, o, o + 1}) // the class a method is in: its line
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

// enclosing returns the index of the line that declares the function or
// type that line i sits in: the nearest above it (or it) that declares a
// name, as the neighbour search reads declarations, and whose block
// reaches line i; -1 if none does.
func enclosing(lines []string, i int) int {
	if i < 0 || i >= len(lines) {
		return -1
	}
	for j := i; j >= 0 && i-j < maxEnclosingScan; j-- {
		if neighbours.DefinedName(lines[j]) != "" && blockEnd(lines, j, maxEnclosingScan) > i {
			return j
		}
	}
	return -1
}

// outer returns the index of the line that declares what the declaration
// on line d sits in (the class of a method), or -1: the nearest line above
// it, indented less, that declares a name and whose block reaches it.
func outer(lines []string, d int) int {
	depth := indent(lines[d])
	for j := d - 1; j >= 0 && d-j < maxEnclosingScan; j-- {
		if indent(lines[j]) < depth && neighbours.DefinedName(lines[j]) != "" && blockEnd(lines, j, maxEnclosingScan) > d {
			return j
		}
	}
	return -1
}

// goDeclarations returns the top-level declarations of a Go file, each as
// the region from its doc comment to its end, or nil for a file that is
// not Go or does not parse.
func goDeclarations(path, text string) []region {
	if !strings.HasSuffix(path, ".go") {
		return nil
	}
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
