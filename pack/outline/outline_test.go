package outline

import (
	"strings"
	"testing"
)

func lines(n int, format string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.ReplaceAll(format, "N", string(rune('a'+i%26))))
	}
	return b.String()
}

func TestGo(t *testing.T) {
	src := `// Package demo does things.
package demo

import "fmt"

// Limit caps things.
const Limit = 10

var table = map[string]int{"a": 1, "b": 2}

// Server serves.
type Server struct {
	Addr string // where to listen
}

// Serve runs the server; a long body follows.
func (s *Server) Serve(n int) (string, error) {
	secretBody := "BODYMARKER"
` + lines(30, "\t_ = N\n") + `	return fmt.Sprint(secretBody), nil
}

func helper() {}
`
	out, ok := Of("demo.go", src)
	if !ok {
		t.Fatal("no outline for a Go file")
	}
	for _, want := range []string{"// Package demo does things.", "package demo", `import "fmt"`, "const Limit = 10",
		"var table = " + Elided, "type Server struct", "Addr string // where to listen", "// Serve runs the server",
		"func (s *Server) Serve(n int) (string, error) { " + Elided + " }", "func helper() { " + Elided + " }"} {
		if !strings.Contains(out, want) {
			t.Errorf("outline lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"BODYMARKER", `"a": 1`} {
		if strings.Contains(out, not) {
			t.Errorf("outline keeps %q:\n%s", not, out)
		}
	}
}

func TestHeuristic(t *testing.T) {
	tests := []struct {
		name, src string
		want, not []string
	}{
		{"m.py", "import os\n\n# Greets.\ndef greet(name):\n" + lines(20, "    x = 'BODY'\n") + "\nclass Box:\n    def open(self):\n" + lines(20, "        pass\n"),
			[]string{"import os", "# Greets.", "def greet(name):", "class Box:", "    def open(self):", Elided}, []string{"BODY"}},
		{"m.ts", "import { a } from './a';\n\nexport function run(x: number): string {\n" + lines(30, "  const y = 'BODY';\n") + "}\nexport interface Opts {\n  n: number;\n}\n",
			[]string{"import { a } from './a';", "export function run(x: number): string {", "export interface Opts {"}, []string{"BODY"}},
		{"m.rs", "use std::io;\n\n/// Adds.\npub fn add(a: i32) -> i32 {\n" + lines(30, "    let _ = \"BODY\";\n") + "}\nstruct S;\n",
			[]string{"use std::io;", "/// Adds.", "pub fn add(a: i32) -> i32 {", "struct S;"}, []string{"BODY"}},
		{"conn.ex", "defmodule Plug.Conn do\n  @moduledoc \"\"\"\n  The connection.\n  use it with care\n  \"\"\"\n  alias Plug.Conn.Utils\n\n  # Puts a header.\n  @spec put(t, String.t()) :: t\n  def put(conn, key) do\n" + lines(30, "    x = \"BODY\"\n") + "  end\n\n  defp check(conn), do: conn\nend\n",
			[]string{"defmodule Plug.Conn do", "  @moduledoc", "  alias Plug.Conn.Utils", "  # Puts a header.", "  @spec put(t, String.t()) :: t", "  def put(conn, key) do", "  defp check(conn), do: conn"}, []string{"BODY", "The connection.", "use it"}},
		{"client.dart", "import 'package:http/http.dart';\n\n/// A client.\nabstract class BaseClient implements Client {\n  @override\n  Future<Response> head(Uri url, {Map<String, String>? headers}) =>\n      _send('HEAD', url, headers);\n\n  void close() {\n" + lines(30, "    if (x) { print('BODY'); }\n") + "    send(\n      'BODY',\n    );\n  }\n}\n\nString? get(Object o) {\n  return null;\n}\n",
			[]string{"import 'package:http/http.dart';", "/// A client.", "abstract class BaseClient implements Client {", "  @override", "  Future<Response> head(Uri url, {Map<String, String>? headers}) =>", "  void close() {", "String? get(Object o) {"}, []string{"BODY", "return null"}},
	}
	for _, tt := range tests {
		out, ok := Of(tt.name, tt.src)
		if !ok {
			t.Errorf("%s: no outline", tt.name)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: outline lacks %q:\n%s", tt.name, w, out)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(out, n) {
				t.Errorf("%s: outline keeps %q:\n%s", tt.name, n, out)
			}
		}
	}
}

func TestNoOutline(t *testing.T) {
	long := lines(50, "N\n")
	for _, c := range []struct{ name, src string }{{"notes.txt", long}, {"x.go", "package x\n"}, {"data.json", long}} {
		if out, ok := Of(c.name, c.src); ok {
			t.Errorf("Of(%q) = %q, want none", c.name, out)
		}
	}
	// a Go file whose declarations do not parse falls back to the line
	// heuristic; one whose bodies do not is outlined (bodies are not read)
	brokenDecl := "package x\n\nfunc A( {\n" + lines(20, "\tN()\n") + "}\n\nfunc B() int {\n\treturn 1\n}\n"
	if out, ok := Of("b.go", brokenDecl); !ok || !strings.Contains(out, "func B() int {\n") {
		t.Errorf("Go with a broken declaration: %q %v, want the heuristic outline", out, ok)
	}
	brokenBody := "package x\n\nfunc A() {\n" + lines(20, "\tN(\n") + "}\n\nfunc B() int {\n\treturn 1\n}\n"
	if out, ok := Of("b.go", brokenBody); !ok || !strings.Contains(out, "func A() { "+Elided+" }") {
		t.Errorf("Go with a broken body: %q %v, want the Go outline", out, ok)
	}
}
