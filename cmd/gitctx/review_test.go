package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/review"
)

// fakeAPIs is a small OpenAI and GitHub in one server: chat completions,
// and the issue comments of octo/demo#7.
type fakeAPIs struct {
	mu       sync.Mutex
	calls    []string
	answer   string
	comments map[int64]string
	next     int64
	prBase   string // the commits GET pulls/7 names
	prHead   string
	prBody   string   // its description
	prompts  []string // the user messages the chat endpoint was sent
}

func newFakeAPIs(t *testing.T, answer string) (*fakeAPIs, *httptest.Server) {
	f := &fakeAPIs{answer: answer, comments: map[int64]string{}, next: 100}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		if r.Header.Get("Authorization") != "Bearer sk-test-key" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) != 2 {
			http.Error(w, `{"error":{"message":"bad request"}}`, 400)
			return
		}
		f.record("chat " + req.Model)
		f.mu.Lock()
		f.prompts = append(f.prompts, req.Messages[1].Content)
		f.mu.Unlock()
		fmt.Fprintf(w, `{"id":"c","object":"chat.completion","model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}],"usage":{"prompt_tokens":1000,"completion_tokens":100,"total_tokens":1100}}`, req.Model, f.answer)
	})
	mux.HandleFunc("GET /repos/octo/demo/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
		f.record("list")
		f.mu.Lock()
		defer f.mu.Unlock()
		var out []map[string]any
		for id, body := range f.comments {
			out = append(out, map[string]any{"id": id, "body": body, "html_url": fmt.Sprintf("https://github.com/octo/demo/pull/7#issuecomment-%d", id),
				"user": map[string]any{"login": "github-actions[bot]", "type": "Bot"}, "author_association": "NONE"})
		}
		_ = json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("POST /repos/octo/demo/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
		f.record("create")
		f.upsert(w, r, 0)
	})
	mux.HandleFunc("PATCH /repos/octo/demo/issues/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		f.record("edit")
		var id int64
		fmt.Sscan(r.PathValue("id"), &id)
		f.upsert(w, r, id)
	})
	mux.HandleFunc("GET /repos/octo/demo/pulls/7", func(w http.ResponseWriter, r *http.Request) {
		f.record("pull")
		f.mu.Lock()
		defer f.mu.Unlock()
		fmt.Fprintf(w, `{"number":7,"title":"Say hello","body":%q,"base":{"sha":%q,"repo":{"full_name":"octo/demo"}},"head":{"sha":%q,"repo":{"full_name":"octo/demo","fork":false}}}`, f.prBody, f.prBase, f.prHead)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeAPIs) record(call string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call)
}

func (f *fakeAPIs) upsert(w http.ResponseWriter, r *http.Request, id int64) {
	var in struct{ Body string }
	data, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(data, &in)
	f.mu.Lock()
	defer f.mu.Unlock()
	if id == 0 {
		id, f.next = f.next, f.next+1
		w.WriteHeader(201)
	}
	f.comments[id] = in.Body
	fmt.Fprintf(w, `{"id":%d,"body":%q,"html_url":"https://github.com/octo/demo/pull/7#issuecomment-%d","user":{"login":"github-actions[bot]","type":"Bot"},"author_association":"NONE"}`, id, in.Body, id)
}

func (f *fakeAPIs) count(prefix string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

const reviewAnswer = "Looks right. SENTINEL-7f3a\n\n```json\n{\"findings\":[{\"path\":\"greet.go\",\"line\":3,\"severity\":\"warning\",\"title\":\"t\",\"body\":\"b\"}]}\n```\n"

// reviewRepo is a repository with two commits, as the working directory.
func reviewRepo(t *testing.T) *testRepo {
	r := newTestRepo(t)
	r.Write("greet.go", "package greet\n\nfunc Hi() string { return \"hi\" }\n")
	r.Commit("greet")
	r.Write("greet.go", "package greet\n\nfunc Hi() string { return \"hello\" }\n")
	r.Commit("hello")
	t.Chdir(r.Dir)
	return r
}

func reviewEnv(url string) map[string]string {
	return map[string]string{
		"OPENAI_API_KEY": "sk-test-key", "OPENAI_BASE_URL": url + "/v1",
		"GITHUB_TOKEN": "ghs_testtoken", "GITHUB_API_URL": url, "GITHUB_REPOSITORY": "octo/demo",
	}
}

func TestReviewPostsOnceAndReusesAnUnchangedPack(t *testing.T) {
	reviewRepo(t)
	f, srv := newFakeAPIs(t, reviewAnswer)
	out := t.TempDir()
	args := []string{"review", "HEAD~1..HEAD", "--provider", "openai", "--model", "gpt-4.1", "--pr", "7", "--out", out,
		"--sarif", filepath.Join(out, "f.sarif"), "--rdjson", filepath.Join(out, "f.rdjson")}
	res := gitctxRun(reviewEnv(srv.URL), args...)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if f.count("chat gpt-4.1") != 1 || f.count("create") != 1 || len(f.comments) != 1 {
		t.Fatalf("calls %v", f.calls)
	}
	answer, err := os.ReadFile(filepath.Join(out, "review.md"))
	if err != nil || !strings.Contains(string(answer), "SENTINEL-7f3a") {
		t.Errorf("review.md: %q, %v", answer, err)
	}
	var rec struct {
		Delivery struct {
			Kind         string  `json:"kind"`
			Model        string  `json:"model"`
			CommentURL   string  `json:"comment_url"`
			EndpointHost string  `json:"endpoint_host"`
			Cost         float64 `json:"estimated_cost_usd"`
		}
	}
	data, _ := os.ReadFile(filepath.Join(out, "record.json"))
	_ = json.Unmarshal(data, &rec)
	if rec.Delivery.Kind != "github" || rec.Delivery.Model != "gpt-4.1" || !strings.HasSuffix(rec.Delivery.CommentURL, "#issuecomment-100") || rec.Delivery.Cost <= 0 || rec.Delivery.EndpointHost == "" {
		t.Errorf("delivery %+v", rec.Delivery)
	}
	// the answer's usage (1,000 + 100 tokens at $2 and $8 a million), in
	// the record and the comment alike, not the estimate made before sending
	if c := f.comments[100]; rec.Delivery.Cost != 0.0028 || !strings.Contains(c, "about $0.0028") {
		t.Errorf("cost %v in the record; the comment:\n%s", rec.Delivery.Cost, c)
	}
	// the findings, in the output directory (design §8) and in the files named
	for _, name := range []string{"f.sarif", "f.rdjson", "findings.sarif", "findings.rdjson"} {
		if data, err := os.ReadFile(filepath.Join(out, name)); err != nil || !strings.Contains(string(data), "greet.go") {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, name := range []string{"f.sarif", "f.rdjson"} {
		if err := os.WriteFile(filepath.Join(out, name), []byte("earlier"), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	res = gitctxRun(reviewEnv(srv.URL), args...)
	if res.code != 0 || f.count("chat") != 1 || f.count("edit") != 1 || len(f.comments) != 1 {
		t.Fatalf("second run: exit %d, calls %v: %s", res.code, f.calls, res.stderr)
	}
	if !strings.Contains(res.stderr, "already reviewed") || !strings.Contains(res.stderr, "no findings files were written") {
		t.Errorf("stderr does not say the pack was reused and its findings not written: %s", res.stderr)
	}
	// The comment keeps no findings: a reused review writes none, rather
	// than files that say there are none.
	if answer, err := os.ReadFile(filepath.Join(out, "review.md")); err != nil || !strings.Contains(string(answer), "SENTINEL-7f3a") {
		t.Errorf("review.md of the reused review: %q, %v", answer, err)
	}
	for _, name := range []string{"findings.sarif", "findings.rdjson"} {
		if _, err := os.Stat(filepath.Join(out, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s after a reused review: %v, want none", name, err)
		}
	}
	for _, name := range []string{"f.sarif", "f.rdjson"} {
		if data, _ := os.ReadFile(filepath.Join(out, name)); string(data) != "earlier" {
			t.Errorf("%s was written by a reused review: %.100q", name, data)
		}
	}
	data, _ = os.ReadFile(filepath.Join(out, "record.json"))
	if rec.Delivery.Cost = -1; json.Unmarshal(data, &rec) != nil || rec.Delivery.Cost != 0 {
		t.Errorf("a review not sent again costs %v in the record, want 0", rec.Delivery.Cost)
	}
	res = gitctxRun(reviewEnv(srv.URL), append(args, "--force")...)
	if res.code != 0 || f.count("chat") != 2 {
		t.Errorf("--force: exit %d, calls %v", res.code, f.calls)
	}
}

// Without a pull request, --post auto (the default) and --post file
// without --post-file deliver the review as a file (design §8): the answer
// saved as review.md in --out, nothing on stdout, the record saying so.
func TestReviewDefaultsToTheSavedFile(t *testing.T) {
	reviewRepo(t)
	for _, post := range [][]string{nil, {"--post", "file"}} {
		out := t.TempDir()
		args := append([]string{"review", "HEAD~1..HEAD", "--provider", "command", "--command", "cat >/dev/null; echo SAVED-REVIEW", "--out", out}, post...)
		res := gitctxRun(map[string]string{}, args...)
		saved := filepath.Join(out, "review.md")
		if res.code != 0 || res.stdout != "" || !strings.Contains(res.stderr, "review saved in "+saved) {
			t.Fatalf("%v: exit %d, stdout %q, stderr:\n%s", post, res.code, res.stdout, res.stderr)
		}
		if data, err := os.ReadFile(saved); err != nil || string(data) != "SAVED-REVIEW\n" {
			t.Errorf("%v: review.md %q, %v", post, data, err)
		}
		var rec pack.Record
		data, _ := os.ReadFile(filepath.Join(out, "record.json"))
		if err := json.Unmarshal(data, &rec); err != nil || rec.Delivery.Kind != "file" || rec.Delivery.CommentURL != saved {
			t.Errorf("%v: delivery %+v, %v", post, rec.Delivery, err)
		}
	}
}

func TestReviewSendsNothingWhenItMustNot(t *testing.T) {
	reviewRepo(t)
	f, srv := newFakeAPIs(t, reviewAnswer)
	base := []string{"review", "HEAD~1..HEAD", "--provider", "openai", "--model", "gpt-4.1", "--pr", "7", "--out", t.TempDir()}
	tests := []struct {
		name  string
		extra []string
		code  int
		want  string
	}{
		{"dry run", []string{"--dry-run"}, 0, "estimate:"},
		{"over the cost limit", []string{"--max-cost", "0.000001"}, 1, "above --max-cost $0.0000: nothing was sent; lower --max-output-tokens (the answer's cap, 8,192 tokens, is most of it)"},
		{"over the cost limit, the prompt most of it", []string{"--max-cost", "0.000001", "--max-output-tokens", "16"}, 1, "; lower --max-tokens (the prompt"},
		{"no provider", []string{"--provider", "none"}, 0, "nothing was sent"},
		{"command without --command", []string{"--provider", "command"}, 2, "needs --command"},
		{"unknown post", []string{"--post", "slack"}, 2, "unknown --post"},
		{"-o", []string{"-o", "-"}, 2, "-o and --split"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := gitctxRun(reviewEnv(srv.URL), append(base, tt.extra...)...)
			if res.code != tt.code || !strings.Contains(res.stderr, tt.want) {
				t.Errorf("exit %d, want %d; stderr lacks %q:\n%s", res.code, tt.code, tt.want, res.stderr)
			}
		})
	}
	// Only the runs refused for their cost read the pull request's title
	// and description, to put them in the pack they priced.
	if len(f.calls) != 2 || f.calls[0] != "pull" || f.calls[1] != "pull" {
		t.Errorf("requests were made: %v, want a read of the pull request by each run refused for its cost", f.calls)
	}
}

func TestReviewDryRunPrintsThePrompt(t *testing.T) {
	reviewRepo(t)
	res := gitctxRun(map[string]string{}, "review", "HEAD~1..HEAD", "--provider", "anthropic", "--dry-run", "--out", t.TempDir())
	if res.code != 0 || !strings.Contains(res.stdout, "untrusted data") || !strings.Contains(res.stdout, `return "hello"`) {
		t.Errorf("exit %d, stdout:\n%.500s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
}

func TestReviewWithACommand(t *testing.T) {
	reviewRepo(t)
	out := t.TempDir()
	script := filepath.Join(t.TempDir(), "model.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ngrep -q 'untrusted data' && echo 'LOCAL-REVIEW fine'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := gitctxRun(map[string]string{}, "review", "HEAD~1..HEAD", "--provider", "command", "--command", script, "--post", "file", "--post-file", filepath.Join(out, "posted.md"), "--out", out)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "posted.md"))
	if err != nil || !strings.Contains(string(data), "LOCAL-REVIEW fine") || !strings.HasPrefix(string(data), "<!-- gitctx:review pack=") {
		t.Errorf("posted.md: %q, %v", data, err)
	}
	// the answer as the model gave it, beside the pack
	if data, err := os.ReadFile(filepath.Join(out, "review.md")); err != nil || string(data) != "LOCAL-REVIEW fine\n" {
		t.Errorf("review.md: %q, %v", data, err)
	}
	// --post-file must not overwrite the saved answer or its findings
	for _, name := range []string{"review.md", "findings.sarif", "findings.rdjson"} {
		res = gitctxRun(map[string]string{}, "review", "HEAD~1..HEAD", "--provider", "command", "--command", script, "--post-file", filepath.Join(out, name), "--out", out)
		if res.code != 2 || !strings.Contains(res.stderr, "would overwrite the") {
			t.Errorf("--post-file %s in --out: exit %d: %s", name, res.code, res.stderr)
		}
	}
	alone := filepath.Join(out, "alone.md") // --post-file says where without --post file
	res = gitctxRun(map[string]string{}, "review", "HEAD~1..HEAD", "--provider", "command", "--command", script, "--post-file", alone, "--out", out)
	if data, err := os.ReadFile(alone); res.code != 0 || err != nil || !strings.Contains(string(data), "LOCAL-REVIEW fine") || strings.Contains(res.stdout, "LOCAL-REVIEW") {
		t.Errorf("--post-file alone: exit %d, %q, %v, stdout %q", res.code, data, err, res.stdout)
	}
	res = gitctxRun(map[string]string{}, "review", "HEAD~1..HEAD", "--provider", "command", "--command", "exit 7", "--out", out)
	if res.code != 1 || !strings.Contains(res.stderr, "7") || !strings.Contains(res.stderr, out) {
		t.Errorf("failing command: exit %d: %s", res.code, res.stderr)
	}
}

// TestReviewSendsThePullRequestDescription checks that review --pr N
// with a range reads the pull request and sends its title and
// description with the pack, redacted.
func TestReviewSendsThePullRequestDescription(t *testing.T) {
	reviewRepo(t)
	f, srv := newFakeAPIs(t, reviewAnswer)
	f.prBody = "Users asked for a warmer greeting.\nDeploy with AKIAZ7QWERTYUIOP2345 if you must."
	res := gitctxRun(reviewEnv(srv.URL), "review", "HEAD~1..HEAD", "--provider", "openai", "--model", "gpt-4.1", "--pr", "7", "--out", t.TempDir(), "--progress", "never")
	if res.code != 0 || len(f.prompts) != 1 {
		t.Fatalf("exit %d, %d prompts: %s", res.code, len(f.prompts), res.stderr)
	}
	prompt := f.prompts[0]
	for _, want := range []string{"- Pull request: #7 `Say hello`", "Users asked for a warmer greeting.", "[REDACTED:aws-access-token#"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q:\n%.2000s", want, prompt)
		}
	}
	if strings.Contains(prompt, "AKIAZ7QWERTYUIOP2345") {
		t.Errorf("the prompt holds the description's credential")
	}
}

// TestReviewInstructionsGoThroughTheGate checks that a credential in the
// review instruction (a repository's .gitctx.yml, which anyone who can
// commit writes, or --instructions FILE) is replaced before it is sent or
// printed, and recorded.
func TestReviewInstructionsGoThroughTheGate(t *testing.T) {
	r := reviewRepo(t)
	token := "ghp_" + "9382dffx1kVZQ2tq" + "MnMcLRkBOzZU3G8xI7CG" // made up, in two parts so no scanner of this repository takes it for one
	r.Write(".gitctx.yml", "review_instructions: \"Use the token "+token+" to check the API.\"\n")
	file := filepath.Join(t.TempDir(), "instructions.md")
	if err := os.WriteFile(file, []byte("Review for races.\nauth: "+token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string // a line of the instruction that must still be sent
	}{
		{"from .gitctx.yml", nil, "Use the token [REDACTED:github-pat#"},
		{"from --instructions", []string{"--instructions", file}, "Review for races."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			sent := filepath.Join(t.TempDir(), "sent.txt")
			args := append([]string{"review", "HEAD~1..HEAD", "--provider", "command", "--command", "cat > " + sent + "; echo fine",
				"--post", "none", "--out", out}, tc.args...)
			res := gitctxRun(map[string]string{}, args...)
			data, err := os.ReadFile(sent)
			if res.code != 0 || err != nil {
				t.Fatalf("exit %d, %v: %s", res.code, err, res.stderr)
			}
			rec, _ := os.ReadFile(filepath.Join(out, "record.json"))
			dry := gitctxRun(map[string]string{}, append([]string{"review", "HEAD~1..HEAD", "--provider", "anthropic", "--dry-run", "--out", t.TempDir()}, tc.args...)...)
			for what, text := range map[string]string{"sent": string(data), "stderr": res.stderr, "record": string(rec), "dry run": dry.stdout + dry.stderr} {
				if strings.Contains(text, token) {
					t.Errorf("the %s holds the token:\n%s", what, text)
				}
			}
			if !strings.Contains(string(data), tc.want) || !strings.Contains(string(data), "[REDACTED:github-pat#") {
				t.Errorf("sent without %q or a placeholder:\n%.2000s", tc.want, data)
			}
			if !strings.Contains(res.stderr, "1 credential removed from the review instructions") || !strings.Contains(string(rec), `"side": "instructions"`) {
				t.Errorf("not said or recorded: stderr %s\nrecord %s", res.stderr, rec)
			}
		})
	}
}

// TestReviewTimeoutSaysSo checks that a model that does not answer within
// --timeout is reported as that, with the flag to raise, rather than as
// Go's "context deadline exceeded".
func TestReviewTimeoutSaysSo(t *testing.T) {
	reviewRepo(t)
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select { // never answers
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // runs first
	env := map[string]string{"OPENAI_API_KEY": "sk-test-key", "OPENAI_BASE_URL": srv.URL + "/v1"}
	res := gitctxRun(env, "review", "HEAD~1..HEAD", "--provider", "openai", "--post", "stdout", "--timeout", "300ms", "--out", t.TempDir())
	if res.code != 1 || !strings.Contains(res.stderr, "no answer within --timeout 300ms") {
		t.Errorf("exit %d: %s", res.code, res.stderr)
	}
}

// TestOllamaKeepsOpenAIsSettings: --provider ollama sends no OpenAI key
// to the local server and does not follow OPENAI_BASE_URL elsewhere.
func TestOllamaKeepsOpenAIsSettings(t *testing.T) {
	var auth []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"x","object":"chat.completion","model":"llama3","choices":[{"index":0,"message":{"role":"assistant","content":"fine"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "sk-should-stay-home", "OPENAI_BASE_URL": "https://gateway.example.com/v1"}
	a := &app{getenv: func(k string) string { return env[k] }}

	p, err := newProvider(a, &reviewOptions{packOptions: packOptions{provider: "ollama"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Endpoint(); got != "localhost:11434" {
		t.Errorf("endpoint %s, want Ollama's local one (OPENAI_BASE_URL is OpenAI's)", got)
	}
	p, err = newProvider(a, &reviewOptions{packOptions: packOptions{provider: "ollama"}, baseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Complete(t.Context(), review.Request{System: "s", Prompt: "u", Model: "llama3"}); err != nil {
		t.Fatal(err)
	}
	if len(auth) != 1 || auth[0] != "" {
		t.Errorf("Authorization headers %q, want one request with none", auth)
	}
}

// TestReviewSavesOnceItsOutcomeIsKnown: an interrupted review leaves the
// previous outputs as they were; a failed one saves the pack and a record
// whose errors say why, and removes the previous answer.
func TestReviewSavesOnceItsOutcomeIsKnown(t *testing.T) {
	reviewRepo(t)
	out := t.TempDir()
	files := func() map[string]string {
		got := map[string]string{}
		entries, _ := os.ReadDir(out)
		for _, e := range entries {
			data, _ := os.ReadFile(filepath.Join(out, e.Name()))
			got[e.Name()] = string(data)
		}
		return got
	}
	review := []string{"review", "HEAD~1..HEAD", "--provider", "command", "--post", "none", "--out", out, "--progress", "never"}
	if res := gitctxRun(nil, append(review, "--command", "echo fine")...); res.code != 0 {
		t.Fatalf("first review: exit %d: %s", res.code, res.stderr)
	}
	before := files()
	for _, name := range []string{"review.md", "findings.sarif", "findings.rdjson"} {
		if _, ok := before[name]; !ok {
			t.Fatalf("no %s after a review: %v", name, slices.Collect(maps.Keys(before)))
		}
	}

	started := filepath.Join(t.TempDir(), "started")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		for {
			if _, err := os.Stat(started); err == nil {
				cancel()
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	var stderr strings.Builder
	code := run(ctx, append(review[:1:1], "HEAD", "--max-neighbours", "0", "--provider", "command", "--post", "none", "--out", out,
		"--command", "touch "+started+"; sleep 20"), strings.NewReader(""), io.Discard, &stderr, func(string) string { return "" })
	if code != exitCancelled {
		t.Fatalf("interrupted review: exit %d: %s", code, stderr.String())
	}
	if after := files(); !maps.Equal(after, before) {
		t.Errorf("an interrupted review changed the outputs: %d files before, %d after", len(before), len(after))
	}

	res := gitctxRun(nil, append(review, "--command", "exit 7")...)
	if res.code != 1 {
		t.Fatalf("failing review: exit %d: %s", res.code, res.stderr)
	}
	after := files()
	for _, name := range []string{"review.md", "findings.sarif", "findings.rdjson"} {
		if _, ok := after[name]; ok {
			t.Errorf("the previous %s is left beside a pack it does not answer", name)
		}
	}
	var rec pack.Record
	if err := json.Unmarshal([]byte(after["record.json"]), &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Errors) != 1 || rec.Errors[0].Kind != "review" || !strings.Contains(rec.Errors[0].Message, "7") || after["pack.md"] == "" {
		t.Errorf("record errors %+v, pack.md %d bytes; want the review's error and the pack", rec.Errors, len(after["pack.md"]))
	}
}

// TestKeyWithALineEnd: a key saved with its newline (a pasted secret) is
// sent without it, not refused as a bad header.
func TestKeyWithALineEnd(t *testing.T) {
	var auth []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"x","object":"chat.completion","model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":"fine"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "sk-test-key\n", "OPENAI_BASE_URL": srv.URL + "/v1\n"}
	p, err := newProvider(&app{getenv: func(k string) string { return env[k] }}, &reviewOptions{packOptions: packOptions{provider: "openai"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Complete(t.Context(), review.Request{System: "s", Prompt: "u", Model: "gpt-4.1"}); err != nil {
		t.Fatal(err)
	}
	if len(auth) != 1 || auth[0] != "Bearer sk-test-key" {
		t.Errorf("Authorization %q, want the key without its newline", auth)
	}
}

// TestReviewRefusedConnectionSaysSo: a provider nobody listens for is
// reported as that within --timeout, not as a model too slow to answer.
func TestReviewRefusedConnectionSaysSo(t *testing.T) {
	reviewRepo(t)
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	env := map[string]string{"OPENAI_API_KEY": "sk-test-key", "OPENAI_BASE_URL": url + "/v1"}
	res := gitctxRun(env, "review", "HEAD~1..HEAD", "--provider", "openai", "--post", "stdout", "--timeout", "300ms", "--out", t.TempDir())
	if res.code != 1 || !strings.Contains(res.stderr, "could not connect to") || strings.Contains(res.stderr, "raise it") {
		t.Errorf("exit %d: %s", res.code, res.stderr)
	}
}
