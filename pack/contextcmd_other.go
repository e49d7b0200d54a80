//go:build !unix

package pack

import "os/exec"

// killGroup leaves the default: the command itself is killed when it is
// cancelled (and WaitDelay stops the wait for what it started).
func killGroup(*exec.Cmd) {}
