package pack

import (
	"path"
	"strings"
)

// language names the programming language of a file from its name, or ""
// when it is not a language the pack knows. The names double as the info
// strings of markdown code fences.
func language(p string) string {
	base := strings.ToLower(path.Base(p))
	switch base {
	case "makefile", "gnumakefile":
		return "make"
	case "dockerfile":
		return "dockerfile"
	case "go.mod", "go.sum":
		return "go-mod"
	}
	switch strings.ToLower(path.Ext(base)) {
	case ".go":
		return "go"
	case ".py", ".pyi":
		return "python"
	case ".js", ".mjs", ".cjs", ".jsx":
		return "javascript"
	case ".ts", ".tsx", ".mts", ".cts":
		return "typescript"
	case ".rs":
		return "rust"
	case ".java":
		return "java"
	case ".kt", ".kts":
		return "kotlin"
	case ".rb":
		return "ruby"
	case ".php":
		return "php"
	case ".c", ".h":
		return "c"
	case ".cc", ".cpp", ".cxx", ".hpp", ".hh":
		return "cpp"
	case ".cs":
		return "csharp"
	case ".swift":
		return "swift"
	case ".scala":
		return "scala"
	case ".ex", ".exs":
		return "elixir"
	case ".dart":
		return "dart"
	case ".sh", ".bash":
		return "shell"
	case ".tf":
		return "terraform"
	case ".md", ".markdown":
		return "markdown"
	case ".json":
		return "json"
	case ".yaml", ".yml":
		return "yaml"
	case ".toml":
		return "toml"
	case ".xml":
		return "xml"
	case ".html", ".htm":
		return "html"
	case ".css", ".scss":
		return "css"
	case ".sql":
		return "sql"
	case ".proto":
		return "protobuf"
	}
	return ""
}

// isCode reports whether a language counts toward a project's type.
func isCode(lang string) bool {
	switch lang {
	case "", "markdown", "json", "yaml", "toml", "xml", "html", "css", "go-mod", "make", "dockerfile", "sql":
		return false
	}
	return true
}
