package main

import (
	"fmt"
	"io"
	"strings"
)

// warnIgnored says which of the flags given have no effect with the
// others: a --model without a provider left the budget at 128,000 tokens
// without a word.
func warnIgnored(w io.Writer, o *packOptions, r *reviewOptions) {
	var out []string
	if o.model != "" && (o.provider == "" || o.provider == "none") {
		out = append(out, fmt.Sprintf("--model %s has no effect without --provider (the budget is the default 128,000 tokens)%s",
			o.model, providerHint(o.model)))
	}
	if r != nil {
		if r.command != "" && r.provider != "command" {
			out = append(out, "--command is for --provider command; it is not run")
		}
		if r.inline && r.post != "github" && r.post != "auto" {
			out = append(out, fmt.Sprintf("--inline is for reviews posted on GitHub; --post %s posts no inline comments", r.post))
		}
	}
	for _, msg := range out {
		fmt.Fprintf(w, "gitctx: warning: %s\n", terminalSafe(msg))
	}
}

// providerHint suggests the provider a model's name belongs to.
func providerHint(model string) string {
	m := strings.ToLower(model)
	switch {
	case strings.HasPrefix(m, "gpt-") || strings.HasPrefix(m, "o1") || strings.HasPrefix(m, "o3") || strings.HasPrefix(m, "o4"):
		return ": add --provider openai"
	case strings.HasPrefix(m, "claude"):
		return ": add --provider anthropic"
	case strings.HasPrefix(m, "gemini"):
		return ": add --provider gemini"
	}
	return ""
}
