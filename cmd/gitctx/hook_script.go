package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// hookScript is the POSIX sh hook gitctx installs as name, which passes
// flags (--pack, --review) to its run. It runs the
// hook it replaced first (with the same arguments and, for pre-push and
// pre-receive, the same input), stops when that one fails, honours
// GITCTX_SKIP, then runs `gitctx hook run NAME`: exe when it is still
// there, else gitctx on PATH (exe "" means PATH only).
func hookScript(name, exe string, flags ...string) []byte {
	var b strings.Builder
	verb := hookVerb(name)
	what := "stops a commit that adds a credential"
	if name != "pre-commit" {
		what = "stops a push whose commits add a credential"
	}
	fmt.Fprintf(&b, `#!/bin/sh
%s %s
# Written by "gitctx hook install": %s.
# "gitctx hook uninstall" removes this file and puts back the hook that was
# here before, kept meanwhile as %s%s next to it and run first.
# Skip the check once with GITCTX_SKIP=1 (git %s --no-verify skips every hook).
gitctx_hooks=${0%%/*}
[ "$gitctx_hooks" = "$0" ] && gitctx_hooks=.
gitctx_chained=$gitctx_hooks/%s%s
`, hookMarker, name, what, name, chainedSuffix, verb, name, chainedSuffix)
	feed := ""
	if name != "pre-commit" {
		// git writes the refs being pushed to stdin: both hooks read them.
		b.WriteString(`gitctx_input=$(cat)
gitctx_feed() { if [ -n "$gitctx_input" ]; then printf '%s\n' "$gitctx_input"; fi; }
`)
		feed = "gitctx_feed | "
	}
	// A plain sh hook is sourced in a subshell, so that its $0 is this
	// hook's path, the one it was written for: a dispatcher such as
	// husky's finds the script to run from its own name. Any other hook
	// (another interpreter, sh with options) is run as a program.
	fmt.Fprintf(&b, `if [ -f "$gitctx_chained" ] && [ -x "$gitctx_chained" ]; then
	case $(head -n 1 "$gitctx_chained") in
	'#!/bin/sh' | '#!/usr/bin/env sh') %s( . "$gitctx_chained" ) || exit ;;
	*) %s"$gitctx_chained" "$@" || exit ;;
	esac
fi
case ${GITCTX_SKIP:-} in
'' | 0 | false) ;;
*)
	echo 'gitctx: GITCTX_SKIP is set: the %s credential check is skipped' >&2
	exit 0
	;;
esac
`, feed, feed, name)
	if exe != "" {
		fmt.Fprintf(&b, "gitctx=%s\n[ -x \"$gitctx\" ] || gitctx=gitctx\n", shellQuote(exe))
	} else {
		b.WriteString("gitctx=gitctx\n")
	}
	fmt.Fprintf(&b, `if ! command -v "$gitctx" >/dev/null 2>&1; then
	echo "gitctx: gitctx is not on PATH, so this %s cannot be checked for credentials." >&2
	echo "  Install it (go install github.com/gitctx/gitctx/cmd/gitctx@latest), skip the check once with GITCTX_SKIP=1, or remove $0." >&2
	exit 1
fi
`, verb)
	run := strings.Join(append([]string{name}, flags...), " ")
	if feed == "" {
		fmt.Fprintf(&b, "exec \"$gitctx\" hook run %s \"$@\"\n", run)
	} else {
		fmt.Fprintf(&b, "%s\"$gitctx\" hook run %s \"$@\"\n", feed, run)
	}
	return []byte(b.String())
}

// hookVerb is what the hook name guards: commit or push.
func hookVerb(name string) string {
	if name == "pre-commit" {
		return "commit"
	}
	return "push"
}

// shellQuote quotes s for sh: inside single quotes nothing is special,
// and a single quote itself closes the quotes, is escaped, and reopens them.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// hookExecutable is the gitctx the hook should call by its path, or ""
// to call gitctx on PATH: PATH when it finds this same program (a
// package manager's link survives upgrades), else this program's path
// unless it is a temporary build (go run) or a test binary.
func hookExecutable(a *app) string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if onPath := lookPath(a.getenv("PATH"), "gitctx"); onPath != "" && sameFile(onPath, exe) {
		return ""
	}
	if !stableExecutable(exe) {
		return ""
	}
	return exe
}

// stableExecutable reports whether exe looks installed: named gitctx and
// not in a go-build directory, where go run and go test build programs.
func stableExecutable(exe string) bool {
	if base := filepath.Base(exe); base != "gitctx" && base != "gitctx.exe" {
		return false
	}
	for _, part := range strings.Split(filepath.ToSlash(exe), "/") {
		if strings.HasPrefix(part, "go-build") {
			return false
		}
	}
	return filepath.IsAbs(exe)
}

// lookPath finds an executable named name in the directories of path.
func lookPath(path, name string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

func sameFile(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}
