package main

import (
	"errors"
	"fmt"

	"github.com/gitctx/gitctx/review"
	"github.com/gitctx/gitctx/review/anthropic"
	"github.com/gitctx/gitctx/review/command"
	"github.com/gitctx/gitctx/review/openai"
)

// Base URLs of the providers that are not configured by their own
// variables.
const (
	ollamaBaseURL = "http://localhost:11434/v1"
	geminiBaseURL = "https://generativelanguage.googleapis.com/v1beta/openai"
)

// newProvider builds the adapter --provider names, with its key and base
// URL from the conventional environment variables (--base-url wins);
// GITCTX_API_KEY (the Action's api-key input) stands in for any key.
func newProvider(a *app, o *reviewOptions) (review.Provider, error) {
	base := o.baseURL
	switch o.provider {
	case "openai":
		key := firstNonEmpty(a.getenv("OPENAI_API_KEY"), a.getenv("GITCTX_API_KEY"))
		if key == "" {
			return nil, errors.New("--provider openai needs OPENAI_API_KEY (or use --provider compatible with --base-url for a server without keys)")
		}
		return openai.New(openai.Config{BaseURL: firstNonEmpty(base, a.getenv("OPENAI_BASE_URL")), APIKey: key, Kind: "openai"})
	case "compatible":
		base = firstNonEmpty(base, a.getenv("OPENAI_BASE_URL"))
		if base == "" {
			return nil, errors.New("--provider compatible needs --base-url URL (or OPENAI_BASE_URL), e.g. http://localhost:8000/v1")
		}
		return openai.New(openai.Config{BaseURL: base, APIKey: firstNonEmpty(a.getenv("OPENAI_API_KEY"), a.getenv("GITCTX_API_KEY")), Kind: o.provider})
	case "ollama":
		// Ollama wants no key, and the OpenAI variables are OpenAI's: the
		// key is not sent to a local server, and the pack does not go to
		// a gateway OPENAI_BASE_URL names when a local model was chosen.
		return openai.New(openai.Config{BaseURL: firstNonEmpty(base, ollamaBaseURL), APIKey: firstNonEmpty(a.getenv("GITCTX_API_KEY")), Kind: o.provider})
	case "gemini":
		key := firstNonEmpty(a.getenv("GEMINI_API_KEY"), a.getenv("GITCTX_API_KEY"))
		if key == "" {
			return nil, errors.New("--provider gemini needs GEMINI_API_KEY")
		}
		return openai.New(openai.Config{BaseURL: firstNonEmpty(base, geminiBaseURL), APIKey: key, Kind: "gemini"})
	case "anthropic":
		key := firstNonEmpty(a.getenv("ANTHROPIC_API_KEY"), a.getenv("GITCTX_API_KEY"))
		if key == "" {
			return nil, errors.New("--provider anthropic needs ANTHROPIC_API_KEY")
		}
		return anthropic.New(anthropic.Config{BaseURL: firstNonEmpty(base, a.getenv("ANTHROPIC_BASE_URL")), APIKey: key})
	case "command":
		return command.New(command.Config{Command: o.command, Timeout: o.timeout})
	}
	return nil, unknownProvider(o.provider)
}

// providerNames are the values of --provider for review.
var providerNames = []string{"openai", "anthropic", "compatible", "ollama", "gemini", "command", "none"}

func unknownProvider(name string) error {
	return fmt.Errorf("unknown --provider %q (use openai, anthropic, compatible, ollama, gemini, command or none)", name)
}
