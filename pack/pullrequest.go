package pack

import (
	"strconv"
	"strings"
)

// PullRequest is the pull request a change belongs to, as its author wrote
// it: what the change is for, in words a reviewer reads first. Its title
// and description are untrusted, like commit messages: they go through the
// gate and sit inside the pack's boundary.
type PullRequest struct {
	Number int
	Title  string
	Body   string
}

// prView is the pull request as the pack shows it, through the gate.
type prView struct {
	Number      int
	Title, Body string
}

// prTexts are the pull request's title and description to put through the
// gate with the commit messages, and the sides their placeholders are
// recorded with.
func prTexts(pr *PullRequest) (texts, sides []string) {
	if pr == nil {
		return nil, nil
	}
	return []string{cleanText(decodeLine(pr.Title)), cleanText(decodeLine(strings.TrimSpace(pr.Body)))}, []string{"pr_title", "pr_body"}
}

// prHeading is the line a markdown pack gives the pull request.
func prHeading(pr *prView) string {
	return "- Pull request: #" + strconv.Itoa(pr.Number) + " " + inlineCode(pr.Title) + "\n"
}
