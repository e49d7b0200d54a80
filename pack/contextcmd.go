package pack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Limits of RunContextCmd.
const (
	DefaultContextCmdTimeout = 30 * time.Second
	maxContextCmdOutput      = 1 << 20 // bytes of standard output kept
	maxContextCmdStderr      = 2 << 10 // bytes of standard error quoted in an error
	contextCmdWaitDelay      = 2 * time.Second
)

// ErrContextCmdTimeout means the context command ran out of time and was
// stopped.
var ErrContextCmdTimeout = errors.New("timed out")

// RunContextCmd runs a context command (--context-cmd) with sh -c in dir,
// the repository's root, and returns the lines it printed: the paths to
// give ContextOptions.CmdPaths (relative to dir, or absolute), which Build
// checks like any other. Empty lines are dropped. It gets no input. When it
// runs longer than timeout (default 30 s) it is killed with every process
// it started, and the error wraps ErrContextCmdTimeout; when it fails, the
// error quotes the start of its standard error; more than 1 MiB of output
// is an error too.
func RunContextCmd(ctx context.Context, dir, command string, timeout time.Duration) ([]string, error) {
	if timeout <= 0 {
		timeout = DefaultContextCmdTimeout
	}
	run, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(run, "sh", "-c", command)
	cmd.Dir = dir
	cmd.WaitDelay = contextCmdWaitDelay
	killGroup(cmd)
	stdout := &capped{max: maxContextCmdOutput, full: cancel}
	stderr := &capped{max: maxContextCmdStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case stdout.over:
		return nil, fmt.Errorf("context command %q printed more than %s bytes of paths", command, thousands(maxContextCmdOutput))
	case errors.Is(run.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("context command %q: %w after %s and was stopped", command, ErrContextCmdTimeout, timeout)
	case err != nil:
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("context command %q: %w: %s", command, err, msg)
		}
		return nil, fmt.Errorf("context command %q: %w", command, err)
	}
	if out := stdout.String(); strings.ContainsFunc(out, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\r' && r != '\t' }) {
		return nil, fmt.Errorf("context command %q printed something that is not text: it must print paths, one a line", command)
	}
	var paths []string
	for line := range strings.SplitSeq(stdout.String(), "\n") {
		if line = strings.TrimSuffix(line, "\r"); line != "" {
			paths = append(paths, line)
		}
	}
	return paths, nil
}

// capped keeps the first max bytes written to it and drops the rest; when
// it is full it calls full (which stops the command). It is only a Writer:
// a ReadFrom would let io.Copy around the cap.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
	full func()
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); len(p) > room {
		c.buf.Write(p[:max(room, 0)])
		if !c.over && c.full != nil {
			c.full()
		}
		c.over = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

func (c *capped) String() string { return c.buf.String() }
