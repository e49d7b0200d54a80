package outline

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"strings"
)

// goOutline prints a Go file with every function body replaced by "{ … }"
// and every variable's value elided; types, constants, signatures and doc
// comments stay as written.
func goOutline(name, text string) (string, bool) {
	return outlineParsed(name, WithoutBodies(text))
}

// outlineParsed is goOutline of a text whose bodies may still be there.
func outlineParsed(name, text string) (string, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", false
	}
	var b bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	print := func(node any) bool {
		return cfg.Fprint(&b, fset, node) == nil
	}
	if f.Doc != nil {
		b.WriteString(commentText(f.Doc))
	}
	b.WriteString("package " + f.Name.Name + "\n")
	for _, decl := range f.Decls {
		b.WriteString("\n")
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Doc != nil {
				b.WriteString(commentText(d.Doc))
			}
			body := d.Body
			d.Doc, d.Body = nil, nil
			if !print(d) {
				return "", false
			}
			d.Body = body
			if body != nil {
				b.WriteString(" { " + Elided + " }")
			}
			b.WriteString("\n")
		case *ast.GenDecl:
			if d.Doc != nil {
				b.WriteString(commentText(d.Doc))
			}
			doc := d.Doc
			d.Doc = nil
			if d.Tok == token.VAR {
				elideValues(d)
			}
			if !print(&printer.CommentedNode{Node: d, Comments: f.Comments}) {
				return "", false
			}
			d.Doc = doc
			b.WriteString("\n")
		}
	}
	return b.String(), true
}

// elideValues replaces the values of var declarations with an identifier
// reading "…": a variable's initial value is rarely what a review needs,
// and often long.
func elideValues(d *ast.GenDecl) {
	for _, spec := range d.Specs {
		vs, ok := spec.(*ast.ValueSpec)
		if !ok {
			continue
		}
		for i := range vs.Values {
			vs.Values[i] = ast.NewIdent(Elided)
		}
		vs.Comment = nil
	}
}

func commentText(g *ast.CommentGroup) string {
	var b strings.Builder
	for _, c := range g.List {
		b.WriteString(c.Text)
		b.WriteString("\n")
	}
	return b.String()
}
