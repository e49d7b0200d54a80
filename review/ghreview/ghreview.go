// Package ghreview posts a review on a GitHub pull request, as the
// [review.Poster] of `--post github`.
//
// The review is one sticky issue comment, found again by [review.Marker]
// (the oldest comment whose body starts with it and whose author could be
// gitctx: see trusted) and edited in place on later runs, so a pull
// request carries a single gitctx comment however often it is reviewed. With inline findings, the
// pull request's files are fetched first and every finding is checked
// against their patches, as GitHub checks a review comment's anchor: the
// findings on lines of the diff go into one pull request review (event
// COMMENT), the others are listed in the sticky comment. A review GitHub
// refuses anyway (422) does not lose them: they are added to the comment.
//
// A write refused on a fork's pull request, whose token is read-only, is
// reported as an error wrapping [review.ErrReadOnly], which the caller
// turns into a notice; any other refusal names the permission the
// workflow lacks. Rate-limited calls are retried a bounded number of
// times, honouring Retry-After. Errors never contain the token.
//
// The client is go-github v60 with its BaseURL set to Config.APIURL, the
// API root as in GITHUB_API_URL (no /api/v3 is appended).
package ghreview

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/gitctx/gitctx/review"
)

// Kind is the delivery's name in the record.
const Kind = "github"

// DefaultAPIURL is the API root of github.com.
const DefaultAPIURL = "https://api.github.com/"

// Config says where to post and with what credentials.
type Config struct {
	Token  string // GITHUB_TOKEN; empty: reads only, as on a public repository
	APIURL string // the API root (GITHUB_API_URL); default DefaultAPIURL
	Owner  string
	Repo   string
	PR     int
	// HTTPClient sends the requests; nil: one whose attempts time out
	// when no answer starts within 30 seconds. Its Timeout, if set, also
	// bounds the waits of a rate-limited call.
	HTTPClient *http.Client
	UserAgent  string // "gitctx/<version>"; default "gitctx"
	// ArtifactHint says where the review is kept when it cannot be posted
	// (an artifact's name or a path), for the fork notice.
	ArtifactHint string
	// Sleep waits between attempts of a rate-limited call; nil: a timer
	// that ctx cancels.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Poster posts to one pull request. It remembers the sticky comment it
// found or created, so it is meant for one run, not for concurrent use.
type Poster struct {
	gh    *github.Client
	owner string
	repo  string
	pr    int
	token string
	hint  string

	looked     bool  // the comments were listed
	stickyID   int64 // 0: none yet
	stickyBody string
}

var _ review.Poster = (*Poster)(nil)

// repoName is what GitHub accepts as an owner or repository name.
var repoName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// New checks cfg and returns a Poster for its pull request.
func New(cfg Config) (*Poster, error) {
	if !repoName.MatchString(cfg.Owner) || !repoName.MatchString(cfg.Repo) {
		return nil, fmt.Errorf("github repository %q/%q: want OWNER/NAME", cfg.Owner, cfg.Repo)
	}
	if cfg.PR <= 0 {
		return nil, fmt.Errorf("github pull request number %d: want a positive number", cfg.PR)
	}
	api := cfg.APIURL
	if api == "" {
		api = DefaultAPIURL
	}
	base, err := url.Parse(api)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("github API URL %q: want an http(s) URL such as %s", api, DefaultAPIURL)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	hc := &http.Client{Transport: defaultTransport()}
	if cfg.HTTPClient != nil {
		copied := *cfg.HTTPClient
		hc = &copied
	}
	sleep := cfg.Sleep
	if sleep == nil {
		sleep = sleepContext
	}
	hc.Transport = &retryTransport{base: hc.Transport, sleep: sleep}
	gh := github.NewClient(hc)
	if cfg.Token != "" {
		gh = gh.WithAuthToken(cfg.Token)
	}
	gh.BaseURL = base
	gh.UserAgent = cfg.UserAgent
	if gh.UserAgent == "" {
		gh.UserAgent = "gitctx"
	}
	return &Poster{gh: gh, owner: cfg.Owner, repo: cfg.Repo, pr: cfg.PR, token: cfg.Token, hint: cfg.ArtifactHint}, nil
}

// Kind returns "github".
func (p *Poster) Kind() string { return Kind }

// Previous returns the body of the sticky comment an earlier run left on
// the pull request, following the list's pagination to its end.
func (p *Poster) Previous(ctx context.Context) (string, bool, error) {
	if err := p.lookup(ctx); err != nil {
		return "", false, err
	}
	return p.stickyBody, p.stickyID != 0, nil
}

// lookup lists the pull request's comments once and keeps the oldest that
// starts with the marker.
func (p *Poster) lookup(ctx context.Context) error {
	if p.looked {
		return nil
	}
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		page, resp, err := p.gh.Issues.ListComments(ctx, p.owner, p.repo, p.pr, opts)
		if err != nil {
			return p.apiError("GET "+p.path("issues/%d/comments", p.pr), resp, err)
		}
		for _, c := range page {
			if isSticky(c.GetBody()) && trusted(c.GetUser(), c.GetAuthorAssociation()) && (p.stickyID == 0 || c.GetID() < p.stickyID) {
				p.stickyID, p.stickyBody = c.GetID(), c.GetBody()
			}
		}
		if resp.NextPage <= opts.Page || resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	p.looked = true
	return nil
}

// trusted reports whether a comment's author could be the token gitctx
// posts with: an app or the Actions bot (GITHUB_TOKEN), or a person with
// write access to the repository (a personal token). The token's own login
// cannot be asked for (GET /user refuses an Actions token), and a marker in
// a comment by anyone else must not decide anything: a pull request's
// author could otherwise write the sticky comment, with the hash of the
// pack gitctx would send, and the review would be skipped as unchanged.
// (Such a comment is left alone; gitctx posts its own.)
func trusted(u *github.User, association string) bool {
	switch {
	case u.GetType() == "Bot":
		return true
	case association == "OWNER", association == "MEMBER", association == "COLLABORATOR":
		return true
	}
	return false
}

func isSticky(body string) bool {
	return strings.HasPrefix(strings.TrimLeft(body, " \t\r\n\ufeff"), review.Marker)
}

// Post publishes c as the sticky comment and, when inline is set, the
// findings on lines of the diff as one review; the others are listed in
// the comment. When inline is not set the findings are left out: the
// answer already holds them. The comment is written before the review, so
// a failing review still leaves the comment, whose URL is returned with
// the error. Delivery.Inline counts the findings that are inline on the
// pull request after the call, those an earlier run posted included.
func (p *Poster) Post(ctx context.Context, c review.Comment, findings []review.Finding, inline bool) (review.Delivery, error) {
	d := review.Delivery{Kind: Kind}
	if err := p.lookup(ctx); err != nil {
		return d, err
	}
	var anchored []review.Finding
	if inline && len(findings) > 0 {
		ix, err := p.diffIndex(ctx)
		if err != nil {
			return d, err
		}
		var outside []review.Finding
		anchored, outside = ix.place(findings)
		c.Outside = append(c.Outside[:len(c.Outside):len(c.Outside)], outside...)
	}
	url, err := p.upsert(ctx, c)
	if err != nil {
		var ro *readOnlyError
		if errors.As(err, &ro) {
			d.Notice = ro.notice
		}
		return d, err
	}
	d.URL = url
	if len(anchored) == 0 {
		return d, nil
	}
	n, err := p.postReview(ctx, anchored, url)
	if err == nil {
		d.Inline = n
		return d, nil
	}
	// The review was refused: list its findings in the comment instead.
	c.Refused = append(c.Refused[:len(c.Refused):len(c.Refused)], anchored...)
	url, uerr := p.upsert(ctx, c)
	if uerr != nil {
		return d, errors.Join(err, uerr)
	}
	d.URL = url
	if statusOf(err) == http.StatusUnprocessableEntity {
		d.Notice = "GitHub refused the inline comments (422); the findings are listed in the comment"
		return d, nil
	}
	return d, err
}

// upsert edits the sticky comment, or creates it when there is none (or
// it was deleted since it was listed), and returns its html_url.
func (p *Poster) upsert(ctx context.Context, c review.Comment) (string, error) {
	body := c.Render(review.MaxCommentChars)
	if p.stickyID != 0 {
		endpoint := "PATCH " + p.path("issues/comments/%d", p.stickyID)
		ic, resp, err := p.gh.Issues.EditComment(ctx, p.owner, p.repo, p.stickyID, &github.IssueComment{Body: &body})
		switch {
		case err == nil:
			p.stickyBody = body
			return commentURL(ic), nil
		case statusOf(err) != http.StatusNotFound:
			return "", p.writeError(ctx, endpoint, resp, err)
		}
		p.stickyID, p.stickyBody = 0, ""
	}
	ic, resp, err := p.gh.Issues.CreateComment(ctx, p.owner, p.repo, p.pr, &github.IssueComment{Body: &body})
	if err != nil {
		return "", p.writeError(ctx, "POST "+p.path("issues/%d/comments", p.pr), resp, err)
	}
	p.stickyID, p.stickyBody = ic.GetID(), body
	return commentURL(ic), nil
}

func commentURL(ic *github.IssueComment) string {
	if u := ic.GetHTMLURL(); u != "" {
		return u
	}
	return ic.GetURL()
}

// path is an endpoint of the repository, for error messages.
func (p *Poster) path(format string, args ...any) string {
	return fmt.Sprintf("/repos/%s/%s/", p.owner, p.repo) + fmt.Sprintf(format, args...)
}
