package pack

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// extrasRepo has a change with a neighbour (its test), a guide (README.md)
// and three docs to add as context, each over 1,000 tokens.
func extrasRepo(t *testing.T) *gitRepo {
	t.Helper()
	r := newRepo(t, "extras")
	r.Write("README.md", "# extras\n\nA price library.\n")
	r.Write("price/price.go", "package price\n\n// Net is the price without tax.\nfunc Net(g int) int { return g * 100 / 120 }\n")
	r.Write("price/price_test.go", "package price\n\nimport \"testing\"\n\nfunc TestNet(t *testing.T) { if Net(120) != 100 { t.Fatal(\"net\") } }\n")
	for i, name := range []string{"a", "b", "c"} {
		var b strings.Builder
		for n := range 150 {
			fmt.Fprintf(&b, "Doc %s, line %d: prices are computed net of tax, rounded down, %d times.\n", name, n, i*1000+n)
		}
		r.Write("docs/"+name+".md", b.String())
	}
	r.Commit("base")
	r.Write("price/price.go", "package price\n\n// Net is the price without tax.\nfunc Net(g int) int { return g * 100 / 121 }\n")
	r.Commit("tax")
	return r
}

// TestContextOrderAndBudget checks where context files sit (after the
// neighbours, before the guides) and what a tight budget leaves out first:
// the neighbours and guides, then the context from the last chosen, never
// the change itself.
func TestContextOrderAndBudget(t *testing.T) {
	ch := extrasRepo(t).change("HEAD~1..HEAD")
	c := counter(t)
	opts := options(c, Markdown, 1_000_000)
	opts.Context = ContextOptions{Paths: []string{"docs"}}
	all := build(t, ch, opts).Record
	var roles []string
	tokens := map[string]int{}
	for _, f := range all.Files {
		roles = append(roles, f.Path+" "+f.Role)
		tokens[f.Path] = f.Tokens
	}
	want := []string{"price/price.go changed", "price/price_test.go neighbour", "docs/a.md context", "docs/b.md context", "docs/c.md context", "README.md guide"}
	if !reflect.DeepEqual(roles, want) {
		t.Fatalf("files %q, want %q", roles, want)
	}
	if tokens["docs/c.md"] < 1000 {
		t.Fatalf("docs/c.md should cost over 1,000 tokens: %d", tokens["docs/c.md"])
	}

	// Fits once the neighbour, the guide and the last doc are left out.
	opts.Budget.Limit = all.Budget.Used - tokens["price/price_test.go"] - tokens["README.md"] - tokens["docs/c.md"]/2
	rec := build(t, ch, opts).Record
	if rec.Pack.Type != "full" {
		t.Fatalf("type %q (%s), want full", rec.Pack.Type, rec.Pack.SelectionReason)
	}
	wantSteps := []string{"lowest-ranked neighbours and guide files left out (2 files)", "context files left out, the lowest-ranked first (1 file)"}
	if !reflect.DeepEqual(rec.Pack.Steps, wantSteps) {
		t.Errorf("steps %q, want %q", rec.Pack.Steps, wantSteps)
	}
	got := map[string]string{}
	for _, f := range rec.Files {
		got[f.Path] = f.Representation + " " + f.ExclusionReason
	}
	wantFiles := map[string]string{"price/price.go": "full ", "price/price_test.go": "name_only budget", "README.md": "name_only budget",
		"docs/a.md": "full ", "docs/b.md": "full ", "docs/c.md": "name_only budget"}
	if !reflect.DeepEqual(got, wantFiles) {
		t.Errorf("files %v, want %v", got, wantFiles)
	}
}

// TestSummaryStepsOrder checks that a Summary leaves out context files
// right after the neighbours and guides, before anything of the change.
func TestSummaryStepsOrder(t *testing.T) {
	s := &shaper{v: &view{}}
	var names []string
	for _, st := range s.steps()[:4] {
		names = append(names, st.name)
	}
	want := []string{"long diffs of generated files cut to their head and tail", "lowest-ranked neighbours and guide files left out", "context files left out, the lowest-ranked first", "long diffs and files cut to their head and tail"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("first steps %q, want %q", names, want)
	}
}

// TestContextRedacted checks that a credential in a context file is
// redacted, also when the file's content was dropped (no Full pack
// possible) and is read again for the Summary's head and tail.
func TestContextRedacted(t *testing.T) {
	r := extrasRepo(t)
	var b strings.Builder
	for n := range 300 {
		fmt.Fprintf(&b, "line %d\n", n)
	}
	b.WriteString("aws_access_key_id = " + fakeAWS + "\nLAST LINE\n")
	r.Write("notes/deploy.txt", b.String())
	ch := r.change("HEAD~1..HEAD")
	for _, maxContent := range []int64{0, 10} {
		opts := options(counter(t), Markdown, 0)
		opts.MaxContentBytes = maxContent
		opts.Context = ContextOptions{Paths: []string{"notes/deploy.txt"}, ErrorMode: ErrorStrict}
		res := build(t, ch, opts)
		if strings.Contains(res.Text, fakeAWS) || !strings.Contains(res.Text, "LAST LINE") {
			t.Errorf("max content %d (%s): the pack holds the credential, or not the file's tail", maxContent, res.Record.Pack.Type)
		}
		found := false
		for _, it := range res.Record.Redactions.Items {
			found = found || it.Path == "notes/deploy.txt"
		}
		if !found {
			t.Errorf("max content %d: no redaction recorded in notes/deploy.txt: %+v", maxContent, res.Record.Redactions.Items)
		}
	}
}
