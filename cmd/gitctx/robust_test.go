package main

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// Bad and hostile input end to end, in pack, review and action modes
// (docs/robustness.md maps each case of reliability-anchors §5 to its
// tests).

// captured is every request body a fake API server received.
type captured struct {
	mu     sync.Mutex
	bodies []string
}

func (c *captured) all() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.bodies, "\n")
}

// captureAPIs is newFakeAPIs behind a recorder of request bodies; it
// answers chat completions itself, so that the answer may hold any
// character.
func captureAPIs(t *testing.T, answer string) (*fakeAPIs, *captured, string) {
	t.Helper()
	f, inner := newFakeAPIs(t, answer)
	c := &captured{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.bodies = append(c.bodies, r.Method+" "+r.URL.Path+"\n"+string(data))
		c.mu.Unlock()
		if r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions" {
			var req struct{ Model string }
			_ = json.Unmarshal(data, &req)
			f.record("chat " + req.Model)
			_ = json.NewEncoder(w).Encode(map[string]any{"id": "c", "object": "chat.completion", "model": req.Model,
				"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": answer}, "finish_reason": "stop"}},
				"usage":   map[string]any{"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}})
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(data))
		inner.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return f, c, srv.URL
}

// texts gathers what a run left for anyone to read: the files of its
// output directories and of the runner, its streams, the comments posted
// and the bodies of the requests sent.
func texts(t *testing.T, res cliResult, f *fakeAPIs, c *captured, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{"stdout": res.stdout, "stderr": res.stderr}
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(path)
				out[path] = string(data)
			}
			return nil
		})
	}
	if f != nil {
		f.mu.Lock()
		for id, body := range f.comments {
			out[fmt.Sprint("comment ", id)] = body
		}
		f.mu.Unlock()
	}
	if c != nil {
		out["requests"] = c.all()
	}
	return out
}

// noneOf fails the test if any text holds any of the secrets, or a hex
// digest of one (a record must not hold a credential's hash either).
func noneOf(t *testing.T, all map[string]string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		forms := []string{s}
		for _, sum := range [][]byte{func() []byte { h := sha256.Sum256([]byte(s)); return h[:] }(),
			func() []byte { h := sha1.Sum([]byte(s)); return h[:] }(), func() []byte { h := md5.Sum([]byte(s)); return h[:] }()} {
			forms = append(forms, hex.EncodeToString(sum))
		}
		for name, text := range all {
			for _, form := range forms {
				if strings.Contains(text, form) {
					t.Errorf("%s holds %q (or its digest)", name, s[:min(len(s), 12)]+"…")
				}
			}
		}
	}
}

// TestOwnTokensNeverLeave: the run's own GITHUB_TOKEN and API key, and the
// credential actions/checkout leaves in .git/config, reach no pack, record,
// request, log, comment or Actions output, even when the repository
// holds them and the model echoes them (§5 case 20).
func TestOwnTokensNeverLeave(t *testing.T) {
	r := reviewRepo(t)
	env0 := reviewEnv("")
	token, key := env0["GITHUB_TOKEN"], env0["OPENAI_API_KEY"]
	header := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token))
	r.Git("config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic "+header)
	r.Git("config", "remote.origin.url", "https://x-access-token:"+token+"@github.com/octo/demo.git")
	r.Write("ci/env.sh", "export GH="+token+"\nexport KEY="+key+"\n")
	r.Write("ci/debug.log", "git -c http.extraheader='AUTHORIZATION: basic "+header+"' fetch\n")
	r.Commit("ci: the tokens " + token + " " + key)
	answer := "Echo: " + token + " " + key + " AUTHORIZATION: basic " + header + "\n\n" + reviewAnswer
	secrets := []string{token, key, header, "x-access-token"}

	t.Run("pack", func(t *testing.T) {
		out := t.TempDir()
		res := gitctxRun(env0, "pack", "HEAD~1..HEAD", "--out", out, "--progress", "never")
		if res.code != 0 {
			t.Fatalf("exit %d: %s", res.code, res.stderr)
		}
		all := texts(t, res, nil, nil, out)
		noneOf(t, all, secrets...)
		if !strings.Contains(all[filepath.Join(out, "pack.md")], "[REDACTED:gitctx-own-token#") {
			t.Error("the tokens in the change are not replaced by placeholders")
		}
	})
	t.Run("review", func(t *testing.T) {
		f, c, url := captureAPIs(t, answer)
		out := t.TempDir()
		res := gitctxRun(reviewEnv(url), "review", "HEAD~1..HEAD", "--provider", "openai", "--model", "gpt-4.1", "--pr", "7", "--out", out, "--progress", "never")
		if res.code != 0 || f.count("chat") != 1 || len(f.comments) != 1 {
			t.Fatalf("exit %d, calls %v: %s", res.code, f.calls, res.stderr)
		}
		noneOf(t, texts(t, res, f, c, out), secrets...)
	})
	t.Run("action", func(t *testing.T) {
		f, c, url := captureAPIs(t, answer)
		env, dir := runnerEnv(t, r.Rev("HEAD~1"), r.Rev("HEAD"), false)
		for k, v := range reviewEnv(url) {
			env[k] = v
		}
		env["GITCTX_PROVIDER"], env["GITCTX_MODEL"] = "openai", "gpt-4.1"
		res := gitctxRun(env, "action")
		if res.code != 0 || f.count("chat") != 1 || len(f.comments) != 1 {
			t.Fatalf("exit %d, calls %v: %s", res.code, f.calls, res.stderr)
		}
		noneOf(t, texts(t, res, f, c, dir), secrets...)
	})
}

// TestChangeCannotSuppressRedaction: a pull request that brings its own
// .gitleaks.toml (allowlisting everything), .gitleaksignore, baseline and
// gitleaks:allow comments changes nothing: the configuration comes from
// the base commit, and a rule there applies (§5 case 3).
func TestChangeCannotSuppressRedaction(t *testing.T) {
	cf := loadCreds(t)
	pat := makeCred(t, cf, "github-pat", "suppressed")
	r := reviewRepo(t)
	suppress := map[string]string{
		".gitleaks.toml": "[extend]\ndisabledRules = [\"github-pat\"]\n[allowlist]\npaths = ['''.*''']\nregexes = ['''.*''']\n" +
			"[[rules]]\nid = \"acme-key\"\nregex = '''ACME-[0-9]{8}'''\nkeywords = [\"acme-\"]\n",
		".gitleaksignore":        "app.go:github-pat:3\napp.go:github-pat:4\n:github-pat:3\n",
		"gitleaks-baseline.json": `[{"RuleID":"github-pat","File":"app.go","StartLine":3,"Fingerprint":"app.go:github-pat:3"}]` + "\n",
		"app.go":                 "package app\n\nvar a = \"" + pat.Token + "\" // gitleaks:allow\nvar b = \"" + pat.Token + "\"\nvar c = \"ACME-12345678\"\n",
	}
	for name, content := range suppress {
		r.Write(name, content)
	}
	r.Commit("suppress everything")

	// check: the default rule applied, the change's own rule did not (its
	// value shows as it is), and nothing was suppressed
	check := func(t *testing.T, all map[string]string) {
		t.Helper()
		noneOf(t, all, pat.Token)
		for _, text := range all {
			if strings.Contains(text, "ACME-12345678") && strings.Contains(text, "[REDACTED:github-pat#") {
				return
			}
		}
		t.Errorf("no output shows the change's ACME value beside a redacted github-pat: was the change's .gitleaks.toml used?")
	}
	t.Run("pack", func(t *testing.T) {
		out := t.TempDir()
		res := gitctxRun(nil, "pack", "HEAD~1..HEAD", "--out", out, "--progress", "never")
		check(t, texts(t, res, nil, nil, out))
	})
	t.Run("review", func(t *testing.T) {
		res := gitctxRun(nil, "review", "HEAD~1..HEAD", "--provider", "openai", "--dry-run", "--out", t.TempDir(), "--progress", "never")
		if res.code != 0 {
			t.Fatalf("exit %d: %s", res.code, res.stderr)
		}
		check(t, map[string]string{"prompt": res.stdout, "stderr": res.stderr})
	})
	t.Run("action", func(t *testing.T) {
		env, dir := runnerEnv(t, r.Rev("HEAD~1"), r.Rev("HEAD"), true)
		res := gitctxRun(env, "action")
		if res.code != 0 {
			t.Fatalf("exit %d: %s", res.code, res.stderr)
		}
		check(t, texts(t, res, nil, nil, dir))
	})
	t.Run("the base's rule applies", func(t *testing.T) {
		r.Write("app.go", suppress["app.go"]+"var d = \"ACME-87654321\"\n")
		r.Commit("one more")
		out := t.TempDir()
		res := gitctxRun(nil, "pack", "HEAD~1..HEAD", "--out", out, "--progress", "never")
		noneOf(t, texts(t, res, nil, nil, out), pat.Token, "ACME-87654321", "ACME-12345678")
		if pack, _ := os.ReadFile(filepath.Join(out, "pack.md")); !strings.Contains(string(pack), "[REDACTED:acme-key#") {
			t.Errorf("the base commit's rule acme-key was not applied")
		}
	})
}

// TestEmptyChangeSendsNothing: an empty range is a normal outcome: exit 0,
// no model call, no comment, in review and action modes (§5 case 14).
func TestEmptyChangeSendsNothing(t *testing.T) {
	r := reviewRepo(t)
	f, _, url := captureAPIs(t, reviewAnswer)
	res := gitctxRun(reviewEnv(url), "review", "HEAD..HEAD", "--provider", "openai", "--model", "gpt-4.1", "--pr", "7", "--out", t.TempDir(), "--progress", "never")
	if res.code != 0 || !strings.Contains(res.stderr, "nothing to pack") {
		t.Errorf("review: exit %d: %s", res.code, res.stderr)
	}
	env, dir := runnerEnv(t, r.Rev("HEAD"), r.Rev("HEAD"), false)
	for k, v := range reviewEnv(url) {
		env[k] = v
	}
	env["GITCTX_PROVIDER"], env["GITCTX_MODEL"] = "openai", "gpt-4.1"
	res = gitctxRun(env, "action")
	summary, _ := os.ReadFile(filepath.Join(dir, "summary"))
	if res.code != 0 || !strings.Contains(string(summary), "Nothing to pack") {
		t.Errorf("action: exit %d, summary %q: %s", res.code, summary, res.stderr)
	}
	if len(f.calls) != 0 {
		t.Errorf("requests were made for an empty change: %v", f.calls)
	}
}

// TestActionHostileEvent: a pull request's title, body and branch name
// that a shell would run, and a .gitctx.yml of its own with a
// --context-cmd, run nothing: the Action takes commit ids from the event
// and its settings from the base commit, and the title and description
// are in the pack as data (§5 cases 18 and 21).
func TestActionHostileEvent(t *testing.T) {
	r := reviewRepo(t)
	pwned := filepath.Join(t.TempDir(), "pwned")
	hostile := "$(touch " + pwned + ") `touch " + pwned + "` \"; touch " + pwned + "; #"
	r.Git("checkout", "-q", "-b", "zzz\";touch${IFS}"+pwned+";#")
	r.Write(".gitctx.yml", "context_cmd: touch "+pwned+"\n")
	r.Write("greet.go", "package greet\n\n// "+hostile+"\nfunc Hi() string { return \"hey\" }\n")
	r.Commit(hostile)
	env, dir := runnerEnv(t, r.Rev("main"), r.Rev("HEAD"), true)
	event := map[string]any{"action": "opened", "number": 7, "pull_request": map[string]any{
		"number": 7, "title": hostile, "body": hostile,
		"base": map[string]any{"sha": r.Rev("main"), "ref": "main", "repo": map[string]any{"full_name": "octo/demo"}},
		"head": map[string]any{"sha": r.Rev("HEAD"), "ref": "zzz\";touch${IFS}" + pwned + ";#", "label": hostile,
			"repo": map[string]any{"full_name": "forker/demo", "fork": true}},
	}}
	data, _ := json.Marshal(event)
	if err := os.WriteFile(env["GITHUB_EVENT_PATH"], data, 0o644); err != nil {
		t.Fatal(err)
	}
	env["GITHUB_HEAD_REF"] = "zzz\";touch${IFS}" + pwned + ";#"
	res := gitctxRun(env, "action")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if _, err := os.Stat(pwned); !os.IsNotExist(err) {
		t.Fatalf("something from the pull request was run: %s exists", pwned)
	}
	pack, _ := os.ReadFile(filepath.Join(dir, "gitctx", "pack.md"))
	if !strings.Contains(string(pack), hostile) {
		t.Errorf("the hostile subject is not in the pack as data")
	}
	if !strings.Contains(string(pack), "- Pull request: #7 ") || !strings.Contains(string(pack), "### Pull request description\n\n```text\n"+hostile+"\n```") {
		t.Errorf("the pull request's title and description are not in the pack as data:\n%s", pack)
	}
}

// TestActionOutputHygiene: content, file names and a model answer full of
// workflow commands and escape sequences leave stdout with only the pause
// of workflow commands, stderr with no raw control byte, and the comment
// with no command line (§5 case 19).
func TestActionOutputHygiene(t *testing.T) {
	cf := loadCreds(t)
	pat := makeCred(t, cf, "github-pat", "hygiene")
	r := reviewRepo(t)
	evil := "::error file=x::owned\n::set-output name=approved::true\n::add-mask::x\n\x1b]0;owned\x07\x1b[2J\x9b31m\n"
	r.Write("esc\x1b]0;owned\x07\x1b[31m.go", "package greet\n\n// "+evil+"var k = \""+pat.Token+"\"\n")
	r.Write("::warning::name.txt", evil)
	r.Commit("::error::subject \x1b[31m")
	answer := "::set-output name=verdict::approve\n  ::error::x\n##[warning]y\n\x1b]0;title\x07\x1b[31mred\n" + reviewAnswer
	f, _, url := captureAPIs(t, answer)
	env, dir := runnerEnv(t, r.Rev("HEAD~1"), r.Rev("HEAD"), false)
	for k, v := range reviewEnv(url) {
		env[k] = v
	}
	env["GITCTX_PROVIDER"], env["GITCTX_MODEL"], env["GITCTX_FAIL_ON_SECRETS"] = "openai", "gpt-4.1", "true"
	res := gitctxRun(env, "action")
	if res.code != exitSecrets || f.count("chat") != 1 {
		t.Fatalf("exit %d (want %d, the change adds a credential), calls %v: %s", res.code, exitSecrets, f.calls, res.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(res.stdout, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "::stop-commands::") || lines[1] != "::"+strings.TrimPrefix(lines[0], "::stop-commands::")+"::" {
		t.Errorf("stdout is more than the pause of workflow commands:\n%q", res.stdout)
	}
	if strings.ContainsAny(res.stderr, "\x1b\x07\u009b") {
		t.Errorf("stderr holds a raw control character:\n%q", res.stderr)
	}
	if !strings.Contains(res.stderr, "github-pat") {
		t.Errorf("stderr does not name the credential's rule:\n%s", res.stderr)
	}
	all := texts(t, res, f, nil, dir)
	noneOf(t, all, pat.Token)
	for name, text := range all {
		if !strings.HasPrefix(name, "comment") {
			continue
		}
		for _, l := range strings.Split(text, "\n") {
			if trimmed := strings.TrimLeft(l, " \t"); strings.HasPrefix(trimmed, "::") || strings.HasPrefix(trimmed, "##[") || strings.ContainsAny(l, "\x1b\x07") {
				t.Errorf("%s: a workflow command or control byte: %q", name, l)
			}
		}
	}
}

// TestFailOnRotatedKey: --fail-on-secrets (and so the pre-commit hook)
// blocks a private key rotated in place, whose BEGIN line is outside the
// hunk (§5 case 6).
func TestFailOnRotatedKey(t *testing.T) {
	r := reviewRepo(t)
	key := func(tail string) string {
		var b strings.Builder
		b.WriteString("key: |\n  -----BEGIN RSA PRIVATE KEY-----\n")
		for i := range 10 {
			c := expandCred(t, "private-key", "{b64:64}", fmt.Sprintf("rotated/common/%d", i))
			b.WriteString("  " + c.Token + "\n")
		}
		for i := range 2 {
			c := expandCred(t, "private-key", "{b64:64}", fmt.Sprintf("rotated/%s/%d", tail, i))
			b.WriteString("  " + c.Token + "\n")
		}
		b.WriteString("  -----END RSA PRIVATE KEY-----\n")
		return b.String()
	}
	r.Write("deploy/tls.yaml", key("old"))
	r.Commit("key")
	r.Write("deploy/tls.yaml", key("new"))
	r.Git("add", "-A")
	res := gitctxRun(nil, "pack", "--staged", "--fail-on-secrets", "--out", t.TempDir(), "--progress", "never")
	if res.code != exitSecrets || !strings.Contains(res.stderr, "deploy/tls.yaml:13: private-key") || !strings.Contains(res.stderr, "deploy/tls.yaml:14: private-key") {
		t.Errorf("exit %d, want %d naming lines 13 and 14:\n%s", res.code, exitSecrets, res.stderr)
	}
}

// TestHugeFiles: a 5 MB file and a 300 KB single-line minified file, each
// with a credential at its very end: the caps are in the record, the
// credential nowhere, in bounded time (§5 case 12).
func TestHugeFiles(t *testing.T) {
	cf := loadCreds(t)
	pat, aws := makeCred(t, cf, "github-pat", "huge"), makeCred(t, cf, "aws-access-token", "minified")
	r := reviewRepo(t)
	var big strings.Builder
	for i := 0; big.Len() < 5<<20; i++ {
		fmt.Fprintf(&big, "line %d of a five megabyte file, padded with some ordinary words\n", i)
	}
	big.WriteString("token = \"" + pat.Token + "\"\n")
	r.Write("data/huge.txt", big.String())
	r.Write("web/app.min.js", "var a='"+strings.Repeat("x=y+z;", 300<<10/6)+"';var k='"+aws.Token+"';\n")
	r.Commit("huge")
	for _, extra := range [][]string{nil, {"--max-tokens", "1000000"}} {
		t.Run(fmt.Sprint(extra), func(t *testing.T) {
			out := t.TempDir()
			start := time.Now()
			res := gitctxRun(nil, append([]string{"pack", "HEAD~1..HEAD", "--out", out, "--progress", "never"}, extra...)...)
			if d := time.Since(start); d > time.Minute {
				t.Errorf("the pack took %v", d)
			}
			o := readOutputs(t, "huge", out, res)
			noLeak(t, o, pat, aws)
			files := map[string]string{}
			for _, f := range o.rec.Files {
				files[f.Path] = f.ExclusionReason + "/" + f.Representation
			}
			if files["data/huge.txt"] != "size_limit/name_only" {
				t.Errorf("data/huge.txt: %q, want excluded by the size limit", files["data/huge.txt"])
			}
			if rep := files["web/app.min.js"]; rep != "/name_only" && !strings.HasSuffix(rep, "/full") && !strings.Contains(rep, "excerpt") {
				t.Errorf("web/app.min.js: %q", rep)
			}
			if extra != nil && !strings.Contains(o.pack, "[REDACTED:aws-access-token#") {
				t.Errorf("with room for it, the minified file's credential is not shown redacted")
			}
		})
	}
}

// TestEncodingsGiveValidUTF8: UTF-16 with and without a byte-order mark,
// Latin-1, invalid UTF-8, CRLF and a NUL past git's binary sniff give a
// pack of valid UTF-8 without NUL in every format, and the XML and JSON
// parse (§5 case 7).
func TestEncodingsGiveValidUTF8(t *testing.T) {
	r := reviewRepo(t)
	be := func(s string) []byte {
		var out []byte
		for _, c := range s {
			out = append(out, 0, byte(c))
		}
		return out
	}
	r.write("utf16-bom.txt", utf16LE("wide text with a BOM\nsecond line\n"))
	r.write("utf16-nobom.txt", utf16LE("wide text without a BOM\n")[2:])
	r.write("utf16be.txt", be("big endian text\n"))
	r.write("latin1.txt", []byte("caf\xe9 cr\xe8me br\xfbl\xe9e\n"))
	r.write("broken.txt", []byte("valid start \xc3\x28 \xff\xfe \xed\xa0\x80 end\n"))
	r.write("crlf.txt", []byte("one\r\ntwo\r\n"))
	r.write("late-nul.txt", []byte(strings.Repeat("filler line\n", 900)+"a NUL \x00 late\n"))
	r.Commit("encodings")
	for _, format := range []string{"markdown", "xml", "json"} {
		t.Run(format, func(t *testing.T) {
			o := packTo(t, format, nil)
			if !utf8.ValidString(o.pack) || strings.ContainsRune(o.pack, 0) {
				t.Errorf("the pack is not valid UTF-8 without NUL")
			}
			for _, want := range []string{"wide text with a BOM", "wide text without a BOM", "big endian text", "café crème brûlée", "valid start", "one"} {
				if !strings.Contains(o.pack, want) {
					t.Errorf("the pack lacks %q", want)
				}
			}
			switch format {
			case "json":
				var v any
				if err := json.Unmarshal([]byte(o.pack), &v); err != nil {
					t.Errorf("the JSON pack does not parse: %v", err)
				}
			case "xml":
				d := xml.NewDecoder(strings.NewReader(o.pack))
				for {
					if _, err := d.Token(); err == io.EOF {
						break
					} else if err != nil {
						t.Fatalf("the XML pack does not parse: %v", err)
					}
				}
			}
		})
	}
}

// TestInterrupted: a cancelled run exits 130 and leaves earlier outputs as
// they were; a review cancelled while the model thinks posts nothing.
func TestInterrupted(t *testing.T) {
	reviewRepo(t)
	out := t.TempDir()
	if res := gitctxRun(nil, "pack", "HEAD~1..HEAD", "--out", out, "--progress", "never"); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	before := texts(t, cliResult{}, nil, nil, out)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stderr bytes.Buffer
	code := run(ctx, []string{"pack", "HEAD~1..HEAD", "--out", out, "--max-tokens", "5000"}, strings.NewReader(""), io.Discard, &stderr, func(string) string { return "" })
	if code != exitCancelled || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("exit %d, want %d: %s", code, exitCancelled, stderr.String())
	}
	if after := texts(t, cliResult{}, nil, nil, out); !reflect.DeepEqual(after, before) {
		t.Errorf("the cancelled run changed the output directory")
	}

	f, inner := newFakeAPIs(t, reviewAnswer)
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" {
			_, _ = io.Copy(io.Discard, r.Body) // so that the server sees the client go
			f.record("chat")
			cancel() // the user presses ^C while the model thinks
			select {
			case <-r.Context().Done():
			case <-time.After(20 * time.Second):
			}
			return
		}
		inner.Config.Handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	env := reviewEnv(srv.URL)
	code = run(ctx, []string{"review", "HEAD~1..HEAD", "--provider", "openai", "--model", "gpt-4.1", "--pr", "7", "--out", t.TempDir(), "--progress", "never"},
		strings.NewReader(""), io.Discard, &stderr, func(k string) string { return env[k] })
	if code != exitCancelled || f.count("chat") != 1 || f.count("create") != 0 || len(f.comments) != 0 {
		t.Errorf("exit %d, calls %v: a cancelled review must exit %d and post nothing", code, f.calls, exitCancelled)
	}
}
