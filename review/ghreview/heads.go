package ghreview

import "context"

// PullRequest is what a review reads of the pull request it posts to: the
// commits it compares, and its title and description (its author's words,
// untrusted).
type PullRequest struct {
	Base, Head  string
	Title, Body string
}

// PullRequest reads the pull request: its base and head, for a review
// given --pr alone, and its title and description, which join the pack.
func (p *Poster) PullRequest(ctx context.Context) (PullRequest, error) {
	pr, resp, err := p.gh.PullRequests.Get(ctx, p.owner, p.repo, p.pr)
	if err != nil {
		return PullRequest{}, p.scrub(p.apiError("GET "+p.path("pulls/%d", p.pr), resp, err))
	}
	return PullRequest{Base: pr.GetBase().GetSHA(), Head: pr.GetHead().GetSHA(), Title: pr.GetTitle(), Body: pr.GetBody()}, nil
}
