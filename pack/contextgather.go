package pack

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// gatherContext reads the files the user added (ContextOptions) into
// entries of role context, kept in b.context until the neighbours are
// found, and applies the error mode to what went wrong. It runs before
// anything else is read, so that a strict pack fails fast.
func (b *builder) gatherContext(ctx context.Context) error {
	o := b.opts.Context
	if !o.requested() {
		return nil
	}
	repo := b.ch.Repo()
	if repo == nil {
		return errors.New("context files need a git repository, and this patch was read outside one")
	}
	if repo.Bare {
		return errors.New("context files are read from the work tree, and a bare repository has none")
	}
	b.opts.Progress("reading context files")
	g, err := newGatherer(repo, b)
	if err != nil {
		return err
	}
	defer g.fsys.Close()
	for _, f := range b.ch.Files {
		g.seen[f.Path] = true // in the pack already, as a changed file
	}
	for _, p := range o.Paths {
		if err := g.addPath(ctx, p, "--context "+g.shown(p)); err != nil {
			return err
		}
	}
	for _, p := range o.CmdPaths {
		if err := g.addPath(ctx, p, "--context-cmd"); err != nil {
			return err
		}
	}
	if q := strings.TrimSpace(o.Query); q != "" {
		if err := g.addQuery(ctx, q); err != nil {
			return err
		}
	}
	b.context = g.entries
	if err := b.settleProblems(ctx, g.problems); err != nil {
		return err
	}
	notes, err := redactProblems(ctx, b.opts.Gate, g.notes)
	b.problems = append(b.problems, notes...)
	return err
}

// shown is a --context path as the pack and the record name it: relative
// to the repository root when it lies inside, so that neither carries
// the checkout's place on this machine (a home directory, a client's
// name) to the model, and two clones pack the same bytes.
func (g *gatherer) shown(p string) string {
	if !filepath.IsAbs(p) {
		return filepath.ToSlash(p)
	}
	for _, root := range []string{g.root, g.realRoot} {
		if rel, ok := within(root, filepath.Clean(p)); ok {
			return rel
		}
	}
	return p
}

// gatherer collects the context entries and their problems.
type gatherer struct {
	b        *builder
	repo     *gitctx.Repo
	root     string   // the repository's root
	realRoot string   // the root with symbolic links resolved
	fsys     *os.Root // the work tree; nothing is reached outside it
	opts     ContextOptions
	seen     map[string]bool // paths that have an entry already
	entries  []*entry
	problems []Problem // follow the error mode
	notes    []Problem // warnings whatever the mode
}

func newGatherer(repo *gitctx.Repo, b *builder) (*gatherer, error) {
	real, err := filepath.EvalSymlinks(repo.Root)
	if err != nil {
		return nil, fmt.Errorf("resolve the repository root: %w", err)
	}
	fsys, err := os.OpenRoot(repo.Root)
	if err != nil {
		return nil, fmt.Errorf("open the work tree: %w", err)
	}
	return &gatherer{b: b, repo: repo, root: repo.Root, realRoot: real, fsys: fsys, opts: b.opts.Context, seen: map[string]bool{}}, nil
}

// addPath adds a file, or the files of a directory, named by the user.
// Only a failure of git or a cancellation is an error; the rest are
// problems.
func (g *gatherer) addPath(ctx context.Context, raw, reason string) error {
	if strings.TrimSpace(raw) == "" {
		return nil // an empty element of a list, not the whole repository
	}
	rel, ok := g.resolve(raw)
	if !ok {
		return nil
	}
	info, err := g.fsys.Stat(filepath.FromSlash(rel))
	switch {
	case err != nil:
		g.ioProblem(rel, err)
	case info.IsDir():
		return g.walk(ctx, rel, reason)
	case !info.Mode().IsRegular():
		g.problem(rel, ReasonUnreadable, "not a regular file")
	case g.seen[rel]:
	default:
		g.seen[rel] = true
		e := g.add(rel, reason)
		e.size = info.Size()
		switch {
		case g.b.opts.Rules.IsCredential(rel):
			e.excluded = ReasonCredentials // never packed, even when asked for by name
			g.notes = append(g.notes, Problem{Path: rel, Kind: ReasonCredentials,
				Message: "left out: its name marks a credential file, which is never packed, even when named"})
		case e.size > g.opts.MaxFileBytes:
			e.excluded = ReasonSizeLimit
			g.problem(rel, ReasonSizeLimit, g.tooLarge(e.size))
		default:
			g.read(e, true)
		}
	}
	return nil
}

// resolve makes a path the user gave relative to the root, with symbolic
// links resolved; a path outside the repository, or reaching out of it
// through a link, or into .git, is a problem.
func (g *gatherer) resolve(raw string) (string, bool) {
	abs := filepath.FromSlash(raw)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(g.root, abs)
	}
	abs = filepath.Clean(abs)
	shown, ok := within(g.root, abs)
	if !ok {
		if shown, ok = within(g.realRoot, abs); !ok {
			g.problem(raw, ProblemOutside, "outside the repository")
			return "", false
		}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		g.ioProblem(shown, err)
		return "", false
	}
	rel, ok := within(g.realRoot, real)
	if !ok {
		g.problem(shown, ProblemOutside, "a symbolic link to a path outside the repository, not followed")
		return "", false
	}
	if underGit(rel) {
		g.problem(shown, ProblemOutside, "inside .git, which is never packed")
		return "", false
	}
	return rel, true
}

// within returns p relative to root, with forward slashes, if p is inside.
func within(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func underGit(rel string) bool {
	for part := range strings.SplitSeq(rel, "/") {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

// read reads and decodes a context file. A file named explicitly that is
// too large or binary is a problem; one met in a walk is only recorded.
func (g *gatherer) read(e *entry, explicit bool) {
	size, data, err := g.b.readWorktree(e.path, g.opts.MaxFileBytes)
	e.size = size
	switch {
	case errors.Is(err, gitctx.ErrTooLarge):
		e.excluded = ReasonSizeLimit
		if explicit {
			g.problem(e.path, ReasonSizeLimit, g.tooLarge(size))
		}
		return
	case err != nil:
		e.excluded = ReasonUnreadable
		g.ioProblem(e.path, err)
		return
	}
	g.b.setContent(e, data)
	switch {
	case e.excluded == ReasonBinary && hasUTF16BOM(data):
		e.excluded = ReasonEncoding
		g.problem(e.path, ReasonEncoding, "not decodable: a UTF-16 byte-order mark, but not valid UTF-16 text")
	case e.excluded == ReasonBinary && explicit:
		g.problem(e.path, ReasonBinary, "binary content, not packed")
	}
}

func hasUTF16BOM(data []byte) bool {
	return len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF)
}

// add makes an entry of role context and keeps it.
func (g *gatherer) add(p, reason string) *entry {
	e := &entry{path: p, role: RoleContext, kind: KindText, reason: reason, diffContext: -1}
	g.entries = append(g.entries, e)
	return e
}

func (g *gatherer) tooLarge(size int64) string {
	return fmt.Sprintf("%s bytes, over the size limit of %s bytes", thousands(int(size)), thousands(int(g.opts.MaxFileBytes)))
}

func (g *gatherer) problem(p, kind, msg string) {
	g.problems = append(g.problems, Problem{Path: p, Kind: kind, Message: msg})
}

// ioProblem turns a failed stat or read into a problem.
func (g *gatherer) ioProblem(p string, err error) {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		g.problem(p, ProblemMissing, "no such file or directory")
	case errors.Is(err, fs.ErrPermission):
		g.problem(p, ProblemPermission, "permission denied")
	default:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		g.problem(p, ReasonUnreadable, err.Error())
	}
}
