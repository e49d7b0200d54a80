package ghreview

import (
	"strings"
	"testing"
)

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

// TestNoSuchPullRequest: a 404 for the pull request says what it means.
func TestNoSuchPullRequest(t *testing.T) {
	f := newFake(t, testFiles...)
	p, err := New(Config{Token: testToken, APIURL: f.srv.URL, Owner: "octo", Repo: "demo", PR: 9999, HTTPClient: f.srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.PullRequest(t.Context())
	if err == nil || !strings.Contains(err.Error(), "octo/demo has no pull request 9999, or the token cannot see it") {
		t.Errorf("PullRequest(9999) = %v", err)
	}
}
