package ghreview

import "context"

// Heads returns the commits the pull request compares: its base and
// head, for a review given --pr alone.
func (p *Poster) Heads(ctx context.Context) (base, head string, err error) {
	pr, resp, err := p.gh.PullRequests.Get(ctx, p.owner, p.repo, p.pr)
	if err != nil {
		return "", "", p.scrub(p.apiError("GET "+p.path("pulls/%d", p.pr), resp, err))
	}
	return pr.GetBase().GetSHA(), pr.GetHead().GetSHA(), nil
}
