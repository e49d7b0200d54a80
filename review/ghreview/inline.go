package ghreview

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/go-github/v60/github"

	"github.com/gitctx/gitctx/review"
)

// diffIndex lists the pull request's files and indexes their patches.
// A file without a patch (binary, or too large for GitHub to show) has no
// line a comment can point at.
func (p *Poster) diffIndex(ctx context.Context) (anchors, error) {
	a := anchors{}
	opts := &github.ListOptions{PerPage: 100}
	for {
		files, resp, err := p.gh.PullRequests.ListFiles(ctx, p.owner, p.repo, p.pr, opts)
		if err != nil {
			return nil, p.apiError("GET "+p.path("pulls/%d/files", p.pr), resp, err)
		}
		for _, f := range files {
			a.add(f.GetFilename(), f.GetPreviousFilename(), f.GetPatch())
		}
		if resp.NextPage <= opts.Page || resp.NextPage == 0 {
			return a, nil
		}
		opts.Page = resp.NextPage
	}
}

// postReview posts the findings as one review (event COMMENT), leaving
// out those an earlier run already posted (each inline comment carries a
// fingerprint), and returns how many are inline on the pull request.
func (p *Poster) postReview(ctx context.Context, findings []review.Finding, commentURL string) (int, error) {
	posted, err := p.postedFingerprints(ctx)
	if err != nil {
		return 0, err
	}
	var comments []*github.DraftReviewComment
	for _, f := range findings {
		if posted[fingerprint(f)] {
			continue
		}
		comments = append(comments, draft(f))
	}
	if len(comments) == 0 {
		return len(findings), nil
	}
	body := fmt.Sprintf("gitctx review: %d finding%s on the changed lines. The summary is in the conversation: %s",
		len(comments), plural(len(comments)), commentURL)
	_, resp, err := p.gh.PullRequests.CreateReview(ctx, p.owner, p.repo, p.pr, &github.PullRequestReviewRequest{
		Body:     &body,
		Event:    github.String("COMMENT"),
		Comments: comments,
	})
	if err != nil {
		return 0, p.writeError(ctx, "POST "+p.path("pulls/%d/reviews", p.pr), resp, err)
	}
	return len(findings), nil
}

// postedFingerprints lists the pull request's review comments and
// returns the fingerprints of gitctx's (those of trusted authors).
func (p *Poster) postedFingerprints(ctx context.Context) (map[string]bool, error) {
	seen := map[string]bool{}
	opts := &github.PullRequestListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		list, resp, err := p.gh.PullRequests.ListComments(ctx, p.owner, p.repo, p.pr, opts)
		if err != nil {
			return nil, p.apiError("GET "+p.path("pulls/%d/comments", p.pr), resp, err)
		}
		for _, c := range list {
			if fp, ok := fingerprintIn(c.GetBody()); ok && trusted(c.GetUser(), c.GetAuthorAssociation()) {
				seen[fp] = true
			}
		}
		if resp.NextPage <= opts.Page || resp.NextPage == 0 {
			return seen, nil
		}
		opts.Page = resp.NextPage
	}
}

func draft(f review.Finding) *github.DraftReviewComment {
	d := &github.DraftReviewComment{
		Path: github.String(f.Path),
		Line: github.Int(f.Line),
		Side: github.String(f.Side),
		Body: github.String(inlineBody(f)),
	}
	if f.StartLine != 0 {
		d.StartLine, d.StartSide = github.Int(f.StartLine), github.String(f.Side)
	}
	return d
}

const fingerprintPrefix = review.Marker + ":finding "

// inlineBody is a finding as an inline comment: severity, title and
// body, and a hidden fingerprint, within GitHub's size limit.
func inlineBody(f review.Finding) string {
	sev := f.Severity
	if sev == "" {
		sev = "info"
	}
	head := "**" + sev + "**"
	if t := strings.TrimSpace(f.Title); t != "" {
		head += " " + strings.ReplaceAll(t, "\n", " ")
	}
	tail := "\n\n" + fingerprintPrefix + fingerprint(f) + " -->"
	text := strings.TrimSpace(f.Body)
	if room := review.MaxCommentChars - utf8.RuneCountInString(head+"\n\n"+tail); utf8.RuneCountInString(text) > room {
		text = string([]rune(text)[:max(room-1, 0)]) + "…"
	}
	if text == "" {
		return head + tail
	}
	return head + "\n\n" + text + tail
}

// fingerprint identifies a finding at its place, so that a run does not
// post again what an earlier one did.
func fingerprint(f review.Finding) string {
	h := sha256.New()
	for _, s := range []string{f.Path, f.Side, strconv.Itoa(f.StartLine), strconv.Itoa(f.Line), f.Severity, f.Title, f.Body} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func fingerprintIn(body string) (string, bool) {
	_, rest, ok := strings.Cut(body, fingerprintPrefix)
	if !ok {
		return "", false
	}
	fp, _, ok := strings.Cut(rest, " -->")
	return fp, ok
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
