package pack

import (
	"errors"
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
