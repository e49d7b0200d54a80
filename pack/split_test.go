package pack

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A split pack puts every shown file whole in exactly one part, and every
// part within the budget.
func TestSplit(t *testing.T) {
	c := counter(t)
	ch := sizedRepo(t, 7, 12)
	for _, f := range formats {
		for _, limit := range []int{3000, 9000, 30000} {
			opts := options(c, f, limit)
			opts.Split = true
			res, err := Build(t.Context(), ch, opts)
			if errors.Is(err, ErrBudget) {
				continue
			}
			if err != nil {
				t.Fatalf("%s %d: %v", f, limit, err)
			}
			parts := res.Parts
			if parts == nil {
				parts = []string{res.Text}
			}
			if res.Record.Pack.Parts != len(parts) || (len(parts) > 1 && len(res.Record.Pack.PartFiles) != len(parts)) {
				t.Errorf("%s %d: %d parts, record says %d (%d part files)", f, limit, len(parts), res.Record.Pack.Parts, len(res.Record.Pack.PartFiles))
			}
			for i, p := range parts {
				if n := c.Count(p); n > limit {
					t.Errorf("%s %d: part %d has %d tokens", f, limit, i+1, n)
				}
			}
			if f != Markdown {
				continue
			}
			for _, rec := range res.Record.Files {
				if !rec.Included || rec.Representation == RepNameOnly || rec.Status == "deleted" {
					continue
				}
				heading := "### " + rec.Path
				in := 0
				for _, p := range parts {
					if strings.Contains(p, heading+"\n") || strings.Contains(p, heading+" (") {
						in++
					}
				}
				if in != 1 {
					t.Errorf("markdown %d: %s is in %d parts, want 1", limit, rec.Path, in)
				}
			}
		}
	}
}

// TestSplitLaterPartsUseTheirRoom: the first part carries every commit
// message; the later parts, which carry none, are filled to their own
// room rather than to what the first part leaves, and still say how many
// commits the range holds. Commit messages too long for any part are
// shortened as a Summary shortens them, rather than failing the split.
func TestSplitLaterPartsUseTheirRoom(t *testing.T) {
	c := counter(t)
	r := newRepo(t, "splitmsgs")
	r.Write("README.md", "# demo\n")
	r.Commit("base")
	for i := range 30 {
		r.Write(fmt.Sprintf("src/f%02d.go", i), fmt.Sprintf("package src\n\n%s", strings.Repeat(fmt.Sprintf("// line of file %d, which says something\n", i), 60)))
		r.Commit(fmt.Sprintf("add f%02d\n\n%s", i, strings.Repeat(fmt.Sprintf("Why f%02d is here, at length. ", i), 30)))
	}
	ch := r.change("HEAD~30..HEAD")
	for _, limit := range []int{9000, 4000} {
		opts := options(c, Markdown, limit)
		opts.Split = true
		opts.NoNeighbours = true
		res, err := Build(t.Context(), ch, opts)
		if err != nil {
			t.Fatalf("%d: %v", limit, err)
		}
		total := 0
		for i, p := range res.Parts {
			n := c.Count(p)
			total += n
			if n > limit {
				t.Errorf("%d: part %d has %d tokens", limit, i+1, n)
			}
			if b := res.Record.Pack.PartFiles[i].Boundary; b == "" || !strings.Contains(p, b+" begin") || (i > 0 && b == res.Record.Pack.Boundary) {
				t.Errorf("%d: part %d's boundary %q is not its own", limit, i+1, b)
			}
			if i > 0 && !strings.Contains(p, ", 30 commits") {
				t.Errorf("%d: part %d does not say the range holds 30 commits:\n%.600s", limit, i+1, p)
			}
		}
		// every part but the first and the last at least half full
		for i := 1; i < len(res.Parts)-1; i++ {
			if n := c.Count(res.Parts[i]); n < limit/2 {
				t.Errorf("%d: part %d of %d holds %d tokens, under half the budget", limit, i+1, len(res.Parts), n)
			}
		}
		if limit == 4000 && !slices.Contains(res.Record.Pack.Steps, "commit messages shortened to their subjects") {
			t.Errorf("%d: steps %q, want the commit messages shortened", limit, res.Record.Pack.Steps)
		}
	}
}

// TestNamesOverBudgetAdvice: when even the list of names is over the
// budget, the advice names markdown's shorter list for the other formats.
func TestNamesOverBudgetAdvice(t *testing.T) {
	c := counter(t)
	ch := sizedRepo(t, 7, 12)
	for _, f := range formats {
		_, err := Build(t.Context(), ch, options(c, f, 300))
		if !errors.Is(err, ErrBudget) {
			t.Fatalf("%s at 300 tokens: %v, want ErrBudget", f, err)
		}
		if got := strings.Contains(err.Error(), "--format markdown"); got != (f != Markdown) {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestSelectionReasonNamesEveryLimit: a change over both the budget and
// max_files names both, the budget first.
func TestSelectionReasonNamesEveryLimit(t *testing.T) {
	c := counter(t)
	ch := sizedRepo(t, 7, 12)
	opts := options(c, Markdown, 3000)
	opts.MaxFiles = 3
	res, err := Build(t.Context(), ch, opts)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Record.Pack.SelectionReason
	if !strings.HasPrefix(got, "a full pack needs about ") || !strings.Contains(got, "; the change shows ") || !strings.Contains(got, "over max_files (3)") {
		t.Errorf("selection reason %q, want the budget, then max_files", got)
	}
}
