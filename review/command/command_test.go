package command

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gitctx/gitctx/review"
)

// script writes an executable sh script into a temporary directory and
// returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("needs sh")
	}
	path := filepath.Join(t.TempDir(), "model.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

var req = review.Request{Model: "gpt-4o", System: "You review code.", Prompt: "the pack\n"}

func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		name    string
		body    string // the script
		useArgs bool   // run it as argv instead of through sh -c
		want    string
		wantErr error
	}{
		{name: "stdin is the prompt", body: "printf 'got: '; cat", want: "got: You review code.\n\nthe pack\n"},
		{name: "as argv", body: "cat", useArgs: true, want: "You review code.\n\nthe pack\n"},
		{name: "stderr is not the answer", body: "echo warning >&2; echo answer", want: "answer\n"},
		{name: "empty output", body: "cat >/dev/null; printf '\\n  \\n'", wantErr: review.ErrNoAnswer},
		{name: "output that is too large", body: "head -c 40000000 /dev/zero", wantErr: errTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := script(t, tc.body)
			cfg := Config{Command: "MODEL=x " + path + " -m gpt-4o"}
			if tc.useArgs {
				cfg = Config{Args: []string{path, "-m", "gpt-4o"}}
			}
			c, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if c.Endpoint() != "model.sh" || c.Name() != "command" {
				t.Errorf("endpoint %q, name %q", c.Endpoint(), c.Name())
			}
			got, err := c.Complete(t.Context(), req)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("got %v, want %v", err, tc.wantErr)
				}
				return
			}
			want := review.Answer{Text: tc.want, Model: "gpt-4o"}
			if err != nil || got != want {
				t.Fatalf("got %+v, %v; want %+v", got, err, want)
			}
		})
	}
}

func TestExitStatus(t *testing.T) {
	noise := strings.Repeat("x", 5000)
	path := script(t, `cat >/dev/null
printf '`+noise+`\n' >&2
printf 'error: \033[31mno key\033[0m \033]0;title\007for model\r\n\001' >&2
exit 3`)
	c, err := New(Config{Command: path})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(t.Context(), req)
	var exit *ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("got %v, want an ExitError", err)
	}
	if exit.Status != 3 || !strings.HasSuffix(exit.Stderr, "error: no key for model") || len(exit.Stderr) > 2048 {
		t.Errorf("got status %d, stderr %q", exit.Status, exit.Stderr)
	}
	if !strings.HasPrefix(err.Error(), "command model.sh exited with status 3: xxx") {
		t.Errorf("got %q", err)
	}
}

func TestTimeoutKillsTheGroup(t *testing.T) {
	// The grandchild holds stdout open: unless the whole group is killed,
	// Run waits for it (up to waitDelay).
	path := script(t, "sleep 30 & sleep 30; wait")
	c, err := New(Config{Command: path, Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c.Complete(t.Context(), req)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "did not finish within 100ms") {
		t.Fatalf("got %v, want a timeout", err)
	}
	if runtime.GOOS != "windows" && time.Since(start) >= waitDelay {
		t.Errorf("took %v: the command's children were not killed", time.Since(start))
	}
}

func TestCancelled(t *testing.T) {
	path := script(t, "sleep 30")
	c, err := New(Config{Command: path})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := c.Complete(ctx, req); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestEnvironment(t *testing.T) {
	path := script(t, `printf '%s' "$GITCTX_TEST_VAR"`)
	t.Setenv("GITCTX_TEST_VAR", "inherited")
	for _, tc := range []struct {
		env  []string
		want string
	}{{nil, "inherited"}, {[]string{"GITCTX_TEST_VAR=given"}, "given"}} {
		c, err := New(Config{Command: path, Env: tc.env})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := c.Complete(t.Context(), req); err != nil || got.Text != tc.want {
			t.Errorf("env %v: got %q, %v; want %q", tc.env, got.Text, err, tc.want)
		}
	}
}

func TestNew(t *testing.T) {
	for _, cfg := range []Config{{}, {Command: "  "}, {Command: "llm", Args: []string{"llm"}}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	for line, want := range map[string]string{
		"llm -m gpt-4o": "llm",
		"OPENAI_API_KEY=sk-secret /usr/bin/claude -p": "claude",
		"A=1 B=2": "sh",
	} {
		c, err := New(Config{Command: line})
		if err != nil || c.Endpoint() != want {
			t.Errorf("%q: got %v, %v; want %q", line, c, err, want)
		}
	}
}
