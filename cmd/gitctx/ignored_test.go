package main

import (
	"strings"
	"testing"
)

func TestWarnIgnored(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		want  string // "" for no warning
		extra map[string]string
	}{
		{"a model without a provider", []string{"pack", "HEAD~1..HEAD", "--model", "claude-sonnet-4-5"},
			"--model claude-sonnet-4-5 has no effect without --provider (the budget is the default 128,000 tokens): add --provider anthropic", nil},
		{"a model with its provider", []string{"pack", "HEAD~1..HEAD", "--provider", "openai", "--model", "gpt-4.1"}, "", nil},
		{"a model from the environment", []string{"pack", "HEAD~1..HEAD"}, "--model gpt-4.1 has no effect without --provider", map[string]string{"GITCTX_MODEL": "gpt-4.1"}},
		{"a command for another provider", []string{"review", "HEAD~1..HEAD", "--provider", "none", "--command", "llm"}, "--command is for --provider command", nil},
		{"inline comments printed", []string{"review", "HEAD~1..HEAD", "--inline", "--post", "stdout"}, "--inline is for reviews posted on GitHub", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reviewRepo(t)
			res := gitctxRun(tc.extra, append(tc.args, "--out", t.TempDir())...)
			if res.code != 0 {
				t.Fatalf("exit %d: %s", res.code, res.stderr)
			}
			warned := strings.Contains(res.stderr, "warning: --")
			if tc.want == "" && warned || tc.want != "" && !strings.Contains(res.stderr, "gitctx: warning: "+tc.want) {
				t.Errorf("stderr:\n%s\nwant warning %q", res.stderr, tc.want)
			}
		})
	}
}
