//go:build unix

package gitctx

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestGitInterrupted: a git process that a terminal's Ctrl-C stopped (the
// whole process group gets SIGINT, git may die of it before gitctx's own
// handler cancels the run) reports a cancellation, not a failure.
func TestGitInterrupted(t *testing.T) {
	dir := t.TempDir()
	// a "git" that waits to be interrupted, first on PATH
	fake := filepath.Join(dir, "git")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho $$ > \"$PIDFILE\"\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	pidFile := filepath.Join(dir, "pid")
	g := &git{dir: dir, env: []string{"PIDFILE=" + pidFile}}
	done := make(chan error, 1)
	go func() {
		_, err := g.output(context.Background(), nil, "log")
		done <- err
	}()
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if data, err := os.ReadFile(pidFile); err == nil && len(data) > 1 && data[len(data)-1] == '\n' {
			pid = atoi(string(data[:len(data)-1])) // written whole: a pid and its newline
		}
	}
	if pid <= 1 {
		t.Fatalf("the fake git did not start (pid %d)", pid)
	}
	if err := syscall.Kill(pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := <-done
	if !errors.Is(err, context.Canceled) {
		t.Errorf("git stopped by SIGINT: %v, want an error wrapping context.Canceled", err)
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// TestReadEachOldGit: with a git whose cat-file has no --batch-command
// (before 2.36), ReadEach reads the same with a --batch-check and a
// --batch, and stops asking for --batch-command.
func TestReadEachOldGit(t *testing.T) {
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not on PATH")
	}
	dir := t.TempDir()
	script := "#!/bin/sh\nfor a in \"$@\"; do\n  if [ \"$a\" = --batch-command ]; then\n" +
		"    echo \"error: unknown option \\`batch-command'\" >&2\n    echo 'usage: git cat-file <type> <object>' >&2\n    exit 129\n  fi\ndone\n" +
		"exec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	c := checkReadEach(t)
	if !c.repo.noBatchCommand.Load() {
		t.Errorf("ReadEach did not notice that git has no --batch-command")
	}
}
