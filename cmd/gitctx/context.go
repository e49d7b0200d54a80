package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack"
)

// contextOptions are the flags that add the user's own context to a pack.
type contextOptions struct {
	paths      []string
	depth      int
	perDir     int
	cmd        string
	cmdTimeout time.Duration
	query      string
	queryLimit int
	errorMode  string
}

func (o *contextOptions) addFlags(f *pflag.FlagSet) {
	f.StringSliceVar(&o.paths, "context", nil, "add the file or directory `PATH` to the pack as context (repeatable, or comma-separated; directories are walked, .gitignore respected)")
	intFlag(f, &o.depth, "recurse-depth", pack.RecurseUnlimited, "walk --context directories `N` levels deep (0: the directory itself, -1: all)")
	intFlag(f, &o.perDir, "max-files-per-directory", pack.DefaultMaxFilesPerDir, "take at most `N` files from one directory of a --context walk")
	f.StringVar(&o.cmd, "context-cmd", "", "add the paths `CMD` prints, one per line, as context (run with sh -c at the repository root)")
	f.DurationVar(&o.cmdTimeout, "context-cmd-timeout", pack.DefaultContextCmdTimeout, "stop --context-cmd after this long")
	f.StringVar(&o.query, "context-query", "", "add the repository files that best match `TEXT` (ranked with BM25 over paths, identifiers and text)")
	intFlag(f, &o.queryLimit, "context-query-limit", pack.DefaultQueryLimit, "add at most `N` files for --context-query")
	f.StringVar(&o.errorMode, "error-mode", string(pack.ErrorFlexible), "what problems with context files do: strict (fail, listing them all), flexible (ask on a terminal, else warn) or ignore (record them)")
}

func (o *contextOptions) validate(cmd *cobra.Command) error {
	switch pack.ErrorMode(o.errorMode) {
	case pack.ErrorStrict, pack.ErrorFlexible, pack.ErrorIgnore:
	default:
		return usagef(cmd, fmt.Errorf("unknown --error-mode %q (use strict, flexible or ignore)", o.errorMode))
	}
	if err := checkLimits(cmd,
		positive("--max-files-per-directory", o.perDir),
		positive("--context-query-limit", o.queryLimit),
		positive("--context-cmd-timeout", o.cmdTimeout),
	); err != nil {
		return err
	}
	if o.depth < pack.RecurseUnlimited {
		return usagef(cmd, fmt.Errorf("--recurse-depth must be -1 (all) or more, got %d", o.depth))
	}
	return nil
}

// options turns the flags into pack's ContextOptions, running
// --context-cmd. Paths given on the command line or in the environment
// are relative to the working directory; paths from a configuration
// file, to the repository root.
func (o *contextOptions) options(ctx context.Context, a *app, ch *gitctx.Change, s *settings) (pack.ContextOptions, error) {
	c := pack.ContextOptions{
		RecurseDepth: o.depth, MaxFilesPerDir: o.perDir, ErrorMode: pack.ErrorMode(o.errorMode),
		Query: o.query, QueryLimit: o.queryLimit,
	}
	repo := ch.Repo()
	if repo == nil {
		if len(o.paths) > 0 || o.cmd != "" || o.query != "" {
			return c, errors.New("--context, --context-cmd and --context-query need a repository; run gitctx inside one")
		}
		return c, nil
	}
	if repo.Bare && (len(o.paths) > 0 || o.cmd != "" || o.query != "") {
		return c, errors.New("--context, --context-cmd and --context-query read the work tree, and a bare repository has none: leave them out, or run gitctx in a clone with a work tree")
	}
	fromFile := s != nil && s.file != nil && strings.HasPrefix(s.source("context"), s.file.path+":")
	for _, p := range o.paths {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if !filepath.IsAbs(p) && !fromFile {
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
		}
		c.Paths = append(c.Paths, p)
	}
	if o.cmd != "" {
		lines, err := pack.RunContextCmd(ctx, repo.Root, o.cmd, o.cmdTimeout)
		if err != nil {
			return c, fmt.Errorf("--context-cmd: %w", err)
		}
		c.CmdPaths = lines
	}
	if c.ErrorMode == pack.ErrorFlexible && isTerminal(a.stderr) && isTerminalReader(a.stdin) {
		c.Confirm = func(problems []pack.Problem) bool { return confirmProblems(a, problems) }
	}
	return c, nil
}

// confirmProblems lists the context's problems and asks whether to go on.
func confirmProblems(a *app, problems []pack.Problem) bool {
	fmt.Fprintf(a.stderr, "gitctx: %d problem%s with the context files:\n", len(problems), plural(len(problems)))
	for _, p := range problems {
		fmt.Fprintf(a.stderr, "  %s: %s\n", terminalSafe(p.Path), terminalSafe(p.Message))
	}
	fmt.Fprint(a.stderr, "Go on without them? [y/N] ")
	line, _ := bufio.NewReader(a.stdin).ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}

// isTerminalReader reports whether r is a terminal.
func isTerminalReader(r any) bool {
	f, ok := r.(*os.File)
	return ok && isTerminalFd(f.Fd())
}
