package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookScript runs the pre-push hook script with sh: a gitctx path that
// needs quoting, a chained hook that runs first, both reading the same
// input, and the chained hook's failure stopping the push.
func TestHookScript(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, `it's "a" $dir`)
	hooks := filepath.Join(dir, "hooks")
	for _, d := range []string{bin, hooks} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(dir, "log")
	writeExec(t, filepath.Join(bin, "gitctx"), `#!/bin/sh
echo "gitctx $*: $(cat)" >>"$LOG"
`)
	writeExec(t, filepath.Join(hooks, "pre-push.gitctx-chained"), `#!/bin/sh
echo "chained $*: $(cat)" >>"$LOG"
exit "${CHAINED_EXIT:-0}"
`)
	hook := filepath.Join(hooks, "pre-push")
	writeExec(t, hook, string(hookScript("pre-push", filepath.Join(bin, "gitctx"))))

	run := func(env ...string) (string, error) {
		t.Helper()
		_ = os.Remove(log)
		cmd := exec.Command(hook, "origin", "https://example.com/r.git")
		cmd.Env = append(os.Environ(), append(env, "LOG="+log, "PATH=/usr/bin:/bin")...)
		cmd.Stdin = strings.NewReader("refs/heads/main 1111 refs/heads/main 2222\n")
		out, err := cmd.CombinedOutput()
		data, _ := os.ReadFile(log)
		if len(out) > 0 {
			t.Logf("hook output: %s", out)
		}
		return string(data), err
	}
	got, err := run()
	if err != nil {
		t.Fatalf("hook: %v", err)
	}
	want := "chained origin https://example.com/r.git: refs/heads/main 1111 refs/heads/main 2222\n" +
		"gitctx hook run pre-push origin https://example.com/r.git: refs/heads/main 1111 refs/heads/main 2222\n"
	if got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}

	got, err = run("CHAINED_EXIT=7")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Errorf("chained hook failing: err = %v, want exit status 7", err)
	}
	if strings.Contains(got, "gitctx hook run") {
		t.Errorf("gitctx ran after the chained hook failed:\n%s", got)
	}

	got, err = run("GITCTX_SKIP=1")
	if err != nil || strings.Contains(got, "gitctx hook run") || !strings.Contains(got, "chained") {
		t.Errorf("GITCTX_SKIP=1: err = %v, log:\n%s\nwant the chained hook only", err, got)
	}
}

func writeExec(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestStableExecutable checks which programs a hook may call by path.
func TestStableExecutable(t *testing.T) {
	for exe, want := range map[string]bool{
		"/usr/local/bin/gitctx":                  true,
		"/home/ada/go/bin/gitctx":                true,
		"/tmp/go-build1234/b001/exe/gitctx":      false, // go run
		"/tmp/go-build1234/b001/gitctx.test":     false, // go test
		"/home/ada/src/gitctx/cmd/gitctx/gitctx": true,
		"/usr/local/bin/gitctx-old":              false,
		"gitctx":                                 false,
	} {
		if got := stableExecutable(exe); got != want {
			t.Errorf("stableExecutable(%q) = %v, want %v", exe, got, want)
		}
	}
}
