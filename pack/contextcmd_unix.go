//go:build unix

package pack

import (
	"os/exec"
	"syscall"
)

// killGroup starts the command in a process group of its own and, when it
// is cancelled, kills the whole group: sh -c and everything it started.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
