//go:build unix

package pack

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunContextCmdKillsGroup checks that a command stopped for its time
// takes the processes it started with it.
func TestRunContextCmdKillsGroup(t *testing.T) {
	dir := t.TempDir()
	_, err := RunContextCmd(context.Background(), dir, "sleep 600 >/dev/null & echo $! > child.pid; wait", 300*time.Millisecond)
	if !errors.Is(err, ErrContextCmdTimeout) {
		t.Fatalf("error %v, want a timeout", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !running(pid) {
			return
		}
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("the child %d still runs", pid)
}

// running reports whether a process exists and is not a zombie.
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: it exists
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z")
}
