package neighbours

import (
	"path"
	"strings"
	"unicode"
)

// Imports of PHP, Elixir and Dart. PHP and Elixir import classes and
// modules by name; their files are found by the path the name maps to
// (PSR-4: Acme\Http\Client in Http/Client.php under the package's root;
// Elixir: Plug.Conn.Utils in plug/conn/utils.ex). Dart imports files.
var (
	phpUse      = mustKeywordRegexp(`(?m)^[ \t]*use[ \t]+\\?([\w\\]+)(?:[ \t]+as[ \t]+\w+)?[ \t]*;`, "use")
	phpGroupUse = mustKeywordRegexp(`(?m)^[ \t]*use[ \t]+\\?([\w\\]+)\\\{([^}]*)\}[ \t]*;`, "use")
	phpRequire  = mustKeywordRegexp(`(?m)\b(?:require|include)(?:_once)?[ \t(]*(?:__DIR__[ \t]*\.[ \t]*)?['"]([^'"]+\.php)['"]`, "require", "include")
	exAlias     = mustKeywordRegexp(`(?m)^[ \t]*(?:alias|import|require|use)[ \t]+([A-Z][\w.]*?)(?:\.\{([^}]*)\})?[ \t]*(?:,|$)`, "alias", "import", "require", "use")
	dartImport  = mustKeywordRegexp(`(?m)^[ \t]*(?:import|export|part)[ \t]+['"]([^'"]+\.dart)['"]`, "import", "export", "part")
)

// phpImports turns `use` statements into "php:" specs (namespace paths
// with slashes) and require/include of a file into relative paths.
func phpImports(head []byte) []string {
	var out []string
	for _, m := range phpUse.FindAllSubmatch(head, -1) {
		out = append(out, "php:"+strings.ReplaceAll(string(m[1]), `\`, "/"))
	}
	for _, m := range phpGroupUse.FindAllSubmatch(head, -1) {
		prefix := strings.ReplaceAll(string(m[1]), `\`, "/")
		for _, name := range strings.Split(string(m[2]), ",") {
			if fields := strings.Fields(name); len(fields) > 0 { // "Client as C"
				out = append(out, "php:"+prefix+"/"+strings.ReplaceAll(fields[0], `\`, "/"))
			}
		}
	}
	for _, m := range phpRequire.FindAllSubmatch(head, -1) {
		out = append(out, "rel:"+strings.TrimPrefix(string(m[1]), "/"))
	}
	return out
}

// exImports turns alias, import, require and use of a module (and the
// multi-alias form Plug.Conn.{Utils, Adapter}) into "ex:" specs, and so
// every module named in full (Plug.Conn.Query.decode): Elixir needs no
// alias to call another module.
func exImports(head []byte) []string {
	var out []string
	seen := map[string]bool{}
	add := func(mod string) {
		if !seen[mod] {
			seen[mod] = true
			out = append(out, "ex:"+mod)
		}
	}
	for _, m := range exAlias.FindAllSubmatch(head, -1) {
		if len(m[2]) == 0 {
			add(string(m[1]))
			continue
		}
		for _, name := range strings.Split(string(m[2]), ",") {
			if name = strings.TrimSpace(name); name != "" {
				add(string(m[1]) + "." + name)
			}
		}
	}
	for _, m := range moduleRefs(head) {
		add(string(m))
	}
	return out
}

// moduleRefs returns the module names written in full in an Elixir text,
// in order: a word of an upper-case letter and word characters, and one
// or more such words after dots (Plug.Conn.Query), as the regexp
// \b[A-Z]\w*(?:\.[A-Z]\w*)+ finds them (FuzzModuleRefs holds it to
// that), at ten times its speed: the regexp has no literal to skip to.
func moduleRefs(text []byte) [][]byte {
	var out [][]byte
	upper := func(i int) bool { return i < len(text) && text[i] >= 'A' && text[i] <= 'Z' }
	word := func(i int) int { // the end of the word characters from i on
		for i < len(text) && isWordByte(text[i]) {
			i++
		}
		return i
	}
	for i := 0; i < len(text); {
		if !upper(i) || i > 0 && isWordByte(text[i-1]) {
			i++
			continue
		}
		end, j := -1, word(i+1)
		for j < len(text) && text[j] == '.' && upper(j+1) {
			j = word(j + 2)
			end = j
		}
		if end < 0 {
			i = j // no dotted name here; within the word, no word starts
			continue
		}
		out = append(out, text[i:end:end])
		i = end
	}
	return out
}

// phpClass returns the file of a class named by its namespace path: the
// longest tail of the path that some file ends with (the package's
// namespace root is not a directory under PSR-4).
func (r *resolver) phpClass(name string) []string {
	parts := strings.Split(name, "/")
	for i := range parts {
		if got := r.suffix(strings.Join(parts[i:], "/"), ".php"); len(got) > 0 {
			return got
		}
	}
	return nil
}

// exModule returns the file of an Elixir module: Plug.Conn.Utils is
// plug/conn/utils.ex, the longest tail of that path a file ends with (a
// Mix project's own name need not be a directory).
func (r *resolver) exModule(mod string) []string {
	parts := strings.Split(mod, ".")
	for i := range parts {
		parts[i] = underscore(parts[i])
	}
	for i := range len(parts) - 1 {
		if got := r.suffix(strings.Join(parts[i:], "/"), ".ex"); len(got) > 0 {
			return got
		}
	}
	return nil
}

// underscore is Elixir's Macro.underscore of one alias: HTTPClient is
// http_client, Conn is conn.
func underscore(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, c := range rs {
		if unicode.IsUpper(c) && i > 0 {
			prevLower := unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prevLower || (unicode.IsUpper(rs[i-1]) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// dartFile returns the file a Dart import names: a path relative to the
// importing file, or package:name/x.dart, which is lib/x.dart of the
// package called name (the repository's own packages only).
func (r *resolver) dartFile(file, spec string) []string {
	rest, ok := strings.CutPrefix(spec, "package:")
	if !ok {
		if strings.Contains(spec, ":") {
			return nil // dart:io
		}
		return r.first(path.Join(path.Dir(file), spec), "")
	}
	pkg, sub, ok := strings.Cut(rest, "/")
	if !ok {
		return nil
	}
	all := r.suffix(strings.TrimSuffix("lib/"+sub, ".dart"), ".dart")
	var out []string
	for _, p := range all {
		if p == "lib/"+sub || strings.HasSuffix(p, pkg+"/lib/"+sub) {
			out = append(out, p)
		}
	}
	if len(out) == 0 && len(all) == 1 {
		return all // a package's directory need not carry its name
	}
	return out
}
