// Command gitctx packs a git change for review by a language model: the
// diff, the touched files and their key neighbours, every credential
// removed, sized to the model's limits, with a transparency record of what
// was sent and why.
//
// Usage:
//
//	gitctx pack [RANGE|REV] [--staged|--worktree|--patch FILE|-] [flags]
//	gitctx version
//
// Run `gitctx help` for the flags, the exit codes and where settings come
// from.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}
