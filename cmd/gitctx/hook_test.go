package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookScript runs the hook scripts that read git's input (pre-push,
// pre-receive) with sh: a gitctx path that needs quoting, a chained hook
// that runs first, both reading the same input, and the chained hook's
// failure stopping the push.
func TestHookScript(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, tt := range []struct {
		hook  string
		args  []string
		input string
	}{
		{"pre-push", []string{"origin", "https://example.com/r.git"}, "refs/heads/main 1111 refs/heads/main 2222"},
		{"pre-receive", nil, "1111 2222 refs/heads/main"},
	} {
		t.Run(tt.hook, func(t *testing.T) {
			testHookScript(t, tt.hook, tt.args, tt.input)
		})
	}
}

func testHookScript(t *testing.T, name string, args []string, input string) {
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
	writeExec(t, filepath.Join(hooks, name+".gitctx-chained"), `#!/bin/sh
echo "chained $*: $(cat)" >>"$LOG"
exit "${CHAINED_EXIT:-0}"
`)
	hook := filepath.Join(hooks, name)
	writeExec(t, hook, string(hookScript(name, filepath.Join(bin, "gitctx"))))

	run := func(env ...string) (string, error) {
		t.Helper()
		_ = os.Remove(log)
		cmd := exec.Command(hook, args...)
		cmd.Env = append(os.Environ(), append(env, "LOG="+log, "PATH=/usr/bin:/bin")...)
		cmd.Stdin = strings.NewReader(input + "\n")
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
	want := "chained " + strings.Join(args, " ") + ": " + input + "\n" + // sh's $* of no arguments is ""
		strings.Join(append([]string{"gitctx hook run", name}, args...), " ") + ": " + input + "\n"
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

// TestHookInstallWarnings: install warns when the hook it writes cannot
// find gitctx (it calls gitctx on PATH, and there is none), and when
// husky owns the hooks directory; a chained husky stub still finds the
// user's husky script by its name.
func TestHookInstallWarnings(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	r := newTestRepo(t)
	t.Chdir(r.Dir)
	bin := t.TempDir()
	writeExec(t, filepath.Join(bin, "gitctx"), "#!/bin/sh\nexit 0\n")

	res := gitctxRun(map[string]string{"PATH": "/usr/bin:/bin"}, "hook", "install")
	if res.code != 0 || !strings.Contains(res.stderr, "the hook runs gitctx from PATH, where there is none: every commit stops") {
		t.Errorf("no gitctx on PATH: exit %d, stderr:\n%s\nwant a warning", res.code, res.stderr)
	}
	res = gitctxRun(map[string]string{"PATH": bin + ":/usr/bin:/bin"}, "hook", "install")
	if res.code != 0 || strings.Contains(res.stderr, "warning") {
		t.Errorf("gitctx on PATH: exit %d, stderr:\n%s\nwant no warning", res.code, res.stderr)
	}

	// what husky v9 writes: .husky/_ as core.hooksPath, a stub per hook
	// that sources h, which runs .husky/<name of the stub>
	r.Git("config", "core.hooksPath", ".husky/_")
	if err := os.MkdirAll(filepath.Join(r.Dir, ".husky", "_"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeExec(t, filepath.Join(r.Dir, ".husky", "_", "h"), `#!/usr/bin/env sh
n=$(basename "$0")
s=$(dirname "$(dirname "$0")")/$n
[ ! -f "$s" ] && exit 0
sh -e "$s" "$@"
exit $?
`)
	writeExec(t, filepath.Join(r.Dir, ".husky", "_", "pre-commit"), "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n")
	writeExec(t, filepath.Join(r.Dir, ".husky", "pre-commit"), "echo husky-user-hook-ran >&2\nexit 1\n")
	res = gitctxRun(map[string]string{"PATH": bin + ":/usr/bin:/bin"}, "hook", "install")
	if res.code != 0 || !strings.Contains(res.stderr, "husky manages .husky/_") || !strings.Contains(res.stderr, "to .husky/pre-commit instead") {
		t.Errorf("husky: exit %d, stderr:\n%s\nwant a warning naming .husky/pre-commit", res.code, res.stderr)
	}
	cmd := exec.Command(filepath.Join(r.Dir, ".husky", "_", "pre-commit"))
	cmd.Dir = r.Dir
	cmd.Env = append(os.Environ(), "PATH="+bin+":/usr/bin:/bin")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "husky-user-hook-ran") {
		t.Errorf("the chained husky stub: err = %v, output %q; want the user's husky script run, and its exit 1", err, out)
	}
}
