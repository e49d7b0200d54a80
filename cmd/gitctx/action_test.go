package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadEvent(t *testing.T) {
	tests := []struct {
		name, file string
		want       actionEvent
		err        string
	}{
		{"pull_request", "pull_request.opened.1.json", actionEvent{name: "pull_request", action: "opened", pr: 2}, ""},
		{"pull_request", "pull_request.synchronize.1.json", actionEvent{name: "pull_request", action: "synchronize"}, ""},
		{"push", "push.event.1.json", actionEvent{name: "push", headOnly: true}, ""},
		{"workflow_run", "workflow_run.completed.1.json", actionEvent{name: "workflow_run", action: "completed"}, ""},
		{"issue_comment", "issue_comment.created.1.json", actionEvent{}, "not issue_comment"},
		{"pull_request", "push.event.1.json", actionEvent{}, "no pull request"},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.file, func(t *testing.T) {
			ev, err := readEvent(tt.name, filepath.Join("..", "..", "testdata", "events", tt.file))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.name != tt.want.name || ev.action != tt.want.action || ev.headOnly != tt.want.headOnly || ev.head == "" ||
				(tt.want.pr != 0 && ev.pr != tt.want.pr) || (tt.name == "pull_request" && ev.base == "") {
				t.Errorf("event %+v", ev)
			}
		})
	}
	if _, err := readEvent("", ""); err == nil || !strings.Contains(err.Error(), "gitctx review") {
		t.Errorf("outside Actions: %v", err)
	}
}

// runnerEnv emulates the runner's variables for a pull request event of r
// from base to head.
func runnerEnv(t *testing.T, base, head string, fork bool) (map[string]string, string) {
	t.Helper()
	dir := t.TempDir()
	event := map[string]any{"action": "opened", "number": 7, "pull_request": map[string]any{
		"number": 7,
		"base":   map[string]any{"sha": base, "repo": map[string]any{"full_name": "octo/demo"}},
		"head":   map[string]any{"sha": head, "repo": map[string]any{"full_name": map[bool]string{true: "forker/demo", false: "octo/demo"}[fork], "fork": fork}},
	}}
	data, _ := json.Marshal(event)
	path := filepath.Join(dir, "event.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"output", "summary"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": path,
		"GITHUB_REPOSITORY": "octo/demo", "GITHUB_OUTPUT": filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"), "RUNNER_TEMP": dir,
	}, dir
}

func TestActionPacksAForkWithoutAKey(t *testing.T) {
	r := reviewRepo(t)
	env, dir := runnerEnv(t, r.Rev("HEAD~1"), r.Rev("HEAD"), true)
	env["GITCTX_PROVIDER"] = "openai"
	r.Write(".gitctx.yml", "max_tokens: 4321\n") // the pull request's own configuration: ignored
	res := gitctxRun(env, "action")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "::stop-commands::") || lines[1] != "::"+strings.TrimPrefix(lines[0], "::stop-commands::")+"::" {
		t.Errorf("stdout does not pause workflow commands around the run:\n%s", res.stdout)
	}
	out, _ := os.ReadFile(filepath.Join(dir, "output"))
	for _, want := range []string{"pack-path<<GITCTX_EOF_", filepath.Join(dir, "gitctx", "pack.md"), "tokens<<", "record-path<<"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("GITHUB_OUTPUT lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "review-path") || strings.Contains(string(out), "sarif-path") {
		t.Errorf("GITHUB_OUTPUT names a review that was not made:\n%s", out)
	}
	summary, _ := os.ReadFile(filepath.Join(dir, "summary"))
	if !strings.Contains(string(summary), "## gitctx") || !strings.Contains(string(summary), "fork pull request") {
		t.Errorf("summary:\n%s", summary)
	}
	rec, _ := os.ReadFile(filepath.Join(dir, "gitctx", "record.json"))
	if strings.Contains(string(rec), `"limit": 4321`) {
		t.Error("the pull request's own .gitctx.yml was applied")
	}
	if !strings.Contains(res.stderr, "notice: fork pull request") || strings.Contains(res.stderr, "no provider given") {
		t.Errorf("stderr does not say, once and rightly, why nothing was sent:\n%s", res.stderr)
	}
}

// TestActionWithoutAKeySaysWhy checks that a pull request of the
// repository itself with a provider but no key is packed, with one notice
// that names the missing key, not a provider the user did give.
func TestActionWithoutAKeySaysWhy(t *testing.T) {
	r := reviewRepo(t)
	env, dir := runnerEnv(t, r.Rev("HEAD~1"), r.Rev("HEAD"), false)
	env["GITCTX_PROVIDER"] = "openai"
	res := gitctxRun(env, "action")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if !strings.Contains(res.stderr, "notice: no API key for the provider") || strings.Contains(res.stderr, "no provider given") {
		t.Errorf("stderr:\n%s", res.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "gitctx", "pack.md")); err != nil {
		t.Errorf("no pack: %v", err)
	}
}

func TestActionReadsTheBaseConfiguration(t *testing.T) {
	r := reviewRepo(t)
	r.Write(".gitctx.yml", "max_tokens: 5555\n")
	r.Commit("config on the base")
	r.Write("greet.go", "package greet\n\nfunc Hi() string { return \"hey\" }\n")
	r.Write(".gitctx.yml", "max_tokens: 4321\n")
	head := r.Commit("the pull request changes the configuration")
	env, dir := runnerEnv(t, r.Rev("HEAD~1"), head, false)
	if res := gitctxRun(env, "action"); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	rec, _ := os.ReadFile(filepath.Join(dir, "gitctx", "record.json"))
	if !strings.Contains(string(rec), `"limit": 5555`) {
		t.Errorf("the base commit's configuration was not applied:\n%.400s", rec)
	}
}

func TestActionOnWorkflowRunChecksTheHead(t *testing.T) {
	r := reviewRepo(t)
	f, srv := newFakeAPIs(t, reviewAnswer)
	f.prBase, f.prHead = r.Rev("HEAD~1"), r.Rev("HEAD")
	env, dir := runnerEnv(t, "", "", false)
	for k, v := range reviewEnv(srv.URL) {
		env[k] = v
	}
	event := filepath.Join(dir, "run.json")
	prs := []any{}
	write := func(head string) {
		data, _ := json.Marshal(map[string]any{"action": "completed", "workflow_run": map[string]any{"head_sha": head, "pull_requests": prs}})
		if err := os.WriteFile(event, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env["GITHUB_EVENT_NAME"], env["GITHUB_EVENT_PATH"] = "workflow_run", event
	env["GITCTX_PR"], env["GITCTX_PROVIDER"], env["GITCTX_MODEL"] = "7", "openai", "gpt-4.1"

	write(r.Rev("HEAD~1")) // a number that does not belong to the run's commit
	res := gitctxRun(env, "action")
	if res.code != 1 || !strings.Contains(res.stderr, "refusing to review another change") || f.count("chat") != 0 {
		t.Fatalf("forged number: exit %d, calls %v: %s", res.code, f.calls, res.stderr)
	}
	write(r.Rev("HEAD"))
	res = gitctxRun(env, "action")
	if res.code != 0 || f.count("chat") != 1 || len(f.comments) != 1 {
		t.Fatalf("exit %d, calls %v: %s", res.code, f.calls, res.stderr)
	}
	// The run's own pull request, without the pr input: its change and its
	// title are read from GitHub.
	prs = []any{map[string]any{"number": 7}}
	delete(env, "GITCTX_PR")
	f.prBody = "A warmer greeting."
	write(r.Rev("HEAD"))
	if res = gitctxRun(env, "action", "--force"); res.code != 0 || f.count("chat") != 2 {
		t.Fatalf("the run's pull request: exit %d, calls %v: %s", res.code, f.calls, res.stderr)
	}
	if p := f.prompts[len(f.prompts)-1]; !strings.Contains(p, "- Pull request: #7 `Say hello`") || !strings.Contains(p, "A warmer greeting.") {
		t.Errorf("the prompt lacks the pull request's title or description:\n%.1500s", p)
	}
}

// TestActionOnPushSaysWhereTheReviewWent: on a push there is no pull
// request to comment on; the review goes to the step summary, and the log
// says so rather than "nowhere".
func TestActionOnPushSaysWhereTheReviewWent(t *testing.T) {
	r := reviewRepo(t)
	env, dir := runnerEnv(t, r.Rev("HEAD~1"), r.Rev("HEAD"), false)
	push, _ := json.Marshal(map[string]any{"before": r.Rev("HEAD~1"), "after": r.Rev("HEAD"), "ref": "refs/heads/main"})
	if err := os.WriteFile(env["GITHUB_EVENT_PATH"], push, 0o644); err != nil {
		t.Fatal(err)
	}
	env["GITHUB_EVENT_NAME"] = "push"
	env["GITCTX_PROVIDER"], env["GITCTX_COMMAND"] = "command", "echo PUSH-REVIEW fine"
	res := gitctxRun(env, "action")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if !strings.Contains(res.stderr, "review posted to the step summary") || strings.Contains(res.stderr, "nowhere") {
		t.Errorf("stderr:\n%s", res.stderr)
	}
	if summary, _ := os.ReadFile(filepath.Join(dir, "summary")); !strings.Contains(string(summary), "PUSH-REVIEW fine") {
		t.Errorf("the step summary lacks the review:\n%s", summary)
	}
	out, _ := os.ReadFile(filepath.Join(dir, "output"))
	for _, want := range []string{"review-path<<", filepath.Join(dir, "gitctx", "review.md"), "sarif-path<<", filepath.Join(dir, "gitctx", "findings.sarif")} {
		if !strings.Contains(string(out), want) {
			t.Errorf("GITHUB_OUTPUT lacks %q:\n%s", want, out)
		}
	}
}

// TestActionBadInputIsNamedInTheSummary: a bad value from the step's
// variables fails with exit 2 naming the variable, on stderr and in the
// job summary.
func TestActionBadInputIsNamedInTheSummary(t *testing.T) {
	r := reviewRepo(t)
	env, dir := runnerEnv(t, r.Rev("HEAD~1"), r.Rev("HEAD"), false)
	env["GITCTX_MAX_TOKENS"] = "-5"
	res := gitctxRun(env, "action")
	if res.code != exitUsage || !strings.Contains(res.stderr, "GITCTX_MAX_TOKENS cannot be negative, got -5") {
		t.Errorf("exit %d: %s", res.code, res.stderr)
	}
	if summary, _ := os.ReadFile(filepath.Join(dir, "summary")); !strings.Contains(string(summary), "**Error:** GITCTX_MAX_TOKENS cannot be negative") {
		t.Errorf("summary:\n%s", summary)
	}
}
