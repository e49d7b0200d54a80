package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gitctx/gitctx/review"
	"github.com/gitctx/gitctx/review/ghreview"
)

// newPoster is where --post sends the review, and a few words naming it.
// With --post auto, a pull request (--pr, or the event of a GitHub
// Actions run) means a comment on it, anything else a file (design §8):
// the answer saved as review.md in outDir, unless --post-file names
// another file for the rendered review.
func newPoster(_ context.Context, a *app, o *reviewOptions, outDir string) (review.Poster, string, error) {
	saved := savedAnswer{filepath.Join(outDir, reviewFile)}
	switch o.post {
	case "none":
		return nil, firstNonEmpty(o.unposted, "nowhere (--post none)"), nil
	case "stdout":
		return review.StdoutPoster{W: a.stdout}, "stdout", nil
	case "file":
		if o.postFile == "" {
			return saved, saved.path, nil
		}
		return review.FilePoster{Path: o.postFile}, o.postFile, nil
	case "auto":
		if o.pr == 0 && prFromEvent(a) == 0 {
			return saved, saved.path, nil
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

// savedAnswer is --post file without --post-file: the review is the
// answer gitctx saves as review.md in the output directory before it
// posts anything, so there is nothing more to write.
type savedAnswer struct{ path string }

func (savedAnswer) Kind() string { return "file" }

func (savedAnswer) Previous(context.Context) (string, bool, error) { return "", false, nil }

func (s savedAnswer) Post(context.Context, review.Comment, []review.Finding, bool) (review.Delivery, error) {
	return review.Delivery{Kind: "file", URL: s.path}, nil
}
