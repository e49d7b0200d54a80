package pack

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// textOf is a text of n lines, "line 1" to "line n", with lines
// replaced by those of at (line number → text).
func textOf(n int, at map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if l, ok := at[i]; ok {
			b.WriteString(l + "\n")
		} else {
			b.WriteString("x" + strings.Repeat(" ", i%3) + "\n")
		}
	}
	return b.String()
}

func TestNameLines(t *testing.T) {
	python := textOf(60, map[int]string{
		40: "class App:",
		41: "    @setupmethod",
		42: "    def dispatch(self, ctx):",
		43: `        """Dispatch the request."""`,
		44: "        rv = self.pre(ctx)",
		45: "",
		46: "        return rv",
		47: "",
		48: "    def other(self):",
		55: "    rv = app.dispatch(ctx)",
	})
	goSrc := textOf(60, map[int]string{
		30: "// Plan makes a plan.",
		31: "// It never applies it.",
		32: "func (c *Context) Plan(",
		33: "\tconfig *Config,",
		34: ") (*Plan, error) {",
		35: "\treturn nil, nil",
		36: "}",
		37: "",
		50: "\tp, err := ctx.Plan(cfg)",
	})
	uses := textOf(60, map[int]string{20: "\tv := build(Plan)", 50: "\tPlan.Apply()"})
	js := textOf(40, map[int]string{25: "  render(props) {", 26: "    return props.x", 27: "  }", 33: "    this.render(p)"})
	for _, tc := range []struct {
		name  string
		text  string
		names []string
		head  int
		limit int
		want  []int
	}{
		{"no names", python, nil, 5, 150, nil},
		{"a name the file does not hold", python, []string{"nowhere"}, 5, 150, nil},
		{"a Python method: its decorator, docstring and body, not the blank line after it", python, []string{"dispatch"}, 5, 150,
			append(seq(1, 5), seq(41, 46)...)},
		{"Type.method is the method", python, []string{"App.dispatch"}, 5, 150, append(seq(1, 5), seq(41, 46)...)},
		{"a Go function: its comments, signature over lines and body; the call left out", goSrc, []string{"Plan"}, 3, 150,
			append(seq(1, 3), seq(30, 36)...)},
		{"a name it only uses: each use with the lines around it", uses, []string{"Plan"}, 3, 150,
			append(append(seq(1, 3), seq(17, 23)...), seq(47, 53)...)},
		{"a JavaScript method by its name and parameters", js, []string{"render"}, 2, 150, append(seq(1, 2), seq(25, 27)...)},
		{"the head is at most nameHeadLines, then the names, then more of the head", python, []string{"dispatch"}, 100, 40,
			append(seq(1, nameHeadLines+4), seq(41, 46)...)},
		{"room left: the whole head", python, []string{"dispatch"}, 45, 150, seq(1, 46)},
		{"never more than limit lines", python, []string{"dispatch"}, 5, 8, append(seq(1, 5), seq(41, 43)...)},
		{"a word inside a longer name is not the name", textOf(10, map[int]string{5: "def dispatcher():"}), []string{"dispatch"}, 2, 150, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := nameLines(tc.text, tc.names, tc.head, tc.limit); !slices.Equal(got, tc.want) {
				t.Errorf("nameLines = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDeclares(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"func Plan() {", true},
		{"func (c *Context) Plan(cfg *Config) {", true},
		{"\tx := Plan()", false},
		{"type Plan struct {", true},
		{"def plan(self):", true},
		{"async def plan(self):", true},
		{"export function plan(a) {", true},
		{"export const plan = () => 1", true},
		{"const other = plan(1)", false}, // a value that calls it
		{"pub fn plan(&self) -> u8 {", true},
		{"  public static Plan plan(int a) {", false}, // a Java method, as the references search reads it: its uses are shown
		{"PLAN = 3", true},
		{"plan == 3", false},
		{"plan: int", true},
		{"class Planner(Plan):", false},
	} {
		name := "Plan"
		if strings.Contains(strings.ToLower(tc.line), "plan") && !strings.Contains(tc.line, "Plan") {
			name = "plan"
		}
		if strings.HasPrefix(tc.line, "PLAN") {
			name = "PLAN"
		}
		if got := declares(tc.line, name); got != tc.want {
			t.Errorf("declares(%q, %q) = %v, want %v", tc.line, name, got, tc.want)
		}
	}
}

// FuzzNameLines checks that the lines an excerpt keeps are lines of the
// text, in order, at most limit, and that nil means no line holds the name.
func FuzzNameLines(f *testing.F) {
	f.Add("package a\n\nfunc F() {\n\treturn\n}\n\nvar x = F()\n", "F", 2, 10)
	f.Add("class A:\n    def f(self):\n        pass\n", "A.f", 1, 3)
	f.Fuzz(func(t *testing.T, text, name string, head, limit int) {
		if name == "" || strings.ContainsAny(name, "\n") || head < 0 || limit < 0 || head > 1000 || limit > 1000 {
			return
		}
		got := nameLines(text, []string{name}, head, limit)
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if got == nil {
			bare := name[strings.LastIndexByte(name, '.')+1:]
			for i, l := range lines {
				if text != "" && bare != "" && hasWord(l, bare) {
					t.Fatalf("nil, but line %d %q holds %q", i+1, l, bare)
				}
			}
			return
		}
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

// nameRepo has lib.py, long, defining compute_total (with a credential in its
// body) among many other functions, and a change to main.py that starts
// calling it.
func nameRepo(t *testing.T) *gitctx.Change {
	t.Helper()
	var lib strings.Builder
	lib.WriteString("import os\nimport sys\n\n")
	for i := range 60 {
		fmt.Fprintf(&lib, "def filler_%02d():\n    return %d\n\n", i, i)
	}
	lib.WriteString("def compute_total(x):\n    \"\"\"Doubles x.\"\"\"\n    key = \"" + fakeGitHub + "\"\n    return x * 2\n\n")
	for i := 60; i < 120; i++ {
		fmt.Fprintf(&lib, "def filler_%02d():\n    return %d\n\n", i, i)
	}
	r := newRepo(t, "names")
	r.WriteAll(map[string]string{"lib.py": lib.String(), "main.py": "from lib import filler_00\n\nprint(filler_00())\n"})
	r.Commit("base")
	r.Write("main.py", "from lib import filler_00, compute_total\n\nprint(filler_00(), compute_total(1))\n")
	r.Commit("call compute_total")
	return r.change("HEAD~1..HEAD")
}

// TestNameExcerpt checks that a neighbour chosen for a name it defines,
// too long to show whole, shows its head and that definition, through the
// gate, rather than its head and tail.
func TestNameExcerpt(t *testing.T) {
	ch := nameRepo(t)
	c := counter(t)
	opts := options(c, JSON, 0)
	opts.Truncation.MaxFileBytes = 1000
	p := buildPacked(t, ch, opts)
	if p.rep["lib.py"] != RepTruncated {
		t.Fatalf("lib.py is %q, want %s; neighbours %+v", p.rep["lib.py"], RepTruncated, p.rec.Neighbours)
	}
	got := strings.Join(p.content["lib.py"], "\n")
	for _, want := range []string{"import os\nimport sys", "def compute_total(x):\n    \"\"\"Doubles x.\"\"\"\n    key = \"[REDACTED:github-pat#1]\"\n    return x * 2\n..."} {
		if !strings.Contains(got, want) {
			t.Errorf("lib.py shows\n%s\nwant it to hold\n%s", got, want)
		}
	}
	if strings.Contains(got, "filler_119") || strings.Contains(got, "filler_40") {
		t.Errorf("lib.py shows its tail or lines far from compute_total:\n%s", got)
	}
	mdOpts := options(c, Markdown, 0)
	mdOpts.Truncation.MaxFileBytes = 1000
	md := build(t, ch, mdOpts)
	if !strings.Contains(md.Text, "### lib.py (truncated: its head and the code about the names it shares with the change; neighbour)") {
		t.Errorf("the markdown pack does not say how lib.py is cut:\n%s", md.Text)
	}
}
