package gittest

import (
	"fmt"
	"strings"
	"testing"
)

// Shape sizes a synthetic repository (see Synthetic).
type Shape struct {
	Packages int // Go packages, each importing the one before
	Files    int // Go files in each package, each with a test beside every other one
	History  int // commits before the change, each touching a few files
	Change   int // commits of the change (the range HEAD~Change..HEAD)
}

// Synthetic makes a repository shaped like a Go project, for benchmarks:
// a module of Packages packages with Files files each, History commits
// that each change a few files of neighbouring packages (so that history
// says which files change together), and then Change commits that each
// change a file of every other package. The change is HEAD~Change..HEAD;
// its commits are dated a minute apart.
func Synthetic(tb testing.TB, s Shape) *Repo {
	tb.Helper()
	r := New(tb, "synthetic")
	r.Date = MinuteDates
	files := map[string]string{"go.mod": "module example.com/synth\n\ngo 1.22\n", "README.md": "# synth\n\nA synthetic project.\n"}
	for p := range s.Packages {
		for f := range s.Files {
			files[goFile(p, f)] = goSource(p, f, 0)
			if f%2 == 0 {
				files[strings.TrimSuffix(goFile(p, f), ".go")+"_test.go"] = goTest(p, f)
			}
		}
	}
	r.WriteAll(files)
	r.Commit("initial layout")
	for c := range s.History {
		p := c % s.Packages
		r.WriteAll(map[string]string{
			goFile(p, c%s.Files):                      goSource(p, c%s.Files, c+1),
			goFile((p+1)%s.Packages, (c+1)%s.Files):   goSource((p+1)%s.Packages, (c+1)%s.Files, c+1),
			goFile((p+2)%s.Packages, (c*7+3)%s.Files): goSource((p+2)%s.Packages, (c*7+3)%s.Files, c+1),
		})
		r.Commit(fmt.Sprintf("history %d: tune package %d", c, p))
	}
	for c := range s.Change {
		changed := map[string]string{}
		for p := c % 2; p < s.Packages; p += 2 {
			f := (c*5 + p) % s.Files
			changed[goFile(p, f)] = goSource(p, f, s.History+c+1)
		}
		r.WriteAll(changed)
		r.Commit(fmt.Sprintf("change %d: rework half of the packages\n\nA body that says why, at some length, as real commit messages do.", c))
	}
	return r
}

func goFile(p, f int) string { return fmt.Sprintf("pkg%02d/file%02d.go", p, f) }

// goSource is file f of package p at version v: functions and types that
// use the package before it, about 4 KB.
func goSource(p, f, v int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Package pkg%02d is synthetic.\npackage pkg%02d\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n", p, p)
	if p > 0 {
		fmt.Fprintf(&b, "\n\t\"example.com/synth/pkg%02d\"\n", p-1)
	}
	b.WriteString(")\n\n")
	fmt.Fprintf(&b, "// Widget%02d is a thing of file %d.\ntype Widget%02d struct {\n\tName  string\n\tCount int\n}\n\n", f, f, f)
	for fn := range 12 {
		fmt.Fprintf(&b, "// Compute%02d%02d computes, version %d.\nfunc Compute%02d%02d(in []string) string {\n", f, fn, v, f, fn)
		b.WriteString("\tvar out []string\n\tfor i, s := range in {\n\t\tif i%2 == 0 {\n\t\t\tout = append(out, strings.ToUpper(s))\n\t\t}\n\t}\n")
		if p > 0 {
			fmt.Fprintf(&b, "\t_ = pkg%02d.Compute%02d%02d(out)\n", p-1, f, fn)
		}
		fmt.Fprintf(&b, "\treturn fmt.Sprint(len(out), %d)\n}\n\n", v+fn)
	}
	return b.String()
}

func goTest(p, f int) string {
	return fmt.Sprintf("package pkg%02d\n\nimport \"testing\"\n\nfunc TestCompute%02d(t *testing.T) {\n\tif Compute%02d00(nil) == \"\" {\n\t\tt.Fatal(\"empty\")\n\t}\n}\n", p, f, f)
}
