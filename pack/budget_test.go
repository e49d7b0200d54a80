package pack

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// The budget is a hard limit: a pack is either within it, counted exactly,
// or not made at all (ErrBudget).

// sizedRepo builds a repository with files of random sizes and a range of
// more than maxListedCommits commits, so that every degradation step has
// something to do; it returns the range's change.
func sizedRepo(tb testing.TB, seed int64, files int) *gitctx.Change {
	tb.Helper()
	rng := rand.New(rand.NewSource(seed))
	r := newRepo(tb, "sized")
	line := func(i int) string {
		return fmt.Sprintf("%04d %s\n", i, strings.Repeat("lorem ipsum dolor ", rng.Intn(6)))
	}
	body := func(lines int) string {
		var b strings.Builder
		for i := range lines {
			b.WriteString(line(i))
		}
		return b.String()
	}
	size := func() int { return 1 + int(math.Exp(rng.Float64()*math.Log(600))) } // 1..600 lines, most short
	for i := range files {
		r.Write(fmt.Sprintf("src/m%02d/file%02d.go", i%5, i), body(size()))
	}
	r.Commit("base")
	for i := range maxListedCommits + 2 {
		n := rng.Intn(files)
		name := fmt.Sprintf("src/m%02d/file%02d.go", n%5, n)
		switch i % 3 {
		case 0: // a scattered edit of an existing file
			r.Write(name, strings.Replace(body(size()), "0003", "edited", 1))
		case 1:
			r.Write(fmt.Sprintf("added/new%02d.py", i), body(size()))
		default:
			r.Write(fmt.Sprintf("docs/note%02d.md", i), "# note\n\n"+body(1+rng.Intn(20)))
		}
		r.Commit(fmt.Sprintf("commit %d\n\nA body that explains commit %d at some length, %s", i, i, strings.Repeat("and more ", 20)))
	}
	return r.change(fmt.Sprintf("HEAD~%d..HEAD", maxListedCommits+2))
}

// checkBudget builds a pack and checks it against the budget.
func checkBudget(t *testing.T, c Counter, ch *gitctx.Change, f Format, limit int) (typ string) {
	t.Helper()
	res, err := Build(t.Context(), ch, options(c, f, limit))
	if errors.Is(err, ErrBudget) {
		return "error"
	}
	if err != nil {
		t.Fatalf("Build(%s, %d): %v", f, limit, err)
	}
	got := c.Count(res.Text)
	if got > limit {
		t.Errorf("Build(%s, %d): the pack has %d tokens, over the budget", f, limit, got)
	}
	if res.Record.Budget.Used != got || res.Record.Pack.Tokens != got {
		t.Errorf("Build(%s, %d): record says used %d, tokens %d; Count(pack) = %d", f, limit, res.Record.Budget.Used, res.Record.Pack.Tokens, got)
	}
	if res.Record.Budget.Limit != limit {
		t.Errorf("Build(%s, %d): record's limit is %d", f, limit, res.Record.Budget.Limit)
	}
	return res.Record.Pack.Type
}

func TestBudgetNeverExceeded(t *testing.T) {
	c := counter(t)
	ch := sizedRepo(t, 7, 30)
	rng := rand.New(rand.NewSource(42))
	seen := map[string]int{}
	for _, f := range formats {
		budgets := []int{300, 1000, 5000, 200000}
		for range 10 {
			budgets = append(budgets, int(300*math.Exp(rng.Float64()*math.Log(200000.0/300))))
		}
		slices.Sort(budgets)
		fitted := 0 // the smallest budget a pack fitted
		for _, limit := range budgets {
			typ := checkBudget(t, c, ch, f, limit)
			seen[typ]++
			switch {
			case typ != "error" && fitted == 0:
				fitted = limit
			case typ == "error" && fitted > 0:
				t.Errorf("%s: a pack fits %d tokens, but not %d", f, fitted, limit)
			}
		}
	}
	for _, typ := range []string{"full", "summary", "error"} {
		if seen[typ] == 0 {
			t.Errorf("outcomes: %v; want some of each of full, summary and error", seen)
		}
	}
}

func FuzzBudget(f *testing.F) {
	for _, limit := range []int{1, 50, 300, 700, 1000, 1500, 3000, 10000, 128000} {
		f.Add(limit, uint8(0))
		f.Add(limit, uint8(2))
	}
	c := counter(f)
	ch := sizedRepo(f, 3, 8)
	f.Fuzz(func(t *testing.T, limit int, format uint8) {
		if limit <= 0 || limit > 1<<20 {
			t.Skip("a limit <= 0 means the default")
		}
		checkBudget(t, c, ch, formats[int(format)%len(formats)], limit)
	})
}

// smallChange is a change of one short file.
func smallChange(t *testing.T) *gitctx.Change {
	t.Helper()
	r := newRepo(t, "small")
	r.Write("main.go", "package main\n\nfunc main() {}\n")
	r.Commit("base")
	r.Write("main.go", "package main\n\nfunc main() { println(1) }\n")
	r.Commit("print")
	return r.change("HEAD~1..HEAD")
}

func TestPackType(t *testing.T) {
	c := counter(t)
	ch := smallChange(t)
	tests := []struct {
		mode, wantType, wantReason string
	}{
		{"", "full", "the full pack fits"},
		{"auto", "full", "the full pack fits"},
		{"full", "full", "the full pack fits"},
		{"summary", "summary", "a summary pack was asked for (mode summary)"},
	}
	for _, tt := range tests {
		for _, f := range formats {
			opts := options(c, f, 100000)
			opts.Mode = tt.mode
			res := build(t, ch, opts)
			if got := res.Record.Pack.Type; got != tt.wantType {
				t.Errorf("mode %q, %s: type %q, want %q", tt.mode, f, got, tt.wantType)
			}
			if got := res.Record.Pack.SelectionReason; !strings.HasPrefix(got, tt.wantReason) {
				t.Errorf("mode %q, %s: reason %q, want it to start %q", tt.mode, f, got, tt.wantReason)
			}
		}
	}
}

func TestBudgetErrors(t *testing.T) {
	c := counter(t)
	ch := sizedRepo(t, 5, 6)
	tests := []struct {
		name  string
		mode  string
		limit int
		want  []string // in the error's message
	}{
		{"full over budget", "full", 1500, []string{"--mode full", "tokens", "--split packs it whole in parts"}},
		{"tiny", "", 50, []string{"tokens", "50"}},
		{"tiny summary", "summary", 50, []string{"tokens"}},
	}
	for _, tt := range tests {
		for _, f := range formats {
			opts := options(c, f, tt.limit)
			opts.Mode = tt.mode
			res, err := Build(t.Context(), ch, opts)
			if !errors.Is(err, ErrBudget) {
				t.Errorf("%s, %s: err = %v, want ErrBudget", tt.name, f, err)
				continue
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s, %s: error %q does not say %q", tt.name, f, err, w)
				}
			}
			if res == nil || res.Record == nil || res.Text != "" {
				t.Errorf("%s, %s: want a record and no pack, got %+v", tt.name, f, res)
			} else if n := changedFiles(res.Record); n != len(ch.Files) {
				t.Errorf("%s, %s: record lists %d changed files, the change has %d", tt.name, f, n, len(ch.Files))
			}
		}
	}
}

func TestSummaryNamesItsSteps(t *testing.T) {
	c := counter(t)
	ch := sizedRepo(t, 9, 12)
	res := build(t, ch, options(c, Markdown, 4000))
	rec := res.Record
	if rec.Pack.Type != "summary" || len(rec.Pack.Steps) == 0 {
		t.Fatalf("type %q, steps %q; want a summary shaped in steps", rec.Pack.Type, rec.Pack.Steps)
	}
	want := "- Shaped to fit: " + strings.Join(rec.Pack.Steps, "; ") + "\n"
	if !strings.Contains(res.Text, want) {
		t.Errorf("the pack's summary does not name the steps: want line %q", want)
	}
}

func TestEmptyChange(t *testing.T) {
	r := newRepo(t, "empty")
	r.Write("a.txt", "a\n")
	r.Commit("base")
	res, err := Build(t.Context(), r.change("HEAD..HEAD"), options(counter(t), Markdown, 0))
	if !errors.Is(err, ErrEmpty) {
		t.Fatalf("err = %v, want ErrEmpty", err)
	}
	if res == nil || res.Record == nil || len(res.Record.Files) != 0 || res.Text != "" {
		t.Errorf("got %+v, want an empty record and no pack", res)
	}
}

// changedFiles counts the record's files of role changed (the others are
// neighbours and guides).
func changedFiles(r *Record) int {
	n := 0
	for _, f := range r.Files {
		if f.Role == RoleChanged {
			n++
		}
	}
	return n
}

// TestFullLeavesOutNeighboursFirst: a Full pack that fits once its
// lowest-ranked neighbour is left out stays Full, and says so.
func TestFullLeavesOutNeighboursFirst(t *testing.T) {
	r := newRepo(t, "ctx")
	r.Write("price/price.go", "package price\n\n// Net is the price without tax.\nfunc Net(g int) int { return g * 100 / 120 }\n")
	r.Write("price/price_test.go", "package price\n\nimport \"testing\"\n\n"+strings.Repeat("func TestNet(t *testing.T) { if Net(120) != 100 { t.Fatal(\"net\") } }\n", 300))
	r.Commit("base")
	r.Write("price/price.go", "package price\n\n// Net is the price without tax.\nfunc Net(g int) int { return g * 100 / 121 }\n")
	r.Commit("tax")
	ch := r.change("HEAD~1..HEAD")
	c := counter(t)

	with := build(t, ch, options(c, Markdown, 1_000_000)).Record
	opts := options(c, Markdown, 1_000_000)
	opts.NoNeighbours = true
	without := build(t, ch, opts).Record
	if with.Budget.Used <= without.Budget.Used+1000 {
		t.Fatalf("the test of price.go should cost over 1,000 tokens: %d with it, %d without", with.Budget.Used, without.Budget.Used)
	}

	rec := build(t, ch, options(c, Markdown, without.Budget.Used+200)).Record
	if rec.Pack.Type != "full" {
		t.Fatalf("type %q (%s), want full without the neighbour", rec.Pack.Type, rec.Pack.SelectionReason)
	}
	if len(rec.Pack.Steps) != 1 || !strings.Contains(rec.Pack.Steps[0], "neighbours") {
		t.Errorf("steps %q, want the neighbours step alone", rec.Pack.Steps)
	}
	for _, f := range rec.Files {
		if f.Path == "price/price_test.go" && (f.Included || f.ExclusionReason != ReasonBudget) {
			t.Errorf("price_test.go: included %v, exclusion %q; want it left out for the budget", f.Included, f.ExclusionReason)
		}
	}
}
