package neighbours

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// parseImports reads the import statements of each language into specs;
// the order of the specs is not part of the contract, so they are
// compared sorted.
func TestParseImports(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		want            []string
	}{
		{
			name: "go import block with alias and blank import",
			file: "cmd/main.go",
			src: `package main

import (
	"fmt"
	cfg "example.com/shop/config"
	_ "embed"
)

import "example.com/shop/price"

func main() { fmt.Println(cfg.X, price.Y) }
`,
			want: []string{"go:embed", "go:example.com/shop/config", "go:example.com/shop/price", "go:fmt"},
		},
		{
			name: "go head cut off after the imports",
			file: "a.go",
			src:  "package a\n\nimport \"example.com/x\"\n\nfunc broken(",
			want: []string{"go:example.com/x"},
		},
		{
			name: "go without imports",
			file: "a.go",
			src:  "package a\n\nfunc A() {}\n",
			want: nil,
		},
		{
			name: "javascript and typescript",
			file: "web/src/app.ts",
			src: `import React from 'react'
import { a, b } from "./a"
import type { T } from './types'
import {
  c,
  d,
} from './c'
export * from './d'
export { e } from './e'
import './side-effect.css'
const f = require('./f')
const g = await import('./g')
// reimport('./not-an-import')
`,
			want: []string{"./a", "./c", "./d", "./e", "./f", "./g", "./side-effect.css", "./types", "react"},
		},
		{
			name: "jsx require with spaces",
			file: "web/x.jsx",
			src:  "const h = require( \"../h\" );\n",
			want: []string{"../h"},
		},
		{
			name: "python",
			file: "src/shop/cart.py",
			src: `import os, sys
import shop.util as u
from . import tax, rates
from .. import common
from .money import Amount
from shop.price import total as t, discount
from shop.models import *
`,
			want: []string{
				"py:.", "py:.tax", "py:.rates",
				"py:..", "py:..common",
				"py:.money", "py:.money.Amount",
				"py:shop.price", "py:shop.price.total", "py:shop.price.discount",
				"py:shop.models",
				"py:os", "py:sys", "py:shop.util",
			},
		},
		{
			name: "python one-line parenthesized",
			file: "a.py",
			src:  "from pkg import (a, b)\n",
			want: []string{"py:pkg", "py:pkg.a", "py:pkg.b"},
		},
		{
			name: "java",
			file: "src/main/java/com/acme/App.java",
			src: `package com.acme;

import java.util.List;
import com.acme.model.User;
import static com.acme.util.Strings.*;
import com.acme.service.*;
`,
			want: []string{"jvm:com.acme.model.User", "jvm:com.acme.service", "jvm:com.acme.util.Strings", "jvm:java.util.List"},
		},
		{
			name: "kotlin",
			file: "src/main/kotlin/com/acme/App.kt",
			src:  "package com.acme\n\nimport com.acme.model.User\nimport kotlinx.coroutines.launch\n",
			want: []string{"jvm:com.acme.model.User", "jvm:kotlinx.coroutines.launch"},
		},
		{
			name: "rust",
			file: "src/lib.rs",
			src: `mod parser;
pub mod lexer;
pub(crate) mod ast;
use crate::parser::Parser;
pub use self::lexer::Token;
use super::util;
use std::io;
mod tests {
}
`,
			want: []string{"mod:ast", "mod:lexer", "mod:parser", "use:crate::parser::Parser", "use:self::lexer::Token", "use:super::util"},
		},
		{
			name: "c",
			file: "src/main.c",
			src:  "#include <stdio.h>\n#include \"util.h\"\n#  include \"sub/x.h\"\n",
			want: []string{"sub/x.h", "util.h"},
		},
		{
			name: "c++ header",
			file: "src/a.hpp",
			src:  "#pragma once\n#include \"b.hpp\"\n",
			want: []string{"b.hpp"},
		},
		{
			name: "ruby",
			file: "lib/shop.rb",
			src:  "require 'json'\nrequire_relative 'shop/cart'\nrequire_relative \"../config/boot\"\n",
			want: []string{"rel:../config/boot", "rel:shop/cart"},
		},
		{
			name: "not a language with imports",
			file: "README.md",
			src:  "import x from './y'\n",
			want: nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := parseImports(tc.file, []byte(tc.src))
			checkEqual(t, "parseImports("+tc.file+")", sorted(got), sorted(tc.want))
		})
	}
}

// TestParseImportsPythonMultiline: black and most Python formatters wrap a
// long "from m import" in parentheses over several lines. The module is
// imported all the same.
func TestParseImportsPythonMultiline(t *testing.T) {
	src := `from shop.price import (
    total,
    discount,
)
`
	got := parseImports("src/shop/cart.py", []byte(src))
	for _, want := range []string{"py:shop.price", "py:shop.price.total", "py:shop.price.discount"} {
		if !slices.Contains(got, want) {
			t.Errorf("parseImports(%q) = %q, want it to include %q", src, got, want)
		}
	}
}

func TestLanguageOf(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"a.go", "go"},
		{"a.TS", "js"},
		{"a.mjs", "js"},
		{"a.vue", "js"},
		{"a.pyi", "python"},
		{"A.kt", "jvm"},
		{"a.rs", "rust"},
		{"a.hpp", "c"},
		{"a.rb", "ruby"},
		{"src/Client.php", "php"},
		{"lib/conn.ex", "elixir"},
		{"test/conn_test.exs", "elixir"},
		{"lib/client.dart", "dart"},
		{"Sources/App.swift", ""}, // tests paired by name only (testLanguage)
		{"Makefile", ""},
		{"a.md", ""},
	} {
		if got := languageOf(tc.path); got != tc.want {
			t.Errorf("languageOf(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestDefines: the name a line defines, in each language the definition
// pattern knows, and none for a line that only uses names.
func TestDefines(t *testing.T) {
	for line, want := range map[string]string{
		"func (r *Repo) OpenFile(p string) error {":                 "OpenFile",
		"type ruleSet struct {":                                     "ruleSet",
		"export async function loadConfig(path) {":                  "loadConfig",
		"export const parseArgs = (argv) => {":                      "parseArgs",
		"    def get_policy(self):":                                 "get_policy",
		"class CookieJar(object):":                                  "CookieJar",
		"pub(crate) fn read_index(path: &Path) -> Index {":          "read_index",
		"exports.sendFile = function (path) {":                      "sendFile",
		"res.sendFile = function sendFile(path, options) {":         "sendFile",
		"    public static function fromArray(array $a)":            "fromArray",
		"    private function &getRef()":                            "getRef",
		"  defp parse_header(conn, name) do":                        "parse_header",
		"public final class JsonReader implements Closeable {":      "JsonReader",
		"  public static <T> T fromJson(String json, Class<T> c) {": "",
		// a Java or C# method is not told from a call by a line's form
		"  private Map<String, List<Integer>> index(int n) {": "",
		"public sealed class LoggerConfiguration":             "LoggerConfiguration",
		"    public async Task<int> CountAsync(string q)":     "",
		"data class Point(val x: Int)":                        "Point",
		"  override fun onCreate(state: Bundle?) {":           "onCreate",
		"fun <T> List<T>.second(): T = this[1]":               "second",
		"object Registry {":                                   "Registry",
		"public final class ImageCache {":                     "ImageCache",
		"    open func retrieveImage(with key: String) {":     "retrieveImage",
		"final class Client implements ClientInterface":       "Client",
		"  public int size = 3;":                              "",
		"    private readonly string name;":                   "",
		"  defmacro plug(name, opts \\ []) do":                "plug",
		"\treturn loadConfig(path)":                           "",
		"x := OpenFile(p)":                                    "",
	} {
		if got := defines([]byte(line)); got != want {
			t.Errorf("defines(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestEachWord: words as `git grep -w` sees them, shorter than
// minSymbolLen left out.
func TestEachWord(t *testing.T) {
	var got []string
	eachWord([]byte("x := cookie_jar.getPolicy(ab, Name2x)+é_tail"), func(w []byte) { got = append(got, string(w)) })
	checkEqual(t, "words", got, []string{"cookie_jar", "getPolicy", "Name2x", "_tail"})
}

// TestPerlFailed: an error git reported ends the Perl-compatible search
// and falls back to fixed words; a cancelled run does not, nor does an
// error that is not git's.
func TestPerlFailed(t *testing.T) {
	gitErr := fmt.Errorf("search for references: %w", &gitctx.Error{Args: []string{"grep"}, Stderr: "fatal: pcre2_match failed", Err: errors.New("exit status 128")})
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"git failed", t.Context(), gitErr, true},
		{"no error", t.Context(), nil, false},
		{"cancelled", cancelled, gitErr, false},
		{"not git's", t.Context(), errors.New("read: broken pipe"), false},
	} {
		if got := perlFailed(tc.ctx, tc.err); got != tc.want {
			t.Errorf("%s: perlFailed = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// FuzzParseImports: the import parsers of every language, and the resolver
// after them, take any bytes without panicking, and each spec they return
// resolves to files of the repository only.
func FuzzParseImports(f *testing.F) {
	for _, seed := range []string{
		"<?php\nuse A\\B\\{C, D as E,};\nuse \\F;\nrequire_once __DIR__ . '/x.php';\n",
		"defmodule A.B do\n  alias A.B.{C, D}\n  import E\n  def f, do: A.C.D.g()\nend\n",
		"import 'package:a/b.dart';\nexport 'src/c.dart';\npart '../d.dart';\n",
		"from . import (a,\n b)\nimport c.d\n",
		"#include \"a/b.h\"\n",
		"use crate::a::b;\nmod c;\n",
	} {
		f.Add(seed)
	}
	files := []string{"src/Client.php", "lib/a/b.ex", "lib/src/a.dart", "a/b.py", "src/a.c", "src/lib.rs",
		"src/A.java", "lib/a.rb", "web/a.ts", "lib/a/b/c.ex", "src/C.php", "lib/b.dart"}
	r := newTestResolver(f, files, nil)
	f.Fuzz(func(t *testing.T, src string) {
		for _, name := range files {
			for _, spec := range parseImports(name, []byte(src)) {
				for _, got := range r.resolve(name, spec) {
					if !slices.Contains(files, got) {
						t.Fatalf("resolve(%q, %q) = %q, not a file of the repository", name, spec, got)
					}
				}
			}
		}
	})
}
