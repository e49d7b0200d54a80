// Package command sends a review to a local program, such as `llm -m
// gpt-4o` or `claude -p`: the prompt (the system instruction, a blank line
// and the user prompt) goes to its standard input and its standard output
// is the answer.
//
// A command line given as a string runs with `sh -c`; it comes from the
// user's flag or configuration, never from the change under review. Given
// as Args it runs without a shell. The program inherits gitctx's
// environment unless Config.Env says otherwise: that is how a tool such
// as llm or claude finds its own key, and also why the command must be
// one the user trusts.
//
// The program runs in a process group of its own (on Unix) that is killed
// when the timeout passes or ctx is cancelled, so that a child it started
// cannot keep it alive. A non-zero exit is an *ExitError carrying the end
// of its standard error, cleaned of terminal control sequences.
package command

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gitctx/gitctx/review"
)

const (
	// DefaultTimeout bounds one run of the command.
	DefaultTimeout = 10 * time.Minute
	// maxOutput bounds the answer read from standard output.
	maxOutput = 32 << 20
	// stderrTail is how much of standard error an ExitError keeps.
	stderrTail = 2 << 10
	// waitDelay is how long Wait waits for the output pipes after the
	// process is killed, in case something outside its group holds them.
	waitDelay = 5 * time.Second
	name      = "command"
)

// Config says what to run.
type Config struct {
	// Command is a command line run with sh -c. Exactly one of Command
	// and Args is set.
	Command string
	// Args is the program and its arguments, run without a shell.
	Args []string
	// Timeout bounds a run; DefaultTimeout when zero.
	Timeout time.Duration
	// Env is the program's environment; nil means gitctx's own.
	Env []string
	// Dir is the program's working directory; gitctx's when empty.
	Dir string
}

// Command is a review.Provider that runs a local program.
type Command struct {
	argv    []string
	timeout time.Duration
	env     []string
	dir     string
	program string
}

var _ review.Provider = (*Command)(nil)

// ExitError is a command's failure: a non-zero exit status (-1 when it was
// killed by a signal) and the end of what it wrote to standard error.
type ExitError struct {
	Program string
	Status  int
	Stderr  string
	err     error
}

func (e *ExitError) Error() string {
	stderr := e.Stderr
	if stderr == "" {
		stderr = "(nothing on stderr)"
	}
	return fmt.Sprintf("command %s exited with status %d: %s", e.Program, e.Status, stderr)
}

// Unwrap returns the *exec.ExitError.
func (e *ExitError) Unwrap() error { return e.err }

// New checks cfg and returns a provider.
func New(cfg Config) (*Command, error) {
	var argv []string
	switch {
	case (strings.TrimSpace(cfg.Command) == "") == (len(cfg.Args) == 0):
		return nil, errors.New("command: give either a command line or the program and its arguments")
	case len(cfg.Args) > 0:
		argv = cfg.Args
	default:
		argv = []string{"sh", "-c", cfg.Command}
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &Command{
		argv:    argv,
		timeout: cfg.Timeout,
		env:     cfg.Env,
		dir:     cfg.Dir,
		program: programName(cfg),
	}, nil
}

// Name is "command".
func (c *Command) Name() string { return name }

// Endpoint is the program's name: the first word of the command line
// that is not a variable assignment, without its directory.
func (c *Command) Endpoint() string { return c.program }

// Complete runs the command with the prompt on its standard input and
// returns its standard output. req.Model and req.MaxOutputTokens are the
// command's own business; Answer.Model is req.Model as given.
func (c *Command) Complete(ctx context.Context, req review.Request) (review.Answer, error) {
	runCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, c.argv[0], c.argv[1:]...)
	cmd.Env, cmd.Dir, cmd.WaitDelay = c.env, c.dir, waitDelay
	ownProcessGroup(cmd)
	input := req.Prompt
	if req.System != "" {
		input = req.System + "\n\n" + req.Prompt
	}
	cmd.Stdin = strings.NewReader(input)
	var stdout capped
	var stderr tail
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return review.Answer{}, fmt.Errorf("command %s: %w", c.program, ctx.Err())
	case runCtx.Err() != nil:
		return review.Answer{}, fmt.Errorf("command %s did not finish within %s: %w", c.program, c.timeout, runCtx.Err())
	case stdout.full:
		return review.Answer{}, fmt.Errorf("command %s: %w", c.program, errTooLarge)
	case err != nil:
		return review.Answer{}, c.failure(err, stderr.String())
	case strings.TrimSpace(stdout.String()) == "":
		return review.Answer{}, fmt.Errorf("command %s wrote nothing: %w", c.program, review.ErrNoAnswer)
	}
	return review.Answer{Text: stdout.String(), Model: req.Model}, nil
}

func (c *Command) failure(err error, stderr string) error {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return &ExitError{Program: c.program, Status: exit.ExitCode(), Stderr: clean(stderr), err: err}
	}
	return fmt.Errorf("run command %s: %w", c.program, err)
}

// programName is what Endpoint reports.
func programName(cfg Config) string {
	if len(cfg.Args) > 0 {
		return filepath.Base(cfg.Args[0])
	}
	for _, w := range strings.Fields(cfg.Command) {
		if !strings.Contains(w, "=") {
			return filepath.Base(w)
		}
	}
	return "sh"
}
