// Package gittest builds real git repositories for tests: in a temporary
// directory, with git isolated from the user's and the system's
// configuration, a fixed identity and fixed dates, so that every run makes
// the same commits. It drives the git CLI, as gitctx does.
package gittest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Repo is a repository under construction.
type Repo struct {
	TB      testing.TB
	Dir     string
	Commits int // commits made so far; the next commit's date follows from it
	// Date gives the author and committer date of a commit after n others
	// (default DayDates).
	Date func(n int) string
}

// DayDates dates each commit a day after the one before, within January
// 2024 (the 29th commit is dated as the first).
func DayDates(n int) string { return fmt.Sprintf("2024-01-%02dT12:00:00Z", 1+n%28) }

// MinuteDates dates each commit a minute after the one before, all on
// 1 January 2024: for histories longer than a month whose order matters.
func MinuteDates(n int) string {
	return fmt.Sprintf("2024-01-01T%02d:%02d:00Z", n/60%24, n%60)
}

// Isolate points git at an empty global configuration and no system one,
// for the test's git commands and gitctx's alike, and clears the variables
// that would aim git at another repository. It skips the test when git is
// not installed.
func Isolate(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git is not on PATH")
	}
	home := tb.TempDir()
	global := filepath.Join(home, "gitconfig")
	if err := os.WriteFile(global, nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Setenv("GIT_CONFIG_GLOBAL", global)
	tb.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	tb.Setenv("HOME", home)
	tb.Setenv("XDG_CONFIG_HOME", home)
	for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"} {
		tb.Setenv(v, "") // restored after the test
		os.Unsetenv(v)
	}
}

// New makes an empty repository on branch main in a directory named name
// (the name a pack falls back to as the project's name), after Isolate.
func New(tb testing.TB, name string) *Repo {
	tb.Helper()
	Isolate(tb)
	r := &Repo{TB: tb, Dir: filepath.Join(tb.TempDir(), name), Date: DayDates}
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	r.Git("init", "-q", "-b", "main")
	for _, kv := range [][2]string{
		{"user.name", "Ada Tester"}, {"user.email", "ada@example.com"},
		{"commit.gpgsign", "false"}, {"init.defaultBranch", "main"},
		{"core.autocrlf", "false"}, {"protocol.file.allow", "always"},
	} {
		r.Git("config", kv[0], kv[1])
	}
	return r
}

// Git runs git in the repository and returns its standard output; it
// fails the test if git fails.
func (r *Repo) Git(args ...string) string {
	r.TB.Helper()
	out, err := r.GitErr(args...)
	if err != nil {
		r.TB.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// GitErr runs git in the repository, with the fixed identity and the date
// of the next commit.
func (r *Repo) GitErr(args ...string) (string, error) { return r.GitInput("", args...) }

// GitInput is GitErr with stdin: for a commit message that should not be
// an argument (git commit -F -).
func (r *Repo) GitInput(stdin string, args ...string) (string, error) {
	date := r.Date(r.Commits)
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=Ada Tester", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME=Ada Tester", "GIT_COMMITTER_EMAIL=ada@example.com", "GIT_COMMITTER_DATE="+date)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%w: %s", err, stderr.String())
	}
	return string(out), nil
}

// Rev resolves a revision to a full id.
func (r *Repo) Rev(rev string) string {
	r.TB.Helper()
	return strings.TrimSpace(r.Git("rev-parse", "--verify", rev))
}

// Write writes a file of the work tree, making its directories.
func (r *Repo) Write(name, content string) {
	r.TB.Helper()
	p := filepath.Join(r.Dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.TB.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.TB.Fatal(err)
	}
}

// WriteAll writes several files of the work tree.
func (r *Repo) WriteAll(files map[string]string) {
	r.TB.Helper()
	for name, content := range files {
		r.Write(name, content)
	}
}

// Commit stages everything and commits it (an empty commit too), returning
// the new commit's id.
func (r *Repo) Commit(msg string) string {
	r.TB.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
	r.Commits++
	return r.Rev("HEAD")
}
