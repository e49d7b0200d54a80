package outline

import (
	"strings"
	"testing"
)

// jsLines are lines of JavaScript and TypeScript, declarations and not.
var jsLines = []string{
	"export default function App() {", "export const x = 1;", "import React from 'react';",
	"  async function* gen() {", "declare module 'x' {", "abstract class A {}", "interface Props {",
	"type T = string;", "enum Color { Red }", "namespace N {", "const f = (a) => a + 1;",
	"let g = async function () {", "var h = x => x;", "  render() {", "  private async load(id: string): Promise<void> {",
	"  static get value(): number {\t", "  constructor(props) {", "\tif (x) {", "  return (", "  foo(a, b);",
	"}", "", "// comment", "  exportFoo()", "const", "  else {", "\u00a0function f() {", "function\u00a0f() {",
}

// TestJSMayDeclare: every line jsDecl matches passes jsMayDeclare, and it
// keeps the expression from most lines that are not declarations.
func TestJSMayDeclare(t *testing.T) {
	skipped := 0
	for _, l := range jsLines {
		if jsDecl.MatchString(l) && !jsMayDeclare(l) {
			t.Errorf("%q: a declaration jsMayDeclare rules out", l)
		}
		if !jsMayDeclare(l) {
			skipped++
		}
	}
	if skipped == 0 {
		t.Error("jsMayDeclare ruled out no line")
	}
	text := strings.Join(jsLines, "\n") + "\n"
	with, ok1 := heuristic(text, jsDecl)
	delete(mayDeclare, jsDecl)
	defer func() { mayDeclare[jsDecl] = jsMayDeclare }()
	without, ok2 := heuristic(text, jsDecl)
	if with != without || ok1 != ok2 {
		t.Errorf("outline with the check:\n%s\nwithout:\n%s", with, without)
	}
}

// FuzzJSMayDeclare: jsMayDeclare passes every line jsDecl matches.
func FuzzJSMayDeclare(f *testing.F) {
	for _, l := range jsLines {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "\n") {
			return // heuristic gives it lines
		}
		if jsDecl.MatchString(line) && !jsMayDeclare(line) {
			t.Errorf("%q matches jsDecl, jsMayDeclare rules it out", line)
		}
	})
}

// BenchmarkHeuristicJS outlines a TypeScript file of about 10 KB.
func BenchmarkHeuristicJS(b *testing.B) {
	text := strings.Repeat(strings.Join(jsLines, "\n")+"\n"+strings.Repeat("    const value = compute(a, b) + other.field;\n", 10), 12)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		heuristic(text, jsDecl)
	}
}
