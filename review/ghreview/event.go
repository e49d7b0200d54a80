package ghreview

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ErrNoPullRequest means an event payload names no pull request: a push,
// an issue comment on an issue, or a workflow_run whose pull request is
// from a fork (GitHub leaves its pull_requests list empty then).
var ErrNoPullRequest = errors.New("the event names no pull request")

// PRFromEvent reads a GitHub Actions event payload (the file named by
// GITHUB_EVENT_PATH) and returns the number of its pull request: from
// pull_request and pull_request_target events, from an issue_comment on a
// pull request, and from a workflow_run started by one (its first pull
// request).
func PRFromEvent(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("read github event: %w", err)
	}
	var ev struct {
		PullRequest *struct {
			Number int `json:"number"`
		} `json:"pull_request"`
		Issue *struct {
			Number      int             `json:"number"`
			PullRequest json.RawMessage `json:"pull_request"`
		} `json:"issue"`
		WorkflowRun *struct {
			PullRequests []struct {
				Number int `json:"number"`
			} `json:"pull_requests"`
		} `json:"workflow_run"`
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return 0, fmt.Errorf("read github event %s: %w", path, err)
	}
	n := 0
	switch {
	case ev.PullRequest != nil:
		n = ev.PullRequest.Number
	case ev.Issue != nil && len(ev.Issue.PullRequest) > 0 && string(ev.Issue.PullRequest) != "null":
		n = ev.Issue.Number
	case ev.WorkflowRun != nil && len(ev.WorkflowRun.PullRequests) > 0:
		n = ev.WorkflowRun.PullRequests[0].Number
	}
	if n <= 0 {
		return 0, fmt.Errorf("github event %s: %w", path, ErrNoPullRequest)
	}
	return n, nil
}

// SplitRepository splits "owner/name", as in GITHUB_REPOSITORY.
func SplitRepository(s string) (owner, name string, err error) {
	owner, name, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok || !repoName.MatchString(owner) || !repoName.MatchString(name) {
		return "", "", fmt.Errorf("github repository %q: want OWNER/NAME", s)
	}
	return owner, name, nil
}
