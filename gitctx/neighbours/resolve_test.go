package neighbours

import (
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// newTestResolver makes a resolver over the paths, with the go.mod files
// given as path → content.
func newTestResolver(t testing.TB, paths []string, gomods map[string]string) *resolver {
	t.Helper()
	files := map[string]gitctx.TreeEntry{}
	for _, p := range paths {
		files[p] = gitctx.TreeEntry{Path: p, Mode: gitctx.ModeRegular}
	}
	for p := range gomods {
		files[p] = gitctx.TreeEntry{Path: p, Mode: gitctx.ModeRegular}
	}
	r := newResolver(files)
	for _, p := range sortedKeys(gomods) {
		r.addModule(p, []byte(gomods[p]))
	}
	return r
}

type resolveCase struct {
	name, file, spec string
	want             []string // compared sorted
}

func runResolveCases(t *testing.T, r *resolver, cases []resolveCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := r.resolve(tc.file, tc.spec)
			checkEqual(t, "resolve("+tc.file+", "+tc.spec+")", sorted(got), sorted(tc.want))
		})
	}
}

func TestResolveJS(t *testing.T) {
	r := newTestResolver(t, []string{
		"web/src/app.ts",
		"web/src/util.ts",
		"web/src/button.tsx",
		"web/src/legacy.js",
		"web/src/styles.css",
		"web/src/lib/index.ts",
		"web/src/widgets/index.js",
		"web/shared/format.ts",
		"web/src/esm/model.ts",
		"web/src/esm/view.tsx",
		"web/src/esm/worker.mts",
		"web/src/esm/plain.js",
	}, nil)
	runResolveCases(t, r, []resolveCase{
		{"extension added", "web/src/app.ts", "./util", []string{"web/src/util.ts"}},
		{"tsx", "web/src/app.ts", "./button", []string{"web/src/button.tsx"}},
		{"js from ts", "web/src/app.ts", "./legacy", []string{"web/src/legacy.js"}},
		{"exact path", "web/src/app.ts", "./util.ts", []string{"web/src/util.ts"}},
		{"exact non-code file", "web/src/app.ts", "./styles.css", []string{"web/src/styles.css"}},
		{"directory index ts", "web/src/app.ts", "./lib", []string{"web/src/lib/index.ts"}},
		{"directory index js", "web/src/app.ts", "./widgets", []string{"web/src/widgets/index.js"}},
		{"parent directory", "web/src/app.ts", "../shared/format", []string{"web/shared/format.ts"}},
		{"package", "web/src/app.ts", "react", nil},
		{"node builtin", "web/src/app.ts", "node:fs", nil},
		{"missing", "web/src/app.ts", "./nothing", nil},
		{"ts source of a .js specifier", "web/src/app.ts", "./esm/model.js", []string{"web/src/esm/model.ts"}},
		{"tsx source of a .js specifier", "web/src/app.ts", "./esm/view.js", []string{"web/src/esm/view.tsx"}},
		{"tsx source of a .jsx specifier", "web/src/app.ts", "./esm/view.jsx", []string{"web/src/esm/view.tsx"}},
		{"mts source of a .mjs specifier", "web/src/app.ts", "./esm/worker.mjs", []string{"web/src/esm/worker.mts"}},
		{"a .js file itself", "web/src/app.ts", "./esm/plain.js", []string{"web/src/esm/plain.js"}},
		{"no ts source", "web/src/app.ts", "./esm/gone.js", nil},
	})
}

func TestResolvePython(t *testing.T) {
	r := newTestResolver(t, []string{
		"src/shop/__init__.py",
		"src/shop/price.py",
		"src/shop/tax/__init__.py",
		"src/shop/tax/rates.py",
		"src/shop/tax/vat.py",
		"app/main.py",
		"tests/test_price.py",
	}, nil)
	runResolveCases(t, r, []resolveCase{
		{"from . import", "src/shop/tax/vat.py", "py:.", []string{"src/shop/tax/__init__.py"}},
		{"from .rates", "src/shop/tax/vat.py", "py:.rates", []string{"src/shop/tax/rates.py"}},
		{"from .. import", "src/shop/tax/vat.py", "py:..", []string{"src/shop/__init__.py"}},
		{"from ..price", "src/shop/tax/vat.py", "py:..price", []string{"src/shop/price.py"}},
		{"relative package", "src/shop/price.py", "py:.tax", []string{"src/shop/tax/__init__.py"}},
		{"relative missing", "src/shop/price.py", "py:.nothing", nil},
		{"absolute module in src layout", "app/main.py", "py:shop.price", []string{"src/shop/price.py"}},
		{"absolute package", "app/main.py", "py:shop", []string{"src/shop/__init__.py"}},
		{"absolute subpackage", "tests/test_price.py", "py:shop.tax", []string{"src/shop/tax/__init__.py"}},
		{"absolute nested module", "tests/test_price.py", "py:shop.tax.rates", []string{"src/shop/tax/rates.py"}},
		{"name imported from a module", "tests/test_price.py", "py:shop.price.total", nil},
		{"standard library", "app/main.py", "py:os", nil},
	})
}

func TestResolveGo(t *testing.T) {
	r := newTestResolver(t, []string{
		"main.go",
		"config/config.go",
		"config/load.go",
		"config/config_test.go",
		"tools/gen/gen.go",
		"tools/gen/gen_test.go",
	}, map[string]string{
		"go.mod":       "module example.com/shop\n\ngo 1.22\n",
		"tools/go.mod": "// tools\nmodule \"example.com/shop/tools\"\n",
	})
	runResolveCases(t, r, []resolveCase{
		{"package of the root module", "main.go", "go:example.com/shop/config", []string{"config/config.go", "config/load.go"}},
		{"root package", "config/config.go", "go:example.com/shop", []string{"main.go"}},
		{"package of a nested module", "main.go", "go:example.com/shop/tools/gen", []string{"tools/gen/gen.go"}},
		{"standard library", "main.go", "go:fmt", nil},
		{"another module", "main.go", "go:example.com/other/config", nil},
		{"missing package", "main.go", "go:example.com/shop/nothing", nil},
	})
}

func TestResolveJVM(t *testing.T) {
	r := newTestResolver(t, []string{
		"src/main/java/com/acme/App.java",
		"src/main/java/com/acme/model/User.java",
		"src/main/kotlin/com/acme/Service.kt",
		"other/src/main/scala/com/acme/Job.scala",
	}, nil)
	runResolveCases(t, r, []resolveCase{
		{"java class", "src/main/java/com/acme/App.java", "jvm:com.acme.model.User", []string{"src/main/java/com/acme/model/User.java"}},
		{"kotlin class", "src/main/java/com/acme/App.java", "jvm:com.acme.Service", []string{"src/main/kotlin/com/acme/Service.kt"}},
		{"scala class", "src/main/java/com/acme/App.java", "jvm:com.acme.Job", []string{"other/src/main/scala/com/acme/Job.scala"}},
		{"jdk", "src/main/java/com/acme/App.java", "jvm:java.util.List", nil},
		{"package wildcard", "src/main/java/com/acme/App.java", "jvm:com.acme.model", nil},
	})
}

// TestResolveJVMStaticMember: "import static com.acme.util.Strings.join;"
// names a member of the class Strings; the import is of
// com/acme/util/Strings.java all the same.
func TestResolveJVMStaticMember(t *testing.T) {
	r := newTestResolver(t, []string{
		"src/main/java/com/acme/App.java",
		"src/main/java/com/acme/util/Strings.java",
	}, nil)
	specs := parseImports("src/main/java/com/acme/App.java", []byte("package com.acme;\n\nimport static com.acme.util.Strings.join;\n"))
	var got []string
	for _, s := range specs {
		got = append(got, r.resolve("src/main/java/com/acme/App.java", s)...)
	}
	checkEqual(t, "files of a static member import (specs "+strings.Join(specs, ", ")+")", got, []string{"src/main/java/com/acme/util/Strings.java"})
}

func TestResolveRust(t *testing.T) {
	r := newTestResolver(t, []string{
		"src/lib.rs",
		"src/util.rs",
		"src/parser.rs",
		"src/parser/lexer.rs",
		"src/ast/mod.rs",
		"src/ast/node.rs",
		"crates/cli/src/main.rs",
		"crates/cli/src/args.rs",
		"tests/it.rs",
	}, nil)
	runResolveCases(t, r, []resolveCase{
		{"mod from lib.rs", "src/lib.rs", "mod:parser", []string{"src/parser.rs"}},
		{"mod.rs directory", "src/lib.rs", "mod:ast", []string{"src/ast/mod.rs"}},
		{"mod from a file module", "src/parser.rs", "mod:lexer", []string{"src/parser/lexer.rs"}},
		{"mod from mod.rs", "src/ast/mod.rs", "mod:node", []string{"src/ast/node.rs"}},
		{"mod from main.rs", "crates/cli/src/main.rs", "mod:args", []string{"crates/cli/src/args.rs"}},
		{"crate path to a file", "src/ast/node.rs", "use:crate::parser::lexer::Token", []string{"src/parser/lexer.rs"}},
		{"crate path to mod.rs", "src/parser/lexer.rs", "use:crate::ast::Node", []string{"src/ast/mod.rs"}},
		{"crate path to a module", "src/lib.rs", "use:crate::util", []string{"src/util.rs"}},
		{"crate of a workspace member", "crates/cli/src/main.rs", "use:crate::args::Args", []string{"crates/cli/src/args.rs"}},
		{"super from mod.rs", "src/ast/mod.rs", "use:super::util::helper", []string{"src/util.rs"}},
		{"self from mod.rs", "src/ast/mod.rs", "use:self::node::Node", []string{"src/ast/node.rs"}},
		{"crate outside src", "tests/it.rs", "use:crate::util", nil},
		{"missing module", "src/lib.rs", "mod:nothing", nil},
	})
}

// TestResolveRustRelativeInFileModule: in src/parser/lexer.rs (the module
// crate::parser::lexer), super is crate::parser, whose children live in
// src/parser/, and self's children live in src/parser/lexer/ — the same
// rule rustMod applies to "mod x;" in a file module.
func TestResolveRustRelativeInFileModule(t *testing.T) {
	r := newTestResolver(t, []string{
		"src/lib.rs",
		"src/util.rs",
		"src/parser.rs",
		"src/parser/lexer.rs",
		"src/parser/token.rs",
		"src/parser/lexer/cursor.rs",
		"src/token.rs",
		"src/parser/cursor.rs",
	}, nil)
	runResolveCases(t, r, []resolveCase{
		{"super", "src/parser/lexer.rs", "use:super::token::Token", []string{"src/parser/token.rs"}},
		{"self", "src/parser/lexer.rs", "use:self::cursor::Cursor", []string{"src/parser/lexer/cursor.rs"}},
	})
}

func TestResolveC(t *testing.T) {
	r := newTestResolver(t, []string{
		"src/main.c",
		"src/util.h",
		"src/util.c",
		"include/acme/api.h",
		"lib/deep/x.hpp",
	}, nil)
	runResolveCases(t, r, []resolveCase{
		{"beside the file", "src/main.c", "util.h", []string{"src/util.h"}},
		{"relative path", "src/main.c", "../include/acme/api.h", []string{"include/acme/api.h"}},
		{"include directory", "src/main.c", "acme/api.h", []string{"include/acme/api.h"}},
		{"by name", "src/main.c", "x.hpp", []string{"lib/deep/x.hpp"}},
		{"missing", "src/main.c", "none.h", nil},
	})
}

func TestResolveRuby(t *testing.T) {
	r := newTestResolver(t, []string{
		"lib/shop.rb",
		"lib/shop/cart.rb",
		"spec/shop_spec.rb",
		"config/boot.rb",
	}, nil)
	runResolveCases(t, r, []resolveCase{
		{"beside", "lib/shop.rb", "rel:shop/cart", []string{"lib/shop/cart.rb"}},
		{"parent", "spec/shop_spec.rb", "rel:../lib/shop", []string{"lib/shop.rb"}},
		{"with extension", "lib/shop.rb", "rel:../config/boot.rb", []string{"config/boot.rb"}},
		{"missing", "lib/shop.rb", "rel:nothing", nil},
	})
}

// TestResolveSuffixAmbiguous: a suffix that matches many files means
// nothing.
func TestResolveSuffixAmbiguous(t *testing.T) {
	r := newTestResolver(t, []string{"a/util.py", "b/util.py", "c/util.py", "d/util.py", "x/one/two.py"}, nil)
	runResolveCases(t, r, []resolveCase{
		{"four matches", "main.py", "py:util", nil},
		{"one match", "main.py", "py:one.two", []string{"x/one/two.py"}},
	})
}

func TestImportPathOf(t *testing.T) {
	r := newTestResolver(t, []string{"main.go"}, map[string]string{
		"go.mod":       "module example.com/shop\n",
		"tools/go.mod": "module example.com/shop/tools\n",
	})
	for _, tc := range []struct{ dir, want string }{
		{".", "example.com/shop"},
		{"config", "example.com/shop/config"},
		{"internal/db", "example.com/shop/internal/db"},
		{"tools", "example.com/shop/tools"},
		{"tools/gen", "example.com/shop/tools/gen"},
		{"toolsx", "example.com/shop/toolsx"},
	} {
		if got := r.importPathOf(tc.dir); got != tc.want {
			t.Errorf("importPathOf(%q) = %q, want %q", tc.dir, got, tc.want)
		}
	}

	outside := newTestResolver(t, []string{"main.go"}, map[string]string{"svc/go.mod": "module example.com/svc\n"})
	for _, tc := range []struct{ dir, want string }{
		{"svc", "example.com/svc"},
		{"svc/api", "example.com/svc/api"},
		{".", ""},
		{"other", ""},
	} {
		if got := outside.importPathOf(tc.dir); got != tc.want {
			t.Errorf("without a root module: importPathOf(%q) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}

// TestImportPathOfNestedModuleWithShorterPath: a directory belongs to the
// module whose go.mod is nearest above it, whatever the lengths of the
// module paths. Here the nested module's path is shorter than the root's
// (a root module at /v2 beside a nested module without it).
func TestImportPathOfNestedModuleWithShorterPath(t *testing.T) {
	r := newTestResolver(t, []string{"main.go", "x/gen/gen.go"}, map[string]string{
		"go.mod":   "module github.com/acme/project/v2\n",
		"x/go.mod": "module github.com/acme/project/x\n",
	})
	for _, tc := range []struct{ dir, want string }{
		{".", "github.com/acme/project/v2"},
		{"x", "github.com/acme/project/x"},
		{"x/gen", "github.com/acme/project/x/gen"},
	} {
		if got := r.importPathOf(tc.dir); got != tc.want {
			t.Errorf("importPathOf(%q) = %q, want %q", tc.dir, got, tc.want)
		}
	}
	// The other direction works: the import path finds the nested
	// module's directory.
	checkEqual(t, "goPackage", r.goPackage("github.com/acme/project/x/gen"), []string{"x/gen/gen.go"})
}

func TestResolvePHP(t *testing.T) {
	r := newTestResolver(t, []string{
		"src/Client.php",
		"src/Cookie/CookieJar.php",
		"src/Cookie/SetCookie.php",
		"app/Models/User.php",
		"tests/bootstrap.php",
		"tests/ClientTest.php",
	}, nil)
	runResolveCases(t, r, []resolveCase{
		{"PSR-4 root", "tests/ClientTest.php", "php:GuzzleHttp/Client", []string{"src/Client.php"}},
		{"namespace path", "src/Client.php", "php:GuzzleHttp/Cookie/CookieJar", []string{"src/Cookie/CookieJar.php"}},
		{"the namespace is the directory", "tests/ClientTest.php", "php:App/Models/User", []string{"app/Models/User.php"}},
		{"a vendor's class", "src/Client.php", "php:Psr/Http/Message/RequestInterface", nil},
		{"require", "tests/ClientTest.php", "rel:bootstrap.php", []string{"tests/bootstrap.php"}},
	})
	got := phpImports([]byte("<?php\nnamespace GuzzleHttp;\n\nuse GuzzleHttp\\Cookie\\CookieJar;\nuse Psr\\Http\\Message\\{RequestInterface, ResponseInterface as R, };\nuse GuzzleHttp\\Client as C;\nrequire_once __DIR__ . '/bootstrap.php';\n"))
	checkEqual(t, "phpImports", got, []string{"php:GuzzleHttp/Cookie/CookieJar", "php:GuzzleHttp/Client",
		"php:Psr/Http/Message/RequestInterface", "php:Psr/Http/Message/ResponseInterface", "rel:bootstrap.php"})
}

func TestResolveElixir(t *testing.T) {
	r := newTestResolver(t, []string{
		"lib/plug/conn.ex",
		"lib/plug/conn/utils.ex",
		"lib/plug/adapters/cowboy.ex",
		"lib/my_app/http_client.ex",
		"test/plug/conn_test.exs",
	}, nil)
	runResolveCases(t, r, []resolveCase{
		{"module", "test/plug/conn_test.exs", "ex:Plug.Conn", []string{"lib/plug/conn.ex"}},
		{"nested", "lib/plug/conn.ex", "ex:Plug.Conn.Utils", []string{"lib/plug/conn/utils.ex"}},
		{"acronym", "lib/plug/conn.ex", "ex:MyApp.HTTPClient", []string{"lib/my_app/http_client.ex"}},
		{"outside", "lib/plug/conn.ex", "ex:Logger", nil},
	})
	got := exImports([]byte("defmodule Plug.Conn do\n  alias Plug.Conn.{Utils, Adapter}\n  import Plug.Conn.Status, only: [code: 1]\n  require Logger\n  use Plug.Builder\n  def x(c), do: Plug.Router.Utils.split(c)\nend\n"))
	checkEqual(t, "exImports", got, []string{"ex:Plug.Conn.Utils", "ex:Plug.Conn.Adapter", "ex:Plug.Conn.Status", "ex:Logger",
		"ex:Plug.Builder", "ex:Plug.Conn", "ex:Plug.Router.Utils"})
}

func TestResolveDart(t *testing.T) {
	r := newTestResolver(t, []string{
		"pkgs/http/lib/http.dart",
		"pkgs/http/lib/src/client.dart",
		"pkgs/http/lib/src/base_client.dart",
		"pkgs/http/test/client_test.dart",
		"pkgs/other/lib/src/client.dart",
	}, nil)
	runResolveCases(t, r, []resolveCase{
		{"relative", "pkgs/http/lib/http.dart", "dart:src/client.dart", []string{"pkgs/http/lib/src/client.dart"}},
		{"package", "pkgs/http/test/client_test.dart", "dart:package:http/src/client.dart", []string{"pkgs/http/lib/src/client.dart"}},
		{"sdk", "pkgs/http/lib/http.dart", "dart:dart:io", nil},
		{"another package", "pkgs/http/lib/http.dart", "dart:package:path/path.dart", nil},
	})
}

func TestUnderscore(t *testing.T) {
	for in, want := range map[string]string{"Conn": "conn", "HTTPClient": "http_client", "MyApp": "my_app", "SSL": "ssl", "Base64Url": "base64_url"} {
		if got := underscore(in); got != want {
			t.Errorf("underscore(%q) = %q, want %q", in, got, want)
		}
	}
}
