// Package outline reduces source files to what a reviewer needs to place a
// change in context when the whole file does not fit: package and import
// lines, type declarations, function and method signatures with their doc
// comments, exported names — with bodies elided.
//
// Go files are outlined from their syntax tree (go/parser), parsed with
// their function bodies blanked (an error inside a body does not stop the
// outline; one in a declaration falls back to the line heuristic). Python,
// JavaScript and TypeScript, Java, Kotlin, C#, Rust, C and C++, Ruby, PHP,
// Swift and Scala get a built-in line heuristic that keeps declaration
// lines and the comments right above them. Other files get universal-ctags'
// tags when ctags is on PATH (see Ctags), and no outline otherwise.
package outline

import (
	"path"
	"strings"
)

// Elided marks where an outline left something out.
const Elided = "…"

// Of returns the outline of a file, or ok=false when there is none for its
// language (or the file is too short for an outline to help).
func Of(name, text string) (out string, ok bool) {
	if strings.Count(text, "\n") < 8 {
		return "", false
	}
	switch lang := languageOf(name); lang {
	case "":
		return "", false
	case "go":
		if out, ok := goOutline(name, text); ok {
			return out, true
		}
		return heuristic(text, rulesFor("go"))
	default:
		return heuristic(text, rulesFor(lang))
	}
}

// Supported reports whether Of outlines files of this name.
func Supported(name string) bool { return languageOf(name) != "" }

func languageOf(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".go":
		return "go"
	case ".py", ".pyi":
		return "python"
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts":
		return "js"
	case ".java", ".kt", ".kts", ".cs", ".scala", ".swift":
		return "java"
	case ".rs":
		return "rust"
	case ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh":
		return "c"
	case ".rb":
		return "ruby"
	case ".php":
		return "php"
	case ".ex", ".exs":
		return "elixir"
	case ".dart":
		return "dart"
	}
	return ""
}
