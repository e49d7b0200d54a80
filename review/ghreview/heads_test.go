package ghreview

import "testing"

func TestHeads(t *testing.T) {
	f := newFake(t, testFiles...)
	p, _ := newPoster(t, f)
	base, head, err := p.Heads(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if base == "" || head == "" || base == head {
		t.Errorf("Heads = %q, %q; want the pull request's two commits", base, head)
	}
}
