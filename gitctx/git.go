package gitctx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
)

// gitConfig is passed to every git command so that a user's configuration
// cannot change what gitctx parses: no pager, no colour, no quoting of
// non-ASCII names, no custom prefixes, no external diff drivers, no line
// numbers in what grep finds. A colour set for one command (color.diff)
// wins over color.ui, so each is turned off by name: a diff in colour
// parses as no hunks at all. Nor can it make git refuse what gitctx asks:
// submodule.recurse makes `git grep --untracked` an error, log.follow a
// `git log` of several paths, and log.showRoot=false hides the root
// commit's files from the history.
var gitConfig = []string{
	"-c", "core.quotePath=false",
	"-c", "color.ui=never",
	"-c", "color.diff=never",
	"-c", "color.grep=never",
	"-c", "color.showBranch=never",
	"-c", "grep.lineNumber=false",
	"-c", "grep.column=false",
	"-c", "diff.relative=false",
	"-c", "core.pager=cat",
	"-c", "diff.noprefix=false",
	"-c", "diff.mnemonicPrefix=false",
	"-c", "diff.external=",
	"-c", "log.showSignature=false",
	"-c", "log.follow=false",
	"-c", "log.showRoot=true",
	"-c", "submodule.recurse=false",
	"--no-optional-locks",
	"--literal-pathspecs",
}

// git runs the git CLI in one directory.
type git struct {
	dir   string
	env   []string // extra variables on top of the process environment
	magic bool     // pathspec magic on (see withMagic)
}

// withMagic returns a runner whose pathspecs may carry magic, such as
// ":(icase)*.go"; a path must then be given as ":(literal)path". The
// environment's pathspec settings are turned off, so that the magic each
// pathspec names is all that applies.
func (g *git) withMagic() *git {
	m := *g
	m.magic = true
	m.env = append(slices.Clip(g.env), "GIT_LITERAL_PATHSPECS=0", "GIT_GLOB_PATHSPECS=0", "GIT_NOGLOB_PATHSPECS=0", "GIT_ICASE_PATHSPECS=0")
	return &m
}

// Error is a failed git command: the arguments and what git said.
type Error struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimPrefix(strings.TrimPrefix(msg, "fatal: "), "error: ")
	if msg == "" {
		msg = e.Err.Error()
	}
	if e.fetchFailed() {
		// git's first line is why the fetch failed; its last, that it did
		return fmt.Sprintf("git %s: this is a partial clone, and git could not fetch the file contents it lacks "+
			"from the remote they come from (%s); run where that remote can be reached, or in a full clone", e.subcommand(), msg)
	}
	if fix := safeDirectoryHint(e.Stderr); fix != "" {
		return fmt.Sprintf("git %s: %s: %s", e.subcommand(), msg, fix)
	}
	if missingObject(e.Stderr) {
		return fmt.Sprintf("git %s: %s: the repository lacks an object the change needs (a damaged clone, or "+
			"objects pruned or never fetched); git fsck lists what is missing, and fetching again or a fresh clone "+
			"restores it", e.subcommand(), msg)
	}
	return fmt.Sprintf("git %s: %s", e.subcommand(), msg)
}

// missingObject reports whether git failed for want of an object the
// repository should hold: "unable to read <id>", "bad object <id>",
// "missing blob object '<id>'".
func missingObject(stderr string) bool {
	for line := range strings.Lines(stderr) {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(line, "fatal: "), "error: "))
		for _, p := range []string{"unable to read ", "bad object ", "missing blob object ", "missing tree object ", "Could not read "} {
			if rest, ok := strings.CutPrefix(line, p); ok && objectID(strings.Trim(rest, "'")) {
				return true
			}
		}
	}
	return false
}

// objectID reports whether s starts with a full object id (SHA-1 or SHA-256).
func objectID(s string) bool {
	n := 0
	for n < len(s) && strings.IndexByte("0123456789abcdef", s[n]) >= 0 {
		n++
	}
	return n == 40 || n == 64
}

// safeDirectoryHint is git's advice for a repository another user owns
// (the command that marks it safe), which its first line leaves out; ""
// for any other failure.
func safeDirectoryHint(stderr string) string {
	if !strings.Contains(stderr, "dubious ownership") {
		return ""
	}
	for line := range strings.Lines(stderr) {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "git config --global --add safe.directory") {
			return "if you trust it, run " + t
		}
	}
	return "if you trust it, add it to git's safe.directory"
}

func (e *Error) Unwrap() error { return e.Err }

// fetchFailed reports whether git failed to fetch an object that a partial
// clone lacks from the remote it comes from.
func (e *Error) fetchFailed() bool { return strings.Contains(e.Stderr, "from promisor remote") }

// FetchFailed reports whether err is git failing to fetch what a partial
// clone lacks: its remote could not be reached.
func FetchFailed(err error) bool {
	var gerr *Error
	return errors.As(err, &gerr) && gerr.fetchFailed()
}

func (e *Error) subcommand() string {
	for _, a := range e.Args {
		if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
			return a
		}
	}
	return ""
}

func (g *git) command(ctx context.Context, args ...string) *exec.Cmd {
	config := gitConfig
	if g.magic {
		config = slices.DeleteFunc(slices.Clone(gitConfig), func(a string) bool { return a == "--literal-pathspecs" })
	}
	cmd := exec.CommandContext(ctx, "git", append(slices.Clone(config), args...)...)
	cmd.Dir = g.dir
	cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	if !g.magic {
		// --literal-pathspecs is refused beside any other global
		// pathspec setting a user may have in the environment
		cmd.Env = append(cmd.Env, "GIT_GLOB_PATHSPECS=0", "GIT_NOGLOB_PATHSPECS=0", "GIT_ICASE_PATHSPECS=0")
	}
	cmd.Env = append(cmd.Env, g.env...)
	return cmd
}

// output runs git and returns its standard output.
func (g *git) output(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := g.command(ctx, args...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if signalled(cmd.ProcessState) {
			return stdout.Bytes(), interrupted(args)
		}
		return stdout.Bytes(), g.wrap(ctx, args, stderr.String(), err)
	}
	return stdout.Bytes(), nil
}

// stream runs git and hands its standard output to read while it runs. If
// read returns an error, git is stopped and that error is returned.
func (g *git) stream(ctx context.Context, read func(io.Reader) error, args ...string) error {
	return g.streamFrom(ctx, nil, read, args...)
}

// streamFrom is stream with stdin (which may be nil) as git's input.
func (g *git) streamFrom(ctx context.Context, stdin io.Reader, read func(io.Reader) error, args ...string) error {
	p, err := g.start(ctx, stdin, args...)
	if err != nil {
		return err
	}
	readErr := read(p.out)
	if readErr != nil {
		p.kill()
	}
	waitErr := p.wait()
	if readErr != nil && !errors.Is(waitErr, errInterrupted) {
		return readErr
	}
	return waitErr
}

// process is a running git command whose output is read as it comes.
type process struct {
	out    io.Reader
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	cancel context.CancelFunc
	ctx    context.Context
	g      *git
	args   []string
}

// start runs git with stdin (which may be nil) and returns it running.
func (g *git) start(ctx context.Context, stdin io.Reader, args ...string) (*process, error) {
	p, _, err := g.begin(ctx, stdin, false, args)
	return p, err
}

// startWriting runs git with a pipe to its standard input, which the
// caller writes and closes, and returns it running.
func (g *git) startWriting(ctx context.Context, args ...string) (*process, io.WriteCloser, error) {
	return g.begin(ctx, nil, true, args)
}

func (g *git) begin(ctx context.Context, stdin io.Reader, pipeIn bool, args []string) (*process, io.WriteCloser, error) {
	ctx, cancel := context.WithCancel(ctx)
	cmd := g.command(ctx, args...)
	cmd.Stdin = stdin
	p := &process{cmd: cmd, stderr: &bytes.Buffer{}, cancel: cancel, ctx: ctx, g: g, args: args}
	cmd.Stderr = p.stderr
	var in io.WriteCloser
	var err error
	if pipeIn {
		if in, err = cmd.StdinPipe(); err != nil {
			cancel()
			return nil, nil, fmt.Errorf("git %s: %w", args[0], err)
		}
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, nil, g.wrap(ctx, args, "", err)
	}
	p.out = out
	return p, in, nil
}

// kill stops the process early; wait must still be called.
func (p *process) kill() {
	p.cancel()
	_, _ = io.Copy(io.Discard, p.out)
}

// wait waits for the process and reports how it ended.
func (p *process) wait() error {
	defer p.cancel()
	if err := p.cmd.Wait(); err != nil {
		if signalled(p.cmd.ProcessState) {
			return interrupted(p.args)
		}
		return p.g.wrap(p.ctx, p.args, p.stderr.String(), err)
	}
	return nil
}

// errInterrupted is a git process stopped by SIGINT or SIGTERM from
// outside gitctx. A terminal's Ctrl-C signals the whole process group, so
// git may die of it (and gitctx see its output cut short) before gitctx's
// own handler cancels the run: the run was interrupted all the same.
var errInterrupted = fmt.Errorf("interrupted: %w", context.Canceled)

func interrupted(args []string) error {
	return fmt.Errorf("git %s: %w", (&Error{Args: args}).subcommand(), errInterrupted)
}

// signalled reports whether a process was ended by SIGINT or SIGTERM
// (gitctx itself stops its git processes with SIGKILL).
func signalled(ps *os.ProcessState) bool {
	if ps == nil {
		return false
	}
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && (ws.Signal() == syscall.SIGINT || ws.Signal() == syscall.SIGTERM)
}

func (g *git) wrap(ctx context.Context, args []string, stderr string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	var execErr *exec.Error
	if errors.As(err, &execErr) {
		return fmt.Errorf("run git: %w (gitctx needs the git CLI, version 2.30 or later, on PATH)", err)
	}
	return &Error{Args: args, Stderr: stderr, Err: err}
}
