package gitctx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrNotRepository means the directory is not inside a git work tree.
var ErrNotRepository = errors.New("not a git repository")

// Repo is a git work tree (its root, its git directories and the objects
// behind it), or a bare repository (see Bare).
type Repo struct {
	Root      string // the work tree's top level, absolute
	GitDir    string // this work tree's git directory (differs from CommonDir in a linked worktree)
	CommonDir string // where objects, refs and the shallow file live
	Shallow   bool   // a shallow clone: some history is missing
	// Bare is a repository without a work tree (Root is empty): only
	// ranges of its commits can be selected, and every file is read
	// from its objects.
	Bare bool

	git git

	objOnce sync.Once
	obj     *objects
	objErr  error

	emptyTreeOnce sync.Once
	emptyTree     string
	emptyTreeErr  error

	noBatchCommand atomic.Bool // git's cat-file has no --batch-command (git < 2.36)

	partialOnce sync.Once
	partial     bool   // a partial clone (see partialClone)
	promisor    string // the remote it fetches missing objects from

	commitMemo CommitMemo // keeps ranges' commits (see SetCommitMemo); may be nil

	windows windows // the history windows walked (see PrefetchHistory)

	largeFile int64 // LargeFile, but in tests

	// the work tree, opened once for the files read from it (see
	// worktreeRoot)
	rootOnce sync.Once
	root     *os.Root
	rootErr  error
	dirsMu   sync.Mutex
	dirs     map[string]*os.Root // its directories, opened once (see worktreeFile)
}

// Open finds the git work tree that contains dir, or the bare repository
// dir is in.
func Open(ctx context.Context, dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	g := git{dir: abs}
	r, top, err := locate(ctx, g, abs, "--show-toplevel")
	if err != nil {
		var gerr *Error
		if errors.As(err, &gerr) && strings.Contains(gerr.Stderr, "not a git repository") {
			return nil, fmt.Errorf("%s: %w (run gitctx inside a git work tree, or pass --patch FILE)", abs, ErrNotRepository)
		}
		if errors.As(err, &gerr) && strings.Contains(gerr.Stderr, "must be run in a work tree") {
			return openBare(ctx, g, abs)
		}
		return nil, fmt.Errorf("open repository %s: %w", abs, err)
	}
	r.Root = top
	r.git = git{dir: r.Root}
	if _, err := os.Lstat(filepath.Join(r.Root, ".git")); errors.Is(err, fs.ErrNotExist) {
		// git found the repository from dir, not from the work tree (dir
		// is a git directory whose core.worktree names it): git run at
		// the work tree's root is told where the repository is
		r.git.env = []string{"GIT_DIR=" + r.GitDir, "GIT_WORK_TREE=" + r.Root}
	}
	return r, nil
}

// openBare opens the bare repository git found from dir. The .git
// directory of a repository with a work tree is refused: a run there
// meant the work tree.
func openBare(ctx context.Context, g git, dir string) (*Repo, error) {
	r, bare, err := locate(ctx, g, dir, "--is-bare-repository")
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	if bare != "true" {
		return nil, &noWorkTreeError{dir, "inside a repository's .git directory, not its work tree (run gitctx from the work tree)"}
	}
	r.Bare, r.git = true, git{dir: r.GitDir}
	return r, nil
}

// locate asks git, run in dir, where the repository's directories are and
// whether it is shallow, and one more thing (first, a rev-parse option),
// whose answer comes back apart.
func locate(ctx context.Context, g git, dir, first string) (*Repo, string, error) {
	out, err := g.output(ctx, nil, "rev-parse", first, "--absolute-git-dir", "--git-common-dir", "--is-shallow-repository")
	if err != nil {
		return nil, "", err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 4 {
		return nil, "", fmt.Errorf("unexpected git rev-parse output %q", out)
	}
	r := &Repo{GitDir: lines[1], CommonDir: lines[2], Shallow: lines[3] == "true", largeFile: LargeFile}
	if !filepath.IsAbs(r.CommonDir) {
		r.CommonDir = filepath.Join(dir, r.CommonDir)
	}
	return r, lines[0], nil
}

// Top is the directory gitctx keeps its own files beside: the work
// tree's root, or a bare repository's directory, which stands for the
// root it does not have (its configuration file and default output
// directory are there).
func (r *Repo) Top() string {
	if r.Bare {
		return r.GitDir
	}
	return r.Root
}

// Name is the repository's name: its root's, or a bare repository's
// without the ".git" ending.
func (r *Repo) Name() string {
	if r.Bare {
		return strings.TrimSuffix(filepath.Base(r.GitDir), ".git")
	}
	return filepath.Base(r.Root)
}

// errBare refuses what needs a work tree in a bare repository.
func (r *Repo) errBare() error {
	return &noWorkTreeError{r.GitDir, "a bare repository, which has no work tree: pack a range of its commits (gitctx pack A..B), or run gitctx in a clone with a work tree"}
}

// noWorkTreeError is a directory of a repository that is not in a work
// tree: the .git directory of one with a work tree, or a bare repository
// asked for what only a work tree has.
// It is an ErrNotRepository (a patch can still be read), with a message
// of its own.
type noWorkTreeError struct {
	dir string
	why string
}

func (e *noWorkTreeError) Error() string { return e.dir + ": " + e.why }

// NoWorkTree tells this error (a repository, without a work tree here)
// from a directory outside any repository.
func (e *noWorkTreeError) NoWorkTree() bool { return true }

// Is makes the error an ErrNotRepository for errors.Is.
func (e *noWorkTreeError) Is(target error) bool { return target == ErrNotRepository }

// Close releases the object store.
func (r *Repo) Close() error {
	r.closeWindows()
	r.closeDirs()
	if r.root != nil {
		_ = r.root.Close()
	}
	if r.obj != nil {
		return r.obj.close()
	}
	return nil
}

// EmptyTree is the id of the empty tree in this repository's hash format.
func (r *Repo) EmptyTree(ctx context.Context) (string, error) {
	r.emptyTreeOnce.Do(func() {
		out, err := r.git.output(ctx, strings.NewReader(""), "hash-object", "-t", "tree", "--stdin")
		r.emptyTree, r.emptyTreeErr = strings.TrimSpace(string(out)), err
	})
	return r.emptyTree, r.emptyTreeErr
}

// shallowBoundary lists the commits whose parents a shallow clone lacks.
func (r *Repo) shallowBoundary() (map[string]bool, error) {
	if !r.Shallow {
		return nil, nil
	}
	data, err := os.ReadFile(filepath.Join(r.CommonDir, "shallow"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read shallow file: %w", err)
	}
	set := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" {
			set[s] = true
		}
	}
	return set, sc.Err()
}

// objectStore opens the in-process object store on first use.
func (r *Repo) objectStore() (*objects, error) {
	r.objOnce.Do(func() { r.obj, r.objErr = openObjects(r.CommonDir, &r.git) })
	return r.obj, r.objErr
}
