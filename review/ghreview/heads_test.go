package ghreview

import "testing"

func TestPullRequest(t *testing.T) {
	f := newFake(t, testFiles...)
	p, _ := newPoster(t, f)
	pr, err := p.PullRequest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if pr.Base == "" || pr.Head == "" || pr.Base == pr.Head {
		t.Errorf("PullRequest = %+v; want the pull request's two commits", pr)
	}
	if pr.Title != "Say hello" || pr.Body != "Users asked for it." {
		t.Errorf("PullRequest = %+v; want its title and description", pr)
	}
}
