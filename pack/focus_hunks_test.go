package pack

import (
	"fmt"
	gobuild "go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// hunkAt is a hunk of one added line at new line n, with a line of
// context before it.
func hunkAt(n int) gitctx.Hunk {
	return gitctx.Hunk{NewStart: n - 1, NewLines: 2, OldStart: n - 1, OldLines: 1,
		Lines: []gitctx.Line{{Op: ' ', Text: "ctx"}, {Op: '+', Text: "added"}}}
}

func TestEnclosingLines(t *testing.T) {
	goSrc := textOf(80, map[int]string{
		1:  "package x",
		20: "// Plan makes a plan.",
		21: "func (c *Context) Plan(",
		22: "\tconfig *Config,",
		23: ") (*Plan, error) {",
		24: "\tf := func() {",
		25: "\t\treturn",
		26: "\t}",
		27: "\treturn nil, nil",
		28: "}",
		29: "",
		60: "func Other() {",
		61: "\treturn",
		62: "}",
	})
	python := textOf(50, map[int]string{
		10: "class App:",
		11: "    def first(self):",
		12: "        return 1",
		13: "",
		14: "    def second(self):",
		15: "        x = 2",
		16: "        return x",
	})
	// JavaScript whose lines between those given are indented as the
	// code around them
	js := strings.Join([]string{
		"import x from 'x';", // 1
		"export function create_client(app, target) {",
		"\tlet errored = false;",
		"\t/** Loads a node. */",
		"\tasync function load_node({ loader, url }) {", // 5
		"\t\tlet data = null;",
		"\t\tlet tracking = true;",
		"\t\treturn data;",
		"\t}",
		"\terrored = true;", // 10
		"}",
		"class Router {",
		"  async handle(req) {",
		"    if (req.ok) {",
		"      return 1;", // 15
		"    }",
		"  }",
		"}",
		"test.describe('env', () => {",
		"  test('reads', async () => {", // 20
		"    expect(1).toBe(1);",
		"  });",
		"});",
		"export function outer() {", // 24
		"\tclass Inner {",
		"\t\trun() {",
		"\t\t\tgo();",
		"\t\t}",
		"\t}",
		"}",
	}, "\n") + "\n"
	// real Go, read from its syntax tree: a raw string's lines at the
	// margin do not end the function
	realGo := "package x\n\n// Want is the text.\nfunc Want() string {\n\ts := `a\nb\n`\n\treturn s\n}\n\nfunc Other() {}\n"
	for _, tc := range []struct {
		name  string
		path  string
		text  string
		hunks []gitctx.Hunk
		head  int
		limit int
		want  []int
	}{
		{"Go: the function a raw string's margin lines sit in, its doc comment too", "x.go", realGo, []gitctx.Hunk{hunkAt(8)}, 1, 150,
			append([]int{1}, seq(3, 9)...)},
		{"Go: between declarations, nothing", "x.go", realGo, []gitctx.Hunk{hunkAt(10)}, 1, 150, nil},
		{"a hunk in a Go method: the method, its comment and signature over lines", "src.txt", goSrc, []gitctx.Hunk{hunkAt(27)}, 2, 150,
			append(seq(1, 2), seq(20, 28)...)},
		{"a hunk in a closure: the function around it", "src.txt", goSrc, []gitctx.Hunk{hunkAt(25)}, 2, 150, append(seq(1, 2), seq(20, 28)...)},
		{"two hunks in two functions", "src.txt", goSrc, []gitctx.Hunk{hunkAt(27), hunkAt(61)}, 2, 150,
			append(append(seq(1, 2), seq(20, 28)...), seq(60, 62)...)},
		{"a hunk between functions: nothing to centre on", "src.txt", goSrc, []gitctx.Hunk{hunkAt(45)}, 2, 150, nil},
		{"a Python method and its class's line, not the class's other method", "src.txt", python, []gitctx.Hunk{hunkAt(16)}, 2, 150,
			append(append(seq(1, 2), 10), seq(14, 16)...)},
		{"a nested function's first line, its function's, not a one-line local", "src.js", js, []gitctx.Hunk{hunkAt(7)}, 1, 150,
			[]int{1, 2, 4, 5, 6, 7, 8, 9}},
		{"a JavaScript method, its class's line", "src.js", js, []gitctx.Hunk{hunkAt(15)}, 1, 150,
			append([]int{1}, seq(12, 17)...)},
		{"a method's class's line and its function's", "src.js", js, []gitctx.Hunk{hunkAt(27)}, 1, 150, []int{1, 24, 25, 26, 27, 28}},
		{"a test in a block of tests", "src.test.js", js, []gitctx.Hunk{hunkAt(21)}, 1, 150, []int{1, 19, 20, 21, 22}},
		{"never more than limit lines", "src.txt", goSrc, []gitctx.Hunk{hunkAt(27)}, 2, 5, append(seq(1, 2), seq(20, 22)...)},
		{"little room: every declaration before any body", "src.txt", goSrc, []gitctx.Hunk{hunkAt(27), hunkAt(61)}, 2, 6,
			[]int{1, 2, 20, 21, 22, 60}},
		{"no hunks", "src.txt", goSrc, nil, 2, 150, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := enclosingLines(tc.path, tc.text, &gitctx.Patch{Hunks: tc.hunks}, tc.head, tc.limit); !slices.Equal(got, tc.want) {
				t.Errorf("enclosingLines = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestChangedFileExcerpt checks that a changed file too long for any
// pack to show whole shows its head and the function its change sits in,
// through the gate, rather than its head and tail.
func TestChangedFileExcerpt(t *testing.T) {
	src := func(body string) string {
		var b strings.Builder
		b.WriteString("package big\n\nimport \"fmt\"\n\n")
		for i := range 150 {
			fmt.Fprintf(&b, "// F%03d returns %d.\nfunc F%03d() int {\n\treturn %d\n}\n\n", i, i, i, i)
		}
		b.WriteString("// Middle prints.\nfunc Middle() {\n\tkey := \"" + fakeGitHub + "\"\n\tfmt.Println(key)\n" + body + "}\n\n")
		for i := 150; i < 300; i++ {
			fmt.Fprintf(&b, "func G%03d() int {\n\treturn %d\n}\n\n", i, i)
		}
		return b.String()
	}
	r := newRepo(t, "hunks")
	r.WriteAll(map[string]string{"go.mod": "module example.com/big\n\ngo 1.22\n", "big.go": src("")})
	r.Commit("base")
	r.Write("big.go", src("\tfmt.Println(\"more\")\n"))
	r.Commit("more")
	opts := options(counter(t), JSON, 0)
	opts.Truncation.MaxFileBytes = 4000
	p := buildPacked(t, r.change("HEAD~1..HEAD"), opts)
	if p.rep["big.go"] != RepTruncated {
		t.Fatalf("big.go is %q, want %s", p.rep["big.go"], RepTruncated)
	}
	got := strings.Join(p.content["big.go"], "\n")
	want := "// Middle prints.\nfunc Middle() {\n\tkey := \"[REDACTED:github-pat#1]\"\n\tfmt.Println(key)\n\tfmt.Println(\"more\")\n}\n..."
	if !strings.Contains(got, want) || !strings.HasPrefix(got, "package big\n") {
		t.Errorf("big.go shows\n%s\nwant its head, and\n%s", got, want)
	}
	if strings.Contains(got, "G299") {
		t.Errorf("big.go shows its tail:\n%s", got)
	}
}

// FuzzEnclosingLines checks that the lines an excerpt of a changed file
// keeps are lines of the text, in order, and at most limit.
func FuzzEnclosingLines(f *testing.F) {
	f.Add("package a\n\nfunc F() {\n\tx := 1\n\treturn\n}\n", 4, 1, 10, true)
	f.Add("class A:\n    def f(self):\n        pass\n", 3, 0, 2, false)
	f.Fuzz(func(t *testing.T, text string, at, head, limit int, isGo bool) {
		if at < -5 || at > 10000 || head < 0 || limit < 0 || head > 1000 || limit > 1000 {
			return
		}
		path := "f.txt"
		if isGo {
			path = "f.go"
		}
		got := enclosingLines(path, text, &gitctx.Patch{Hunks: []gitctx.Hunk{hunkAt(at)}}, head, limit)
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if len(got) > limit || !slices.IsSorted(got) {
			t.Fatalf("kept %v, limit %d", got, limit)
		}
		for i, n := range got {
			if n < 1 || n > len(lines) || i > 0 && got[i-1] == n {
				t.Fatalf("kept %v of %d lines", got, len(lines))
			}
		}
	})
}

// TestGoDeclarationsWithoutBodies: the declarations found with the bodies
// blanked are those of the whole file, on every Go file of this module
// (and, without -short, of some of Go's own packages).
func TestGoDeclarationsWithoutBodies(t *testing.T) {
	roots := []string{".."}
	if !testing.Short() {
		roots = append(roots, filepath.Join(gobuild.Default.GOROOT, "src", "go"), filepath.Join(gobuild.Default.GOROOT, "src", "net"))
	}
	files := 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			want := declarationsOf(string(data))
			if want == nil {
				return nil
			}
			files++
			if got := goDeclarations(p, string(data)); !slices.Equal(got, want) {
				t.Errorf("%s: declarations %v, want %v", p, got, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 100 {
		t.Fatalf("only %d Go files compared", files)
	}
}
