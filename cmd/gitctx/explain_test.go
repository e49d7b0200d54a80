package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/pack/recordtest"
)

// TestReviewRecordsMatchSchema: the records gitctx review writes, with
// their delivery and the answer's redactions filled in, match the
// schema, and explain shows where the review went.
func TestReviewRecordsMatchSchema(t *testing.T) {
	reviewRepo(t)
	_, srv := newFakeAPIs(t, reviewAnswer)
	script := filepath.Join(t.TempDir(), "model.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null; echo 'fine'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string // in the explanation
	}{
		{"github", []string{"--provider", "openai", "--model", "gpt-4.1", "--pr", "7"}, "Delivery  github, model gpt-4.1"},
		{"file", []string{"--provider", "command", "--command", script, "--post", "file"}, "Delivery  file"},
		{"none", []string{"--provider", "none"}, "Budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"review", "HEAD~1..HEAD", "--out", out}, tt.args...)
			if tt.name == "file" {
				args = append(args, "--post-file", filepath.Join(out, "posted.md"))
			}
			if res := gitctxRun(reviewEnv(srv.URL), args...); res.code != 0 {
				t.Fatalf("exit %d: %s", res.code, res.stderr)
			}
			data, err := os.ReadFile(filepath.Join(out, "record.json"))
			if err != nil {
				t.Fatal(err)
			}
			recordtest.Check(t, data)
			res := gitctxRun(nil, "explain", filepath.Join(out, "record.json"))
			if res.code != 0 || !strings.Contains(res.stdout, tt.want) {
				t.Errorf("explain: exit %d, stdout lacks %q:\n%s%s", res.code, tt.want, res.stdout, res.stderr)
			}
		})
	}
}

func TestUseColor(t *testing.T) {
	for _, tt := range []struct {
		mode string
		tty  bool
		env  string // NAME=value
		want bool
	}{
		{"auto", true, "", true},
		{"auto", false, "", false},
		{"auto", true, "NO_COLOR=1", false},
		{"auto", true, "TERM=dumb", false},
		{"always", false, "NO_COLOR=1", true},
		{"never", true, "", false},
	} {
		name, value, _ := strings.Cut(tt.env, "=")
		getenv := func(k string) string {
			if k == name {
				return value
			}
			return ""
		}
		if got := useColor(tt.mode, tt.tty, getenv); got != tt.want {
			t.Errorf("useColor(%s, tty %v, %s) = %v, want %v", tt.mode, tt.tty, tt.env, got, tt.want)
		}
	}
}
