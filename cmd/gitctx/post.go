package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/review"
	"github.com/gitctx/gitctx/review/ghreview"
)

// newPoster is where --post sends the review, and a few words naming it.
// With --post auto, a pull request (--pr, or the event of a GitHub
// Actions run) means a comment on it, anything else stdout.
func newPoster(_ context.Context, a *app, o *reviewOptions) (review.Poster, string, error) {
	switch o.post {
	case "none":
		return nil, firstNonEmpty(o.unposted, "nowhere (--post none)"), nil
	case "stdout":
		return review.StdoutPoster{W: a.stdout}, "stdout", nil
	case "file":
		return review.FilePoster{Path: o.postFile}, o.postFile, nil
	case "auto":
		if o.pr == 0 && prFromEvent(a) == 0 {
			return review.StdoutPoster{W: a.stdout}, "stdout", nil
		}
	}
	p, target, err := githubPoster(a, o)
	if err != nil {
		return nil, "", err
	}
	return p, target, nil
}

func githubPoster(a *app, o *reviewOptions) (*ghreview.Poster, string, error) {
	repo := a.getenv("GITHUB_REPOSITORY")
	if repo == "" {
		return nil, "", errors.New("posting on GitHub needs GITHUB_REPOSITORY=owner/name")
	}
	owner, name, err := ghreview.SplitRepository(repo)
	if err != nil {
		return nil, "", fmt.Errorf("GITHUB_REPOSITORY: %w", err)
	}
	pr := o.pr
	if pr == 0 {
		pr = prFromEvent(a)
	}
	if pr == 0 {
		return nil, "", errors.New("posting on GitHub needs the pull request: pass --pr N (or run on a pull_request event)")
	}
	token := firstNonEmpty(a.getenv("GITHUB_TOKEN"), a.getenv("GH_TOKEN"))
	if token == "" {
		return nil, "", errors.New("posting on GitHub needs a token: set GITHUB_TOKEN, or GH_TOKEN (the gh CLI's; in a workflow: env: GITHUB_TOKEN: ${{ github.token }})")
	}
	v, _ := buildVersion()
	p, err := ghreview.New(ghreview.Config{
		Token: token, APIURL: a.getenv("GITHUB_API_URL"), Owner: owner, Repo: name, PR: pr,
		UserAgent: "gitctx/" + v, ArtifactHint: o.out,
	})
	if err != nil {
		return nil, "", err
	}
	return p, fmt.Sprintf("%s#%d", repo, pr), nil
}

// prFromEvent is the pull request of the GitHub event this run serves,
// or 0.
func prFromEvent(a *app) int {
	path := a.getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return 0
	}
	n, err := ghreview.PRFromEvent(path)
	if err != nil {
		return 0
	}
	return n
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		// a key or token saved with its line's end (a secret pasted with
		// a newline) is the key: the newline is no part of a header
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}
