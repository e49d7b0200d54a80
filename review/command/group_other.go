//go:build !unix

package command

import "os/exec"

// ownProcessGroup does nothing where there are no process groups:
// cancelling kills the command itself.
func ownProcessGroup(*exec.Cmd) {}
