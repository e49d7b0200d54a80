package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// hookMarker starts the second line of every hook gitctx writes; a hook
// without it belongs to someone else and is never removed or overwritten.
const hookMarker = "# gitctx-hook v1"

// chainedSuffix names where install keeps another tool's hook:
// pre-commit.gitctx-chained, run first by gitctx's hook.
const chainedSuffix = ".gitctx-chained"

// runHookInstall is `gitctx hook install`.
func runHookInstall(ctx context.Context, a *app, o *hookOptions) error {
	repo, dir, err := hooksDir(ctx)
	if err != nil {
		return err
	}
	defer repo.Close()
	if repo.Bare && o.hook != "pre-receive" {
		return &usageError{err: fmt.Errorf("%s is a bare repository, where no one commits or pushes from: its hook is pre-receive (gitctx hook install pre-receive)", terminalSafe(repo.GitDir))}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("make the hooks directory: %w", err)
	}
	exe := hookExecutable(a)
	res, err := installHook(dir, o.hook, hookScript(o.hook, exe, o.runFlags()...), o.force)
	if err != nil {
		return err
	}
	path := shownPath(repo.Top(), filepath.Join(dir, o.hook))
	verb := "installed"
	if res.updated {
		verb = "updated"
	}
	fmt.Fprintf(a.stderr, "gitctx: %s the %s hook: %s\n", verb, o.hook, terminalSafe(path))
	switch {
	case res.chained && res.dropped:
		fmt.Fprintf(a.stderr, "gitctx: the hook that was there replaces the one an earlier install had chained (--force); it is kept as %s and runs first\n", terminalSafe(path+chainedSuffix))
	case res.chained:
		fmt.Fprintf(a.stderr, "gitctx: the hook that was there is kept as %s and runs first; gitctx hook uninstall puts it back\n", terminalSafe(path+chainedSuffix))
	case res.kept:
		fmt.Fprintf(a.stderr, "gitctx: %s, kept from an earlier install, runs first\n", terminalSafe(path+chainedSuffix))
	}
	if exe == "" && lookPath(a.getenv("PATH"), "gitctx") == "" {
		fmt.Fprintf(a.stderr, "gitctx: warning: the hook runs gitctx from PATH, where there is none: every %s stops until there is (install it, or put this program on PATH named gitctx)\n", hookVerb(o.hook))
	}
	if huskyManaged(dir) {
		fmt.Fprintf(a.stderr, "gitctx: warning: husky manages %s and writes it afresh on install, which drops this hook: to keep the check, add the line `gitctx hook run %s` to %s instead\n",
			terminalSafe(shownPath(repo.Top(), dir)), o.hook, terminalSafe(shownPath(repo.Top(), filepath.Join(filepath.Dir(dir), o.hook))))
	}
	return nil
}

// huskyManaged reports whether husky writes the hooks directory: its
// stubs (.husky/_) call husky's h (v9) or husky.sh (v5 to v8).
func huskyManaged(dir string) bool {
	if filepath.Base(dir) != "_" {
		return false
	}
	for _, name := range []string{"h", "husky.sh"} {
		if info, err := os.Stat(filepath.Join(dir, name)); err == nil && info.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// runHookUninstall is `gitctx hook uninstall`.
func runHookUninstall(ctx context.Context, a *app, o *hookOptions) error {
	repo, dir, err := hooksDir(ctx)
	if err != nil {
		return err
	}
	defer repo.Close()
	res, err := uninstallHook(dir, o.hook)
	if err != nil {
		return err
	}
	path := terminalSafe(shownPath(repo.Top(), filepath.Join(dir, o.hook)))
	switch res {
	case uninstallNone:
		fmt.Fprintf(a.stderr, "gitctx: no gitctx %s hook is installed (%s); nothing to remove\n", o.hook, path)
	case uninstallForeign:
		fmt.Fprintf(a.stderr, "gitctx: %s was not written by gitctx; it is left as it is\n", path)
	case uninstallRemoved:
		fmt.Fprintf(a.stderr, "gitctx: removed the %s hook: %s\n", o.hook, path)
	case uninstallRestored:
		fmt.Fprintf(a.stderr, "gitctx: removed the %s hook and put back the one that was there before: %s\n", o.hook, path)
	}
	return nil
}

// hooksDir opens the repository around the current directory and finds
// where git runs its hooks from.
func hooksDir(ctx context.Context) (*gitctx.Repo, string, error) {
	repo, err := openHookRepo(ctx)
	if err != nil {
		return nil, "", err
	}
	dir, err := repo.HooksDir(ctx)
	if err != nil {
		repo.Close()
		return nil, "", err
	}
	return repo, dir, nil
}

// installResult says what install found and did.
type installResult struct {
	updated bool // a hook of gitctx was there and is rewritten
	chained bool // another tool's hook was moved aside and runs first
	kept    bool // a hook chained by an earlier install runs first
	dropped bool // --force: that earlier chained hook was replaced
}

// installHook writes script as the hook name in dir. Another tool's hook
// is renamed name+chainedSuffix (a rename keeps its bytes and its mode),
// unless a hook chained earlier is in the way: then only force replaces
// that one. If the script cannot be written, the other hook is put back.
func installHook(dir, name string, script []byte, force bool) (installResult, error) {
	var res installResult
	path := filepath.Join(dir, name)
	chained := path + chainedSuffix
	own, exists, err := hookState(path)
	if err != nil {
		return res, err
	}
	hasChained, err := pathExists(chained)
	if err != nil {
		return res, err
	}
	switch {
	case own:
		res.updated, res.kept = true, hasChained
	case exists:
		if hasChained && !force {
			return res, fmt.Errorf("%s is another tool's hook, and %s, a hook chained by an earlier gitctx install, is in the way: move one of them elsewhere, or run gitctx hook install --force to replace the chained one with %s", path, chained, name)
		}
		if err := os.Rename(path, chained); err != nil {
			return res, fmt.Errorf("keep the existing %s hook: %w", name, err)
		}
		res.chained, res.dropped = true, hasChained
	default:
		res.kept = hasChained
	}
	if err := writeHook(path, script); err != nil {
		if res.chained {
			if rerr := os.Rename(chained, path); rerr != nil {
				err = fmt.Errorf("%w (and the hook that was there is left as %s: %v)", err, chained, rerr)
			}
		}
		return res, err
	}
	return res, nil
}

// The outcomes of uninstallHook.
const (
	uninstallNone     = iota // no hook, nothing to do
	uninstallForeign         // another tool's hook, left alone
	uninstallRemoved         // gitctx's hook removed
	uninstallRestored        // gitctx's hook replaced by the hook it had chained
)

// uninstallHook removes gitctx's hook name from dir and puts back the hook
// it chained, if any; a hook gitctx did not write is left alone.
func uninstallHook(dir, name string) (int, error) {
	path := filepath.Join(dir, name)
	chained := path + chainedSuffix
	own, exists, err := hookState(path)
	if err != nil {
		return 0, err
	}
	hasChained, err := pathExists(chained)
	if err != nil {
		return 0, err
	}
	switch {
	case exists && !own:
		return uninstallForeign, nil
	case hasChained:
		// Also when gitctx's hook is already gone: the chained one is
		// someone's hook, and nothing is in its place.
		if err := os.Rename(chained, path); err != nil {
			return 0, fmt.Errorf("put back the %s hook: %w", name, err)
		}
		return uninstallRestored, nil
	case own:
		if err := os.Remove(path); err != nil {
			return 0, fmt.Errorf("remove the %s hook: %w", name, err)
		}
		return uninstallRemoved, nil
	}
	return uninstallNone, nil
}

// hookState says whether path exists and whether it is a hook gitctx
// wrote (a regular file with the marker near its top).
func hookState(path string) (own, exists bool, err error) {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("look at the existing hook: %w", err)
	}
	if info.IsDir() {
		return false, true, fmt.Errorf("%s is a directory, not a hook", path)
	}
	if !info.Mode().IsRegular() {
		return false, true, nil // a symbolic link: another tool's
	}
	f, err := os.Open(path)
	if err != nil {
		return false, true, fmt.Errorf("read the existing hook: %w", err)
	}
	defer f.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, true, fmt.Errorf("read the existing hook: %w", err)
	}
	for _, line := range bytes.Split(head[:n], []byte("\n")) {
		if bytes.HasPrefix(line, []byte(hookMarker)) {
			return true, true, nil
		}
	}
	return false, true, nil
}

// pathExists reports whether anything (a file, a link) is at path.
func pathExists(path string) (bool, error) {
	_, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look at %s: %w", path, err)
	}
	return true, nil
}

// writeHook writes an executable script at path atomically: a temporary
// file next to it, renamed over it; nothing is left behind on failure.
func writeHook(path string, script []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".gitctx-*")
	if err != nil {
		return fmt.Errorf("write the hook: %w", err)
	}
	_, err = tmp.Write(script)
	if err == nil {
		err = tmp.Chmod(0o755)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("write the hook: %w", err)
	}
	return nil
}

// shownPath is path relative to the repository root when it is inside it.
func shownPath(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}
