package neighbours

import "slices"

// The names' search (symbols.search) reads only the files that can name a
// symbol of the languages the names come from: their code, the templates
// and configuration that name such symbols, prose (a changelog too) and
// the interface definitions code is generated from. A Go function is not
// named by a fixture's JSON or a Terraform test's .tf, and reading those
// is most of a large repository's other files: on terraform's last 10
// commits the search read 5,457 files for 2,000 Go ones and 44 of
// Markdown, for the same matches (0.142 against 0.104 CPU-s of git's).
var (
	// commonSuffixes name the symbols of any language: prose, changelogs
	// without an extension, and interface definitions.
	commonSuffixes = []string{".md", ".mdx", ".markdown", ".rst", ".txt", ".adoc",
		"CHANGES", "CHANGELOG", "NEWS", "HISTORY", ".proto", ".thrift", ".graphql"}

	// nameScope: a language (languageOf) → the suffixes of the files that
	// name its symbols, beside commonSuffixes.
	nameScope = map[string][]string{
		"go":     {".go", ".tmpl", ".gotmpl"},
		"js":     {".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte", ".html", ".htm"},
		"python": {".py", ".pyi", ".pyx", ".html", ".jinja", ".jinja2", ".j2", ".cfg", ".toml", ".ini"},
		"jvm":    {".java", ".kt", ".kts", ".scala", ".groovy", ".xml", ".gradle"},
		"rust":   {".rs", ".toml"},
		"c":      {".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".inl", ".m", ".mm"},
		"ruby":   {".rb", ".erb", ".rake", ".haml", ".slim"},
		"php":    {".php", ".phtml", ".twig", ".blade.php", ".xml", ".yml", ".yaml", ".neon"},
		"elixir": {".ex", ".exs", ".eex", ".heex", ".leex"},
		"dart":   {".dart", ".yaml"},
	}
)

// scopeOf returns the suffixes of the files the names of the given
// languages are searched in, or nil (every file) when one is not a
// language nameScope knows.
func scopeOf(langs map[string]bool) []string {
	if len(langs) == 0 || langs[""] {
		return nil
	}
	out := slices.Clone(commonSuffixes)
	for lang := range langs {
		suffixes, ok := nameScope[lang]
		if !ok {
			return nil
		}
		out = append(out, suffixes...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
