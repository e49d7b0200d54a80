package neighbours

import (
	"bytes"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"
)

// A change to a widely used package has hundreds of importers, and
// parsing each of them whole (go/parser builds every function body) cost
// more than the rest of a pack. Files other than the seeds are therefore
// read lightly: their imports with go/parser in ImportsOnly mode, their
// top-level names from the declarations that start a line (gofmt puts
// them there), and the names they select from an import by a scan for
// "name." when asked.

// lightGo reads what a Go file imports and defines without parsing its
// bodies; usesOf scans its text, which must not change afterwards.
func lightGo(name string, src []byte) *goFile {
	g, _ := lightImports(name, src)
	if g == nil {
		return nil
	}
	g.defines, g.src = topLevelNames(src), src
	return g
}

// lightImports reads a Go file's package clause and imports with go/parser
// in ImportsOnly mode, and the name each import is given ("" if none).
func lightImports(name string, src []byte) (*goFile, []string) {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil && f == nil {
		return nil, nil
	}
	g := &goFile{pkg: f.Name.Name, uses: map[string]map[string]bool{}, named: map[string]bool{}}
	var names []string
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		g.imports = append(g.imports, p)
		names = append(names, "")
		if imp.Name != nil {
			names[len(names)-1] = imp.Name.Name
			g.named[p] = true
			if g.aliases == nil {
				g.aliases = map[string]string{}
			}
			g.aliases[p] = imp.Name.Name
		}
	}
	return g, names
}

// topLevelNames lists the names declared at the start of a line: funcs,
// methods and their receiver types, types, vars and consts, one or a
// block of them.
func topLevelNames(src []byte) map[string]bool {
	names := map[string]bool{}
	block := false // inside "var (", "const (" or "type ("
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		// only a line that can matter becomes a string: most are bodies
		if len(line) == 0 || block && line[0] != ')' && line[0] != '\t' ||
			!block && line[0] != 'f' && line[0] != 't' && line[0] != 'v' && line[0] != 'c' {
			continue
		}
		s := strings.TrimRight(string(line), " \t\r")
		if block {
			if s == ")" {
				block = false
			} else if rest, ok := strings.CutPrefix(s, "\t"); ok {
				for _, n := range leadingNames(rest) {
					names[n] = true
				}
			}
			continue
		}
		kw, rest, _ := strings.Cut(s, " ")
		switch kw {
		case "func":
			if strings.HasPrefix(rest, "(") {
				recv, after, ok := strings.Cut(rest[1:], ")")
				if !ok {
					continue
				}
				if t := receiverType(recv); t != "" {
					names[t] = true
				}
				rest = strings.TrimSpace(after)
			}
			if n := ident(rest); n != "" {
				names[n] = true
			}
		case "type", "var", "const":
			if rest == "(" {
				block = true
				continue
			}
			for _, n := range leadingNames(rest) {
				names[n] = true
			}
		}
	}
	return names
}

// leadingNames reads "a, b int = …" as [a b], "T struct {" as [T].
func leadingNames(s string) []string {
	var out []string
	for {
		n := ident(s)
		if n == "" || n == "_" {
			return out
		}
		out = append(out, n)
		s = strings.TrimSpace(s[len(n):])
		if !strings.HasPrefix(s, ",") {
			return out
		}
		s = strings.TrimSpace(s[1:])
	}
}

// receiverType reads "s *Server[T]" as Server.
func receiverType(recv string) string {
	f := strings.Fields(recv)
	if len(f) == 0 {
		return ""
	}
	return ident(strings.TrimLeft(f[len(f)-1], "*"))
}

// ident is the identifier at the start of s.
func ident(s string) string {
	i := 0
	for i < len(s) && isIdentByte(s[i], i == 0) {
		i++
	}
	return s[:i]
}

func isIdentByte(c byte, first bool) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9' || c >= 0x80
}

// selectorsOf scans text for "local.Name" and returns the names.
func selectorsOf(src []byte, local string) map[string]bool {
	names := map[string]bool{}
	pat := []byte(local + ".")
	for i := 0; ; {
		j := bytes.Index(src[i:], pat)
		if j < 0 {
			return names
		}
		at := i + j
		i = at + len(pat)
		if at > 0 && (isIdentByte(src[at-1], false) || src[at-1] == '.') {
			continue
		}
		if n := ident(string(src[i:min(len(src), i+128)])); n != "" {
			names[n] = true
		}
	}
}

// localName is the name a file knows an import by: its alias, or the
// package's name (pkg, when known), or the last element of its path.
func (g *goFile) localName(imp, pkg string) string {
	if a, ok := g.aliases[imp]; ok {
		return a
	}
	if pkg != "" {
		return pkg
	}
	return path.Base(imp)
}
