package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestErrorMessages: each error a user meets on the main paths names what
// failed, the path or ref involved, and what to do, on one line that
// starts "gitctx: ", with the exit code of --help.
func TestErrorMessages(t *testing.T) {
	r := reviewRepo(t)
	notRepo := t.TempDir()
	notPatch := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notPatch, []byte("just some notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	shallow := filepath.Join(t.TempDir(), "shallow")
	r.Git("clone", "-q", "--depth", "1", "file://"+r.Dir, shallow)
	outFile := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(outFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	gh := map[string]string{"GITHUB_TOKEN": "ghs_testtoken", "GITHUB_REPOSITORY": "octo/demo"}
	without := func(env map[string]string, key string) map[string]string {
		out := map[string]string{}
		for k, v := range env {
			if k != key {
				out[k] = v
			}
		}
		return out
	}
	reviewOut := t.TempDir()
	review := []string{"review", "HEAD~1..HEAD", "--out", reviewOut, "--progress", "never"}
	tests := []struct {
		name string
		dir  string
		env  map[string]string
		args []string
		code int
		want []string // what failed, the path or ref, what to do
	}{
		{"unknown revision", "", nil, []string{"pack", "nosuch..HEAD"}, exitError,
			[]string{"unknown revision", "nosuch", "check the spelling, or fetch"}},
		{"revision like an option", "", nil, []string{"pack", "--", "--output=x"}, exitError,
			[]string{"unknown revision", "--output=x", "cannot start with '-'"}},
		{"paths after --", "", nil, []string{"pack", "HEAD~1..HEAD", "--", "docs/"}, exitUsage,
			[]string{"does not take paths after --", "docs/", "--include 'docs/**'"}},
		{"not a repository", notRepo, nil, []string{"pack", "HEAD"}, exitError,
			[]string{"not a git repository", filepath.Base(notRepo), "run gitctx inside a git work tree, or pass --patch"}},
		{"shallow clone", shallow, nil, []string{"pack", "HEAD~1..HEAD"}, exitError,
			[]string{"shallow clone", "HEAD~1", "fetch-depth: 0"}},
		{"missing patch", "", nil, []string{"pack", "--patch", "nosuch.diff"}, exitError,
			[]string{"no such file", "nosuch.diff", "a file written by git diff"}},
		{"unreadable patch", "", nil, []string{"pack", "--patch", notRepo}, exitError,
			[]string{"is a directory", notRepo, "not a readable patch"}},
		{"not a patch", "", nil, []string{"pack", "--patch", notPatch}, exitError,
			[]string{"no file header", "notes.txt", "give the output of git diff"}},
		{"bad format", "", nil, []string{"pack", "HEAD", "--format", "yaml"}, exitUsage,
			[]string{"unknown format", `"yaml"`, "use markdown, xml or json"}},
		{"not a number", "", nil, []string{"pack", "HEAD", "--max-tokens", "abc"}, exitUsage,
			[]string{`invalid value "abc" for --max-tokens`, "want a whole number"}},
		{"not a number in the environment", "", map[string]string{"GITCTX_MAX_TOKENS": "12k"}, []string{"pack", "HEAD"}, exitUsage,
			[]string{`GITCTX_MAX_TOKENS="12k"`, "--max-tokens", "want a whole number"}},
		{"a number out of range", "", nil, []string{"pack", "HEAD", "--max-tokens", "99999999999999999999"}, exitUsage,
			[]string{`"99999999999999999999" for --max-tokens`, "out of range"}},
		{"not a duration", "", nil, append(review, "--timeout", "5x"), exitUsage,
			[]string{`invalid value "5x" for --timeout`, "want a duration such as 30s"}},
		{"not a price", "", nil, append(review, "--max-cost", "$1"), exitUsage,
			[]string{`invalid value "$1" for --max-cost`, "want a number"}},
		{"not a boolean", "", nil, []string{"pack", "HEAD", "--quiet=maybe"}, exitUsage,
			[]string{`invalid value "maybe" for --quiet`, "want true or false"}},
		{"a negative history", "", nil, []string{"pack", "HEAD", "--history-depth", "-3"}, exitUsage,
			[]string{"--history-depth cannot be negative, got -3"}},
		{"no content bytes", "", nil, []string{"pack", "HEAD", "--max-content-bytes", "0"}, exitUsage,
			[]string{"--max-content-bytes must be positive, got 0"}},
		{"no context files", "", nil, []string{"pack", "HEAD", "--context-query-limit", "0"}, exitUsage,
			[]string{"--context-query-limit must be positive, got 0"}},
		{"no time for the model", "", nil, append(review, "--timeout", "0s"), exitUsage,
			[]string{"--timeout must be positive, got 0s"}},
		{"an answer cap above the model's", "", nil, append(review, "--provider", "openai", "--model", "gpt-4.1", "--max-output-tokens", "999999"), exitUsage,
			[]string{"--max-output-tokens 999999 is more than gpt-4.1 can write (32768 tokens)"}},
		{"findings over the record", "", nil, append(review, "--sarif", filepath.Join(reviewOut, "record.json")), exitUsage,
			[]string{"--sarif", "would overwrite the record", "name another file"}},
		{"findings over the pack", "", nil, append(review, "--rdjson", filepath.Join(reviewOut, "pack.md")), exitUsage,
			[]string{"--rdjson", "would overwrite the pack"}},
		{"two findings files in one", "", nil, append(review, "--sarif", filepath.Join(reviewOut, "f"), "--rdjson", filepath.Join(reviewOut, "f")), exitUsage,
			[]string{"--sarif and --rdjson name one file", "name two"}},
		{"a review file for another destination", "", nil, append(review, "--post", "stdout", "--post-file", "r.md"), exitUsage,
			[]string{"--post-file is for --post file, not --post stdout"}},
		{"a negative pull request", "", nil, append(review, "--pr", "-2"), exitUsage,
			[]string{"--pr cannot be negative, got -2"}},
		{"pull request 0", "", nil, append(review, "--pr", "0"), exitUsage,
			[]string{"--pr 0: pull request numbers start at 1"}},
		{"a hex pull request", "", nil, append(review, "--pr", "0x1F"), exitUsage,
			[]string{`invalid value "0x1F" for --pr`, "want a whole number"}},
		{"a hex budget in the file's place", "", map[string]string{"GITCTX_MAX_CONTENT_BYTES": "0x400"}, []string{"pack", "HEAD"}, exitUsage,
			[]string{`GITCTX_MAX_CONTENT_BYTES="0x400"`, "want a whole number"}},
		{"ollama without a model", "", nil, append(review, "--provider", "ollama"), exitUsage,
			[]string{"--provider ollama needs --model NAME", "ollama list"}},
		{"help on a topic misspelt", "", nil, []string{"help", "pakc"}, exitUsage,
			[]string{`unknown help topic "pakc"`, "gitctx help lists the commands"}},
		{"a completion for a shell misspelt", "", nil, []string{"completion", "zhs"}, exitUsage,
			[]string{`unknown shell "zhs"`, "use bash, zsh, fish or powershell"}},
		{"an unknown provider", "", nil, append(review, "--provider", "opnai"), exitUsage,
			[]string{`unknown --provider "opnai"`, "use openai, anthropic"}},
		{"bad output directory", "", nil, []string{"pack", "HEAD", "--out", filepath.Join(outFile, "sub")}, exitError,
			[]string{"create output directory", outFile, "not a directory"}},
		{"openai without a key", "", nil, append(review, "--provider", "openai"), exitError,
			[]string{"--provider openai", "needs OPENAI_API_KEY", "--provider compatible with --base-url"}},
		{"anthropic without a key", "", nil, append(review, "--provider", "anthropic"), exitError,
			[]string{"--provider anthropic", "needs ANTHROPIC_API_KEY"}},
		{"gemini without a key", "", nil, append(review, "--provider", "gemini"), exitError,
			[]string{"--provider gemini", "needs GEMINI_API_KEY"}},
		{"command without a command", "", nil, append(review, "--provider", "command"), exitUsage,
			[]string{"--provider command", "needs --command", "for example"}},
		{"no GITHUB_REPOSITORY", "", without(gh, "GITHUB_REPOSITORY"), append(review, "--provider", "command", "--command", "cat", "--post", "github", "--pr", "7"), exitError,
			[]string{"posting on GitHub", "GITHUB_REPOSITORY", "owner/name"}},
		{"bad GITHUB_REPOSITORY", "", map[string]string{"GITHUB_TOKEN": "ghs_testtoken", "GITHUB_REPOSITORY": "octo"}, append(review, "--provider", "command", "--command", "cat", "--post", "github", "--pr", "7"), exitError,
			[]string{"GITHUB_REPOSITORY", `"octo"`, "OWNER/NAME"}},
		{"no GitHub token", "", without(gh, "GITHUB_TOKEN"), append(review, "--provider", "command", "--command", "cat", "--post", "github", "--pr", "7"), exitError,
			[]string{"posting on GitHub needs a token", "GITHUB_TOKEN", "env: GITHUB_TOKEN"}},
		{"--pr without GITHUB_REPOSITORY", "", nil, []string{"review", "--pr", "7"}, exitError,
			[]string{"--pr 7 without a range", "GITHUB_REPOSITORY", "owner/name"}},
		{"action outside Actions", "", nil, []string{"action"}, exitError,
			[]string{"GITHUB_EVENT_NAME", "GITHUB_EVENT_PATH", "use gitctx review locally"}},
		{"action without its payload", "", map[string]string{"GITHUB_EVENT_NAME": "pull_request"}, []string{"action"}, exitError,
			[]string{"GITHUB_EVENT_PATH is not set", "use gitctx review locally"}},
	}
	line := regexp.MustCompile(`(?m)^gitctx: .*$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.dir != "" {
				t.Chdir(tt.dir)
			}
			res := gitctxRun(tt.env, tt.args...)
			if res.code != tt.code {
				t.Errorf("exit %d, want %d", res.code, tt.code)
			}
			msgs := line.FindAllString(res.stderr, -1)
			if len(msgs) == 0 {
				t.Fatalf("no gitctx: line on stderr:\n%s", res.stderr)
			}
			if len(msgs) != 1 {
				// a run that cannot succeed fails before it packs or sends:
				// its error is all it prints
				t.Errorf("%d gitctx: lines, want the error alone:\n%s", len(msgs), res.stderr)
			}
			msg := msgs[len(msgs)-1]
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("the message lacks %q:\n%s", w, msg)
				}
			}
			if strings.HasSuffix(msg, ".") || strings.HasSuffix(msg, "!") {
				t.Errorf("the message ends with punctuation: %s", msg)
			}
		})
	}
}

// TestDeviceNamedTwice: two flags may both name the null device; each
// write goes through it, neither replaces the other.
func TestDeviceNamedTwice(t *testing.T) {
	reviewRepo(t)
	res := gitctxRun(nil, "review", "HEAD~1..HEAD", "--out", t.TempDir(), "--sarif", os.DevNull, "--rdjson", os.DevNull)
	if res.code != 0 {
		t.Errorf("exit %d: %s", res.code, res.stderr)
	}
}
