package pack

import (
	"context"
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/secrets"
)

// ContextOptions say which files the user adds to a pack beyond the change
// and its neighbours: paths (--context), the paths a command printed
// (--context-cmd, run beforehand with [RunContextCmd]) and the files that
// best match a description (--context-query). They are read from the work
// tree. The zero value adds nothing.
//
// Every path is relative to the repository's root, or absolute inside it;
// symbolic links are resolved, and never followed out of the repository. A
// directory is walked: the files git lists there (tracked, and untracked
// ones not ignored by .gitignore), down to RecurseDepth, none under a
// default-excluded directory (node_modules, vendor, build …) below it, at
// most MaxFilesPerDir from each directory; a walk also leaves out, and
// records, the files Rules exclude by name (*.png, *.log …) and symbolic
// links. A file named explicitly is taken as it is (even if ignored or
// excluded by name). Neither bypasses the credential exclusion, the size
// limit (checked with lstat before reading) or binary detection, and both
// bypass the include and exclude globs of Rules. Nothing under .git is
// read. A file already in the pack (changed) is not added again.
//
// What goes wrong is a Problem, and ErrorMode decides what it does.
type ContextOptions struct {
	Paths          []string
	CmdPaths       []string  // the paths the context command printed, one per element
	RecurseDepth   int       // how deep directories are walked: 0 the directory itself, N levels below it, < 0 all (RecurseUnlimited, the CLI's default)
	MaxFilesPerDir int       // files taken from one directory of a walk, the first by name (default 50)
	MaxFileBytes   int64     // a larger file is not read (default Options.MaxFileBytes)
	ErrorMode      ErrorMode // default flexible
	Query          string    // rank the repository's files against this description (BM25)
	QueryLimit     int       // add at most this many of the best matches (default 10)

	// Confirm is asked, in the flexible mode, whether to go on despite the
	// problems (cmd asks on a terminal). Nil goes on; false makes Build
	// fail with a *ContextError.
	Confirm func(problems []Problem) bool

	// read replaces the work-tree reader in tests (permission errors
	// cannot be made when the tests run as root).
	read func(name string, limit int64) (int64, []byte, error)
}

// ErrorMode says what the problems of the user's context do.
type ErrorMode string

// Error modes.
const (
	ErrorStrict   ErrorMode = "strict"   // Build fails, listing every problem
	ErrorFlexible ErrorMode = "flexible" // Confirm decides; without it, go on with warnings
	ErrorIgnore   ErrorMode = "ignore"   // record the problems as warnings and go on
)

// Defaults of ContextOptions.
const (
	RecurseUnlimited      = -1
	DefaultMaxFilesPerDir = 50
	DefaultQueryLimit     = 10
)

// Problem kinds of the user's context, besides the exclusion reasons
// ReasonSizeLimit, ReasonDirLimit, ReasonBinary, ReasonEncoding and
// ReasonUnreadable.
const (
	ProblemMissing    = "missing"
	ProblemPermission = "permission_denied"
	ProblemOutside    = "outside_repository"
)

// ProblemShallow is a warning about the change itself: a shallow clone
// lacks history the pack's account of it needs (the commit list).
const ProblemShallow = "shallow"

// ProblemNoMatch is a warning that --context-query found nothing to add.
const ProblemNoMatch = "no_match"

// ProblemReview is the error that stopped gitctx review from sending the
// pack or posting the answer.
const ProblemReview = "review"

// ContextError is the failure of a pack whose context has problems: in
// the strict mode, or in the flexible mode when Confirm said no. Problems
// lists them all; the record's errors list them too.
type ContextError struct {
	Mode     ErrorMode
	Declined bool // Confirm said not to go on
	Problems []Problem
}

func (e *ContextError) Error() string {
	list := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		list[i] = p.Path + ": " + p.Message
	}
	n := fmt.Sprintf("%d problem%s", len(e.Problems), plural(len(e.Problems)))
	if e.Declined {
		return fmt.Sprintf("the context files have %s, and going on was declined: %s", n, strings.Join(list, "; "))
	}
	return fmt.Sprintf("the context files have %s (error mode %s): %s", n, e.Mode, strings.Join(list, "; "))
}

// requested reports whether any context was asked for.
func (o *ContextOptions) requested() bool {
	return len(o.Paths) > 0 || len(o.CmdPaths) > 0 || strings.TrimSpace(o.Query) != ""
}

func (o *ContextOptions) defaults(maxFileBytes int64) {
	if o.MaxFilesPerDir <= 0 {
		o.MaxFilesPerDir = DefaultMaxFilesPerDir
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = maxFileBytes
	}
	if o.ErrorMode == "" {
		o.ErrorMode = ErrorFlexible
	}
	if o.QueryLimit <= 0 {
		o.QueryLimit = DefaultQueryLimit
	}
}

// Validate checks the error mode.
func (o *ContextOptions) Validate() error {
	switch o.ErrorMode {
	case "", ErrorStrict, ErrorFlexible, ErrorIgnore:
		return nil
	}
	return fmt.Errorf("bad error mode %q (want strict, flexible or ignore)", o.ErrorMode)
}

// settleProblems applies the error mode to the context's problems: they
// become warnings, or the errors of a failed pack.
func (b *builder) settleProblems(ctx context.Context, problems []Problem) error {
	if len(problems) == 0 {
		return nil
	}
	problems, err := redactProblems(ctx, b.opts.Gate, problems)
	if err != nil {
		return err
	}
	o := b.opts.Context
	fail := &ContextError{Mode: o.ErrorMode, Problems: problems}
	switch {
	case o.ErrorMode == ErrorStrict:
	case o.ErrorMode == ErrorFlexible && o.Confirm != nil && !o.Confirm(problems):
		fail.Declined = true
	default:
		b.problems = append(b.problems, problems...)
		return nil
	}
	b.errors = append(b.errors, problems...)
	return fail
}

// contextText is the whole text of a context file: its content, while it
// is kept, else read again (nil when that fails).
func (b *builder) contextText(e *entry) *string {
	if e.kind == KindText && (e.content != "" || e.contentBytes == 0) {
		text := e.content
		return &text
	}
	_, data, err := b.readWorktree(e.path, b.opts.Context.MaxFileBytes)
	if err != nil {
		return nil
	}
	return b.imageText(e, data)
}

// redactProblems puts the paths and messages of problems through the gate:
// they are shown, asked about and recorded, and a path the user or a
// command named (or an error about it) can hold a credential.
func redactProblems(ctx context.Context, g *secrets.Gate, ps []Problem) ([]Problem, error) {
	if len(ps) == 0 {
		return ps, nil
	}
	texts := make([]string, 0, 2*len(ps))
	for _, p := range ps {
		texts = append(texts, cleanText(decodeLine(p.Path)), cleanText(decodeLine(p.Message)))
	}
	red, _, err := redactMany(ctx, g, texts)
	if err != nil {
		return nil, fmt.Errorf("check problems for credentials: %w", err)
	}
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = Problem{Path: red[2*i].String(), Kind: p.Kind, Message: red[2*i+1].String()}
	}
	return out, nil
}

// redactWarnings puts the problems kept so far through the gate (those of
// the context already went through it: again, they stay as they are).
func (b *builder) redactWarnings(ctx context.Context) error {
	red, err := redactProblems(ctx, b.opts.Gate, b.problems)
	b.problems = red
	return err
}
