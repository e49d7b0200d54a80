package review

import (
	"context"
	"errors"
	"fmt"
)

// Request is one call to a model: a system instruction, the user prompt
// (the review request and the pack) and a cap on the answer's length.
// The model is given no tools.
type Request struct {
	Model           string
	System          string
	Prompt          string
	MaxOutputTokens int
}

// Usage is what a provider reports it counted.
type Usage struct {
	InputTokens  int
	OutputTokens int
}

// Answer is a model's reply.
type Answer struct {
	Text  string
	Model string // as the provider reports it, or the requested one
	Usage Usage
	// Truncated is set when the answer stopped at the output limit.
	Truncated bool
}

// Provider sends a request to a model and returns its answer. Adapters
// live in subpackages (review/openai, review/anthropic, review/command).
type Provider interface {
	// Name is the provider's kind: openai, anthropic, compatible, command.
	Name() string
	// Endpoint is the host (or command name) the prompt goes to, for the
	// record; never a credential.
	Endpoint() string
	Complete(ctx context.Context, req Request) (Answer, error)
}

// StatusError is a provider's refusal that retries did not cure.
type StatusError struct {
	Provider string
	Status   int    // the HTTP status of the last attempt
	Message  string // the provider's error message, credentials removed
	Attempts int
}

func (e *StatusError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = "no message"
	}
	status := fmt.Sprint(e.Status)
	if t := statusText(e.Status); t != "" {
		status += " " + t
	}
	return fmt.Sprintf("%s answered %s after %d attempt%s: %s", e.Provider, status, e.Attempts, plural(e.Attempts), msg)
}

func statusText(code int) string {
	switch {
	case code == 401 || code == 403:
		return "(check the API key)"
	case code == 429:
		return "(rate limited)"
	case code >= 500:
		return "(server error)"
	}
	return ""
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ErrNoAnswer means the provider answered but said nothing usable.
var ErrNoAnswer = errors.New("the model returned no text")
