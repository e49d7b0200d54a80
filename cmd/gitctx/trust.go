package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gitctx/gitctx/review/artifact"
)

// A .gitctx.yml found at the repository root comes with the repository:
// whoever commits to it writes it, and so does the author of a pull
// request a reviewer checks out. Most settings only shape the pack. A few
// run a command or send the run's credentials elsewhere (guardedKeys), and
// a few name files gitctx writes or reads (pathKeys). From such a file
// they are taken only once the user trusts it as it is, with
// `gitctx config trust` (as direnv's allow does): a change to the file
// needs trusting again. A file named with --config or GITCTX_CONFIG, the
// environment and flags are the user's own; the Action reads the base
// commit's file, which the pull request cannot change.

// guardedKeys run a command or choose where the prompt and the API key go.
var guardedKeys = []string{"context-cmd", "command", "base-url"}

// pathKeys name files gitctx writes or reads: from a file not trusted,
// they must be relative paths that stay inside the repository.
var pathKeys = []string{"out", "post-file", "sarif", "rdjson", "instructions"}

// untrusted lists the settings an untrusted repository file gives that it
// may not, each as "key (file:line) why"; none when the file is trusted,
// is the user's own, or gives none of them. only, when given, are the
// settings looked at (explain reads out alone).
func (s *settings) untrusted(cmd *cobra.Command, a *app, only ...string) []string {
	if s == nil || s.file == nil || !s.repoFile {
		return nil
	}
	names := append(slices.Clone(guardedKeys), pathKeys...)
	if len(only) > 0 {
		names = only
	}
	var out []string
	for _, name := range names {
		f := cmd.Flags().Lookup(name)
		src := s.source(name)
		if f == nil || !strings.HasPrefix(src, s.file.path+":") || f.Value.String() == "" {
			continue
		}
		why := "runs a command"
		switch {
		case name == "base-url":
			why = "chooses where the prompt and the API key go"
		case slices.Contains(pathKeys, name):
			root, v := a.repoRoot(cmd.Context()), f.Value.String()
			if w, ok := s.written[name]; ok {
				v = w // as the file wrote it, before rootPaths made it the root's
			}
			if inGitDir(v) {
				why = "names a file inside .git"
				break
			}
			if staysInside(v) && resolvesInside(root, filepath.Join(root, v)) {
				continue
			}
			why = "names a file outside the repository"
		}
		out = append(out, fmt.Sprintf("%s (%s) %s", configKey(name), src, why))
	}
	if len(out) == 0 || s.trusted(a) {
		return nil
	}
	return out
}

// checkTrust refuses to run with settings an untrusted repository file
// gives that it may not (of only, when given).
func (s *settings) checkTrust(cmd *cobra.Command, a *app, only ...string) error {
	refused := s.untrusted(cmd, a, only...)
	if len(refused) == 0 {
		return nil
	}
	return usagef(cmd, fmt.Errorf("%s came with the repository, and %s: read it, then run `gitctx config trust` to trust it as it is now (or give those settings as flags)",
		s.file.path, strings.Join(refused, "; ")))
}

// staysInside reports whether a path is relative and never climbs above
// where it starts.
func staysInside(p string) bool {
	if filepath.IsAbs(p) || filepath.VolumeName(p) != "" || strings.HasPrefix(p, "~") {
		return false
	}
	clean := filepath.Clean(p)
	return clean != ".." && !strings.HasPrefix(clean, ".."+string(filepath.Separator))
}

// inGitDir reports whether a path lies in a directory named .git, where
// git keeps what it runs and gitctx must not write: a path a repository's
// file gives, or the default output directory of a run inside .git.
func inGitDir(p string) bool {
	for part := range strings.SplitSeq(filepath.ToSlash(filepath.Clean(p)), "/") {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

// resolvesInside reports whether a path, its symbolic links followed as
// far as it exists, lies inside root: a directory the repository commits
// as a link must not carry a write elsewhere.
func resolvesInside(root, p string) bool {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	rest := ""
	for {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			rel, err := filepath.Rel(realRoot, filepath.Join(real, rest))
			return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return false
		}
		rest, abs = filepath.Join(filepath.Base(abs), rest), parent
	}
}

// trusted reports whether the user trusts the file as it is.
func (s *settings) trusted(a *app) bool {
	data, err := os.ReadFile(trustFile(a))
	return err == nil && slices.Contains(strings.Fields(string(data)), s.file.digest)
}

// fileDigest names a configuration file as it is: its absolute path and
// its bytes.
func fileDigest(path string, data []byte) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	sum := sha256.Sum256(append([]byte(path+"\x00"), data...))
	return hex.EncodeToString(sum[:])
}

// trustFile is the list of trusted files' digests: gitctx/trusted under
// the user's configuration directory; "" when there is none.
func trustFile(a *app) string {
	if base := userConfigDir(a.getenv); base != "" {
		return filepath.Join(base, "gitctx", "trusted")
	}
	return ""
}

// userConfigDir is os.UserConfigDir, read through getenv; "" when the
// variables it needs are unset or relative.
func userConfigDir(getenv func(string) string) string {
	return userDir(getenv, userDirs{xdg: "XDG_CONFIG_HOME", dot: ".config", mac: "Application Support", win: "AppData", plan9: ""})
}

// runConfigTrust adds the repository's configuration file, as it is, to
// the trusted ones.
func runConfigTrust(cmd *cobra.Command, a *app) error {
	path, err := findConfig("", "--config", a.repoRoot(cmd.Context()))
	if err != nil {
		return err
	}
	if path == "" {
		return usagef(cmd, fmt.Errorf("there is no .gitctx.yml at the repository root to trust"))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	list := trustFile(a)
	if list == "" {
		return fmt.Errorf("no configuration directory to keep the trusted files in (set HOME or XDG_CONFIG_HOME)")
	}
	digest := fileDigest(path, data)
	old, err := os.ReadFile(list)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("read %s: %w", list, err)
	}
	if !slices.Contains(strings.Fields(string(old)), digest) {
		if err := os.MkdirAll(filepath.Dir(list), 0o700); err != nil {
			return err
		}
		if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
			old = append(old, '\n')
		}
		if err := artifact.SaveFile(cmd.Context(), list, append(old, digest+"\n"...)); err != nil {
			return err
		}
	}
	fmt.Fprintf(a.stderr, "gitctx: trusted %s as it is now; a change to it needs `gitctx config trust` again\n", terminalSafe(path))
	return nil
}
