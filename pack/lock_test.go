package pack

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// goSum is a go.sum of n modules, each with its two lines; module 7 has a
// v2 beside it, which is another module.
func goSum(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "example.com/m%d v1.0.0 h1:hash%d=\nexample.com/m%d v1.0.0/go.mod h1:mod%d=\n", i, i, i, i)
	}
	b.WriteString("example.com/m7/v2 v2.0.0 h1:v2hash=\n")
	return b.String()
}

// TestLockNeighbour checks that the lock file of a changed manifest is a
// neighbour that shows only its lines for the modules the change names,
// with a marker for each run of lines left out, in Full and Summary packs
// alike, also when it is over the 50 KB truncation limit (this one is 58 KB).
func TestLockNeighbour(t *testing.T) {
	r := newRepo(t, "lock")
	sum := goSum(40) + "example.com/m12 v1.0.0 h1:" + fakeGitHub + "=\n" + strings.Repeat("example.com/padding v1.0.0 h1:"+strings.Repeat("p", 60)+"=\n", 600)
	r.WriteAll(map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/m7 v1.0.0\n\texample.com/m12 v1.0.0\n)\n",
		"go.sum":  sum,
		"main.go": "package main\n\nfunc main() {}\n",
	})
	r.Commit("base")
	r.Write("go.mod", "module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/m7 v1.1.0\n\texample.com/m12 v1.0.0\n)\n")
	r.Commit("bump m7")
	ch := r.change("HEAD~1..HEAD")
	c := counter(t)
	t.Run("over the read limit: listed by name", func(t *testing.T) {
		opts := options(c, JSON, 0)
		opts.MaxFileBytes = 1024
		p := buildPacked(t, ch, opts)
		if p.rep["go.sum"] != RepNameOnly || len(p.content["go.sum"]) != 0 {
			t.Errorf("go.sum is %q with %d lines shown, want %s", p.rep["go.sum"], len(p.content["go.sum"]), RepNameOnly)
		}
		for _, f := range p.rec.Files {
			if f.Path == "go.sum" && f.ExclusionReason != ReasonSizeLimit {
				t.Errorf("go.sum left out for %q, want %s", f.ExclusionReason, ReasonSizeLimit)
			}
		}
	})
	for _, limit := range []int{0, 3000} {
		t.Run(fmt.Sprint("limit ", limit), func(t *testing.T) {
			p := buildPacked(t, ch, options(c, JSON, limit))
			if p.rep["go.sum"] != RepTruncated {
				t.Fatalf("go.sum is %q, want %s", p.rep["go.sum"], RepTruncated)
			}
			if len(p.rec.Neighbours) == 0 || p.rec.Neighbours[0].Path != "go.sum" ||
				!slices.ContainsFunc(p.rec.Neighbours[0].Reasons, func(s string) bool { return strings.HasPrefix(s, "the lock file of go.mod") }) {
				t.Fatalf("neighbours %+v, want go.sum first, as go.mod's lock file", p.rec.Neighbours)
			}
			want := []string{
				"... [gitctx: 14 lines omitted here: the lock is cut to the changed packages' entries] ...",
				"example.com/m7 v1.0.0 h1:hash7=",
				"example.com/m7 v1.0.0/go.mod h1:mod7=",
				"... [gitctx: 666 lines omitted here: the lock is cut to the changed packages' entries] ...",
			}
			if got := p.content["go.sum"]; !slices.Equal(got, want) {
				t.Errorf("go.sum shows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestLockNeighbourRedacted checks that a lock's kept lines are redacted
// like any other, and that its excerpt never carries a line left out.
func TestLockNeighbourRedacted(t *testing.T) {
	r := newRepo(t, "lockred")
	lock := `{
  "name": "app",
  "lockfileVersion": 3,
  "packages": {
    "node_modules/left-pad": {
      "version": "1.3.0",
      "resolved": "https://registry.example.com/left-pad.tgz?token=` + fakeGitHub + `"
    },
    "node_modules/lodash": {
      "version": "4.17.20",
      "resolved": "https://registry.example.com/lodash.tgz?token=` + fakeGitHub + `"
    },
    "node_modules/lodash.merge": {
      "version": "4.6.2"
    }
  }
}
`
	r.WriteAll(map[string]string{
		"package.json":      "{\n  \"name\": \"app\",\n  \"dependencies\": {\n    \"left-pad\": \"1.3.0\",\n    \"lodash\": \"4.17.20\"\n  }\n}\n",
		"package-lock.json": lock,
	})
	r.Commit("base")
	r.Write("package.json", "{\n  \"name\": \"app\",\n  \"dependencies\": {\n    \"left-pad\": \"1.3.0\",\n    \"lodash\": \"4.17.21\"\n  }\n}\n")
	r.Commit("bump lodash")
	ch := r.change("HEAD~1..HEAD")
	if md := build(t, ch, options(counter(t), Markdown, 0)).Text; !strings.Contains(md, "### package-lock.json (truncated: the entries of the packages the change names only; neighbour)") {
		t.Errorf("the Markdown pack does not say how package-lock.json is cut:\n%s", md)
	}
	p := buildPacked(t, ch, options(counter(t), JSON, 0))
	got := strings.Join(p.content["package-lock.json"], "\n")
	for _, want := range []string{`"node_modules/lodash": {`, `"version": "4.17.20"`, `"resolved": "https://registry.example.com/lodash.tgz?token=[REDACTED:`} {
		if !strings.Contains(got, want) {
			t.Errorf("package-lock.json lacks %q:\n%s", want, got)
		}
	}
	if len(p.redacted["package-lock.json"]) != 1 {
		t.Errorf("placeholders on lines %v of package-lock.json, want one, on lodash's", p.redacted["package-lock.json"])
	}
	for _, not := range []string{"left-pad", "lodash.merge", fakeGitHub} {
		if strings.Contains(got, not) {
			t.Errorf("package-lock.json shows %q, which the change does not name:\n%s", not, got)
		}
	}
}

func TestLockMarker(t *testing.T) {
	e := &entry{lock: true}
	for n, want := range map[int]string{
		1: "... [gitctx: 1 line omitted here: the lock is cut to the changed packages' entries] ...",
		2: "... [gitctx: 2 lines omitted here: the lock is cut to the changed packages' entries] ...",
	} {
		if got := e.omittedMarker(n); got != want {
			t.Errorf("omittedMarker(%d) = %q, want %q", n, got, want)
		}
	}
}
