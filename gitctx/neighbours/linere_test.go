package neighbours

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// keywordRegexps are the import patterns held to their regexp's matches.
var keywordRegexps = map[string]*keywordRegexp{
	"pyFrom": pyFrom, "pyImport": pyImport, "jvmImport": jvmImport, "rustMod": rustMod, "rustUse": rustUse,
	"cInclude": cInclude, "rbRequire": rbRequire, "phpUse": phpUse, "phpGroupUse": phpGroupUse,
	"phpRequire": phpRequire, "exAlias": exAlias, "dartImport": dartImport,
}

// keywordTexts are heads of files in the languages, with the cases the
// keyword search must get right: a keyword inside a word or a line, blanks
// before it, CRLF, a statement over several lines, no final newline.
var keywordTexts = []string{
	"",
	"<?php\n\nnamespace App;\n\nuse Illuminate\\Support\\Str;\nuse Foo\\Bar as Baz;\n  use \\Acme\\{Client, Http\\Request as R};\n" +
		"use Acme\\{\n  One,\n  Two\n};\nrequire_once __DIR__ . '/helpers.php';\ninclude('x.php'); xinclude 'no.php';\n$a->include 'b.php';\nreuse Foo;\n",
	"from . import views\nfrom .models import (\n    User,  # who\n    Group,\n)\nimport os, sys\n  import json\nxfrom a import b\nfrom\timport",
	"package a.b;\r\nimport java.util.List;\r\nimport static org.junit.Assert.*;\r\n  import a.b.C  ;\nimportx a;\n",
	"pub(crate) mod parse;\nmod lex;\npub use crate::a::b;\nuse super::c;\n    use self::d::e;\nmodx y;\npubmod z;\n",
	"#include \"a.h\"\n  # include \"b/c.h\"\n#include <stdio.h>\nx#include \"no.h\"\n",
	"require_relative 'a/b'\n  require_relative \"c\"\nrequire 'd'\n",
	"defmodule A do\n  alias Plug.Conn.{Utils, Adapter}\n  import Ecto.Query, only: [from: 2]\n  use Phoenix.Controller\nrequire Logger\nend\n",
	"import 'package:a/b.dart';\nexport 'src/c.dart' show C;\npart 'd.dart';\n  import \"e.dart\";\nimports 'f.dart';",
	"use", "use A;", "\nuse A;", "include'a.php'", "_include 'a.php'", "from a import b", "import a",
	strings.Repeat("use ", 50) + "\n" + strings.Repeat("xinclude ", 50) + "include 'z.php'",
}

// TestKeywordRegexp checks that each import pattern finds with
// keywordRegexp what its regexp finds.
func TestKeywordRegexp(t *testing.T) {
	for name, k := range keywordRegexps {
		ref := regexp.MustCompile(k.pattern)
		for _, text := range keywordTexts {
			if got, want := k.FindAllSubmatch([]byte(text), -1), ref.FindAllSubmatch([]byte(text), -1); !reflect.DeepEqual(got, want) {
				t.Errorf("%s on %q:\n got %q\nwant %q", name, text, got, want)
			}
		}
	}
}

// TestKeywordRegexpFinds pins a few matches, so that the comparison above
// cannot pass on two empty answers.
func TestKeywordRegexpFinds(t *testing.T) {
	for _, tc := range []struct {
		k    *keywordRegexp
		text string
		want []string
	}{
		{phpUse, keywordTexts[1], []string{`Illuminate\Support\Str`, `Foo\Bar`}},
		{phpGroupUse, keywordTexts[1], []string{"Acme", "Acme"}},
		{phpRequire, keywordTexts[1], []string{"/helpers.php", "x.php", "b.php"}},
		{pyFrom, keywordTexts[2], []string{".", ".models"}},
		{rustUse, keywordTexts[4], []string{"crate::a::b", "super::c", "self::d::e"}},
	} {
		var got []string
		for _, m := range tc.k.FindAllSubmatch([]byte(tc.text), -1) {
			got = append(got, string(m[1]))
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.k.pattern, got, tc.want)
		}
	}
}

// FuzzKeywordRegexp holds every import pattern's keywordRegexp to its
// regexp's matches.
func FuzzKeywordRegexp(f *testing.F) {
	for _, text := range keywordTexts {
		f.Add(text)
	}
	refs := map[string]*regexp.Regexp{}
	for name, k := range keywordRegexps {
		refs[name] = regexp.MustCompile(k.pattern)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for name, k := range keywordRegexps {
			if got, want := k.FindAllSubmatch([]byte(text), -1), refs[name].FindAllSubmatch([]byte(text), -1); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s on %q:\n got %q\nwant %q", name, text, got, want)
			}
		}
	})
}

// BenchmarkKeywordRegexp reads a 64 KB PHP head (a class with its use
// statements) with the import patterns, and with their regexps.
func BenchmarkKeywordRegexp(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("<?php\n\nnamespace Illuminate\\Database;\n\n")
	for i := range 30 {
		sb.WriteString("use Illuminate\\Support\\Class" + string(rune('A'+i%26)) + ";\n")
	}
	for sb.Len() < 64<<10 {
		sb.WriteString("    /**\n     * Get the value, or include the default when it is missing.\n     *\n     * @return mixed\n     */\n" +
			"    public function value($key, $default = null)\n    {\n        return $this->items[$key] ?? value($default);\n    }\n\n")
	}
	head := []byte(sb.String())
	for _, name := range []string{"phpUse", "phpGroupUse", "phpRequire"} {
		k := keywordRegexps[name]
		ref := regexp.MustCompile(k.pattern)
		b.Run(name+"/keyword", func(b *testing.B) {
			b.SetBytes(int64(len(head)))
			for b.Loop() {
				k.FindAllSubmatch(head, -1)
			}
		})
		b.Run(name+"/regexp", func(b *testing.B) {
			b.SetBytes(int64(len(head)))
			for b.Loop() {
				ref.FindAllSubmatch(head, -1)
			}
		})
	}
}

// moduleRefRegexp is what moduleRefs answers.
var moduleRefRegexp = regexp.MustCompile(`\b[A-Z]\w*(?:\.[A-Z]\w*)+`)

func TestModuleRefs(t *testing.T) {
	for _, text := range append(keywordTexts, "Plug.Conn.Query.decode(x) A.b.C _A.B xA.B A.B.c.D É.A Ab.Cd.\nEf.Gh A.", "A.B", "A.") {
		if got, want := moduleRefs([]byte(text)), moduleRefRegexp.FindAll([]byte(text), -1); !reflect.DeepEqual(got, want) {
			t.Errorf("moduleRefs(%q) = %q, want %q", text, got, want)
		}
	}
	if got := moduleRefs([]byte("Plug.Conn.Query.decode(Ecto.Query)")); len(got) != 2 || string(got[0]) != "Plug.Conn.Query" || string(got[1]) != "Ecto.Query" {
		t.Errorf("moduleRefs = %q, want Plug.Conn.Query and Ecto.Query", got)
	}
}

func FuzzModuleRefs(f *testing.F) {
	for _, text := range keywordTexts {
		f.Add(text)
	}
	f.Add("Plug.Conn.Query.decode(x) A.b.C _A.B xA.B A.B.c.D É.A")
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := moduleRefs([]byte(text)), moduleRefRegexp.FindAll([]byte(text), -1); !reflect.DeepEqual(got, want) {
			t.Fatalf("moduleRefs(%q) = %q, want %q", text, got, want)
		}
	})
}
