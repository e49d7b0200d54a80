package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// actionEvent is what gitctx action needs of the event that started the
// workflow: which change to pack and which pull request to post on.
type actionEvent struct {
	name   string // GITHUB_EVENT_NAME
	action string // opened, synchronize, …
	pr     int
	base   string // the pull request's base commit, or the push's before
	head   string
	fork   bool // the pull request comes from another repository
	// title and body are the pull request's, as its author wrote them
	title, body string
	// headOnly is set for a push that created a branch: there is no
	// before, so the head commit alone is packed.
	headOnly bool
}

// eventPayload holds the fields gitctx reads of the webhook payloads.
type eventPayload struct {
	Action      string `json:"action"`
	Number      int    `json:"number"`
	PullRequest *struct {
		Number int    `json:"number"`
		Title  string `json:"title"`
		Body   string `json:"body"`
		Base   struct {
			SHA  string `json:"sha"`
			Repo struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"base"`
		Head struct {
			SHA  string `json:"sha"`
			Repo *struct {
				FullName string `json:"full_name"`
				Fork     bool   `json:"fork"`
			} `json:"repo"`
		} `json:"head"`
	} `json:"pull_request"`
	Before      string `json:"before"`
	After       string `json:"after"`
	WorkflowRun *struct {
		HeadSHA      string `json:"head_sha"`
		PullRequests []struct {
			Number int `json:"number"`
		} `json:"pull_requests"`
	} `json:"workflow_run"`
}

// maxEventBytes bounds the payload read (GitHub's are well below).
const maxEventBytes = 25 << 20

// readEvent reads the payload at path for the event name.
func readEvent(name, path string) (*actionEvent, error) {
	unset := ""
	switch {
	case name == "" && path == "":
		unset = "GITHUB_EVENT_NAME and GITHUB_EVENT_PATH are"
	case name == "":
		unset = "GITHUB_EVENT_NAME is"
	case path == "":
		unset = "GITHUB_EVENT_PATH is"
	}
	if unset != "" {
		return nil, fmt.Errorf("gitctx action runs in a GitHub Actions workflow: %s not set (use gitctx review locally)", unset)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read the event payload: %w", err)
	}
	if info.Size() > maxEventBytes {
		return nil, fmt.Errorf("read the event payload %s: %d bytes, more than a GitHub event holds", path, info.Size())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the event payload: %w", err)
	}
	var p eventPayload
	if err := json.Unmarshal(data, &p); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field == "" {
			return nil, fmt.Errorf("parse the event payload %s: a webhook payload is a JSON object, and this holds a JSON %s", path, typeErr.Value)
		}
		return nil, fmt.Errorf("parse the event payload %s: %w", path, err)
	}
	return p.event(name)
}

func (p *eventPayload) event(name string) (*actionEvent, error) {
	ev := &actionEvent{name: name, action: p.Action}
	switch name {
	case "pull_request", "pull_request_target":
		pr := p.PullRequest
		if pr == nil || pr.Base.SHA == "" || pr.Head.SHA == "" {
			return nil, fmt.Errorf("the %s payload has no pull request with base and head commits", name)
		}
		ev.pr, ev.base, ev.head = firstPositive(pr.Number, p.Number), pr.Base.SHA, pr.Head.SHA
		ev.title, ev.body = pr.Title, pr.Body
		ev.fork = pr.Head.Repo == nil || pr.Head.Repo.Fork || !strings.EqualFold(pr.Head.Repo.FullName, pr.Base.Repo.FullName)
	case "push":
		if p.After == "" || isZeroSHA(p.After) {
			return nil, fmt.Errorf("the push payload has no head commit (a deleted branch has nothing to review)")
		}
		ev.base, ev.head = p.Before, p.After
		ev.headOnly = p.Before == "" || isZeroSHA(p.Before)
	case "workflow_run":
		if p.WorkflowRun == nil || p.WorkflowRun.HeadSHA == "" {
			return nil, fmt.Errorf("the workflow_run payload has no head commit")
		}
		ev.head = p.WorkflowRun.HeadSHA
		if len(p.WorkflowRun.PullRequests) > 0 {
			ev.pr = p.WorkflowRun.PullRequests[0].Number
		}
	default:
		return nil, fmt.Errorf("gitctx action handles pull_request, push and workflow_run events, not %s", name)
	}
	return ev, nil
}

func isZeroSHA(s string) bool { return strings.Trim(s, "0") == "" }

func firstPositive(ns ...int) int {
	for _, n := range ns {
		if n > 0 {
			return n
		}
	}
	return 0
}
