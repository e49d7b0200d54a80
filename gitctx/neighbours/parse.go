package neighbours

import (
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
)

// Import statements, by language. Each yields one spec per match (the
// first non-empty group).
var (
	pyFrom    = mustKeywordRegexp(`(?m)^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]*(?:\(([^)]*)\)|([\w*, \t]+))`, "from")
	pyImport  = mustKeywordRegexp(`(?m)^[ \t]*import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)`, "import")
	pyComment = regexp.MustCompile(`#[^\n]*`)
	jvmImport = mustKeywordRegexp(`(?m)^[ \t]*import[ \t]+(?:static[ \t]+)?([\w.]+?)(?:\.\*)?[ \t]*;?[ \t]*$`, "import")
	rustMod   = mustKeywordRegexp(`(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+(\w+)[ \t]*;`, "pub", "mod")
	rustUse   = mustKeywordRegexp(`(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?use[ \t]+((?:crate|super|self)(?:::\w+)+)`, "pub", "use")
	cInclude  = mustKeywordRegexp(`(?m)^[ \t]*#[ \t]*include[ \t]*"([^"]+)"`, "#")
	rbRequire = mustKeywordRegexp(`(?m)^[ \t]*require_relative[ \t]+['"]([^'"]+)['"]`, "require_relative")
)

// parseImports lists the import specs in the head of a file. Specs carry a
// prefix saying how to resolve them ("py:", "mod:", "use:", "rel:").
func parseImports(name string, head []byte) []string {
	switch languageOf(name) {
	case "go":
		return goImports(name, head)
	case "js":
		return jsImports(head)
	case "python":
		return pyImports(head)
	case "jvm":
		return groups(jvmImport, head, "jvm:")
	case "rust":
		return append(groups(rustMod, head, "mod:"), groups(rustUse, head, "use:")...)
	case "c":
		return groups(cInclude, head, "")
	case "ruby":
		return groups(rbRequire, head, "rel:")
	case "php":
		return phpImports(head)
	case "elixir":
		return exImports(head)
	case "dart":
		return groups(dartImport, head, "dart:")
	}
	return nil
}

func goImports(name string, head []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), name, head, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil && f == nil {
		return nil
	}
	var out []string
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil {
			out = append(out, "go:"+p)
		}
	}
	return out
}

// allSubmatcher finds every match of a pattern with its groups: a
// regexp.Regexp or a keywordRegexp.
type allSubmatcher interface {
	FindAllSubmatch(text []byte, n int) [][][]byte
}

// groups returns the first non-empty group of every match, prefixed.
func groups(re allSubmatcher, text []byte, prefix string) []string {
	var out []string
	for _, m := range re.FindAllSubmatch(text, -1) {
		for _, g := range m[1:] {
			if len(g) > 0 {
				out = append(out, prefix+string(g))
				break
			}
		}
	}
	return out
}

// pyImports turns Python imports into "py:<module>" specs; "from m import
// a, b" also yields "py:m.a" and "py:m.b", since a and b may be modules.
func pyImports(head []byte) []string {
	var out []string
	for _, m := range pyFrom.FindAllSubmatch(head, -1) {
		mod := string(m[1])
		out = append(out, "py:"+mod)
		names := string(m[2]) + string(m[3]) // one of them is empty
		for _, n := range strings.Split(pyComment.ReplaceAllString(names, ""), ",") {
			fields := strings.Fields(n) // "a as b" names module a
			if len(fields) == 0 || fields[0] == "*" {
				continue
			}
			n = fields[0]
			sep := "."
			if strings.HasSuffix(mod, ".") {
				sep = ""
			}
			out = append(out, "py:"+mod+sep+n)
		}
	}
	for _, m := range pyImport.FindAllSubmatch(head, -1) {
		for _, n := range strings.Split(string(m[1]), ",") {
			out = append(out, "py:"+strings.TrimSpace(n))
		}
	}
	return out
}
