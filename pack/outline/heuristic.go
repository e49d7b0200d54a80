package outline

import (
	"regexp"
	"strings"
)

// The declaration lines each language family keeps.
var (
	pythonDecl = regexp.MustCompile(`^\s*(?:async\s+def|def|class)\s+\w|^\s*@\w|^[A-Z][A-Z0-9_]*\s*[:=]|^(?:from\s+\S+\s+)?import\s`)
	jsDecl     = regexp.MustCompile(`^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|namespace|module)\s+[\w$]|^\s*export\s|^\s*import\s|^(?:const|let|var)\s+[\w$]+\s*=\s*(?:async\s+)?(?:function|\([^)]*\)\s*=>|[\w$]+\s*=>)|^\s+(?:(?:public|private|protected|static|readonly|async|get|set|override)\s+)*[\w$]+\s*\([^)]*\)\s*(?::\s*[^{]+)?\{\s*$`)
	javaDecl   = regexp.MustCompile(`^\s*(?:@\w+|package\s|import\s|using\s|namespace\s)|^\s*(?:(?:public|private|protected|internal|static|final|abstract|sealed|open|override|suspend|data|inline|async|virtual|partial|readonly)\s+)*(?:class|interface|enum|record|struct|object|trait|fun|def|func)\s+\w|^\s*(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|async|synchronized)\s+)+[\w<>\[\],.? ]+\s+\w+\s*\([^;]*$`)
	rustDecl   = regexp.MustCompile(`^\s*(?:#\[|(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?(?:const\s+)?(?:fn|struct|enum|trait|impl|mod|type|const|static|union|macro_rules!|use)\b)`)
	cDecl      = regexp.MustCompile(`^#\s*(?:include|define)\b|^(?:typedef|struct|union|enum|class|namespace|template)\b|^[A-Za-z_][\w\s\*&:<>,~]*\([^;]*\)\s*(?:const)?\s*\{?\s*$`)
	goDecl     = regexp.MustCompile(`^(?:package|import|func|type|var|const)\b|^\t[A-Z]\w*\s`)
	rubyDecl   = regexp.MustCompile(`^\s*(?:def|class|module|attr_\w+|require|include|extend)\b`)
	phpDecl    = regexp.MustCompile(`^\s*(?:namespace|use|(?:abstract\s+|final\s+)?class|interface|trait|enum|(?:(?:public|private|protected|static|abstract|final)\s+)*function)\b`)
	elixirDecl = regexp.MustCompile(`^\s*(?:defmodule|defprotocol|defimpl|defp?|defmacrop?|defguardp?|defdelegate|defstruct|defexception|defoverridable)\b|^\s*(?:alias|import|use|require)\s+[A-Z:_]|^\s*@(?:moduledoc|doc|spec|type|typep|opaque|callback|macrocallback|behaviour|impl)\b`)
	dartDecl   = regexp.MustCompile(`^\s*(?:import|export|part|library)\s|^\s*@\w|^\s*(?:(?:abstract|sealed|base|final|interface|mixin)\s+)*(?:class|mixin|enum|extension|typedef)\b|^ {0,2}(?:(?:static|external|factory|const|final|late|abstract)\s+)*(?:[\w<>?,\[\] ]+\s+)?[\w$.]+\s*(?:<[^>]*>)?\([^;]*$`)
	commentRE  = regexp.MustCompile(`^\s*(?://|/\*|\*|#(?:[^\[!]|$)|"""|'''|--)`)
)

// mayDeclare holds, for a declaration expression, a check that a line must
// pass to match it, much cheaper than the expression: heuristic runs the
// expression only on lines that pass. (jsDecl took 0.35 to 1 ms on each
// TypeScript file of 4 to 10 KB, a fifth of a pack's outlines.)
var mayDeclare = map[*regexp.Regexp]func(string) bool{jsDecl: jsMayDeclare, dartDecl: dartMayDeclare}

// dartStatements are the words that start a Dart statement with
// parentheses, which dartDecl would take for a function's signature.
var dartStatements = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true,
	"return": true, "else": true, "do": true, "try": true, "await": true, "throw": true, "assert": true,
	"super": true, "this": true, "print": true, "yield": true}

// dartMayDeclare rules out Dart statements (dartDecl matches a call that
// spans lines, as it matches a signature).
func dartMayDeclare(line string) bool {
	rest := strings.TrimLeft(line, " \t")
	end := 0
	for end < len(rest) && ('a' <= rest[end] && rest[end] <= 'z') {
		end++
	}
	return !dartStatements[rest[:end]]
}

// jsWords are the words a line jsDecl matches may start with (after its
// indentation): its keywords and the modifiers before them.
var jsWords = map[string]bool{"export": true, "default": true, "declare": true, "abstract": true, "async": true,
	"function": true, "class": true, "interface": true, "type": true, "enum": true, "namespace": true, "module": true,
	"import": true, "const": true, "let": true, "var": true}

// jsMayDeclare reports whether a line may match jsDecl: it starts with one
// of jsWords, or (a method) ends with an opening brace.
func jsMayDeclare(line string) bool {
	rest := strings.TrimLeft(line, " \t\n\f\r") // regexp's \s
	end := 0
	for end < len(rest) && ('a' <= rest[end] && rest[end] <= 'z' || 'A' <= rest[end] && rest[end] <= 'Z') {
		end++
	}
	return jsWords[rest[:end]] || strings.HasSuffix(strings.TrimRight(rest, " \t\n\f\r"), "{")
}

func rulesFor(lang string) *regexp.Regexp {
	switch lang {
	case "python":
		return pythonDecl
	case "js":
		return jsDecl
	case "java":
		return javaDecl
	case "rust":
		return rustDecl
	case "go":
		return goDecl
	case "c":
		return cDecl
	case "ruby":
		return rubyDecl
	case "php":
		return phpDecl
	case "elixir":
		return elixirDecl
	case "dart":
		return dartDecl
	}
	return nil
}

// heuristic keeps the declaration lines of a file and the comment lines
// right above each, and marks each run of lines it leaves out with "…".
func heuristic(text string, decl *regexp.Regexp) (string, bool) {
	if decl == nil {
		return "", false
	}
	may := mayDeclare[decl]
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	keep := make([]bool, len(lines))
	kept := 0
	for i, l := range lines {
		if may != nil && !may(l) || !decl.MatchString(l) {
			continue
		}
		keep[i] = true
		kept++
		for j := i - 1; j >= 0 && commentRE.MatchString(lines[j]); j-- {
			keep[j] = true
		}
	}
	if kept == 0 {
		return "", false
	}
	var b strings.Builder
	skipped := false
	for i, l := range lines {
		if !keep[i] {
			skipped = true
			continue
		}
		if skipped {
			b.WriteString(indentOf(l) + Elided + "\n")
			skipped = false
		}
		b.WriteString(l + "\n")
	}
	if skipped {
		b.WriteString(Elided + "\n")
	}
	return b.String(), true
}

func indentOf(l string) string { return l[:len(l)-len(strings.TrimLeft(l, " \t"))] }
