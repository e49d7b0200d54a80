package pack

import (
	"regexp"
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
	return []string{cleanText(decodeLine(pr.Title)), cleanText(decodeLine(shownBody(pr.Body)))}, []string{"pr_title", "pr_body"}
}

// htmlComment is an HTML comment of a description, and blankRun the blank
// lines one leaves behind.
var (
	htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	blankRun    = regexp.MustCompile(`\n[ \t]*\n(?:[ \t]*\n)+`)
)

// shownBody is a description as GitHub shows it: without its HTML
// comments, which hold a template's instructions to the author (noise to
// a reviewer) or text its author hid from the people who read the pull
// request, and without the blank lines they leave.
func shownBody(body string) string {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	if strings.Contains(body, "<!--") {
		body = blankRun.ReplaceAllString(htmlComment.ReplaceAllString(body, ""), "\n\n")
	}
	return strings.TrimSpace(body)
}

// prHeading is the line a markdown pack gives the pull request.
func prHeading(pr *prView) string {
	return "- Pull request: #" + strconv.Itoa(pr.Number) + " " + inlineCode(pr.Title) + "\n"
}
