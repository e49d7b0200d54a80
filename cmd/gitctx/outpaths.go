package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/review/artifact"
)

// notDirectory refuses a flag naming a file to write that is a
// directory: the file could not be written there, and that would be found
// only after the change is packed. hint says what to do instead.
func notDirectory(cmd *cobra.Command, flag, path, hint string) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usagef(cmd, fmt.Errorf("%s %s is a directory: %s", flag, path, hint))
	}
	return nil
}

// outputFile is the file -o writes (where its symbolic links lead, as
// the pack is written there), or "" when the pack goes to the output
// directory or to stdout.
func (o *packOptions) outputFile() string {
	if o.output == "" || o.output == "-" {
		return ""
	}
	return destination(o.output)
}

// destination is the file a path the user names is written as: where its
// symbolic links lead, or the path itself.
func destination(path string) string {
	if p, err := artifact.Destination(path); err == nil {
		return p
	}
	return path
}

// namedFile is a file the user names for gitctx to write: -o, and
// review's --post-file, --sarif and --rdjson.
type namedFile struct{ flag, path string }

// namedFiles are the files the options name, each where its symbolic
// links lead (as it is written there).
func (o *packOptions) namedFiles() []namedFile {
	var out []namedFile
	for _, f := range append([]namedFile{{"-o", o.output}}, o.reviewFiles...) {
		if f.path == "" || f.path == "-" {
			continue
		}
		f.path = destination(f.path)
		out = append(out, f)
	}
	return out
}

// checkOutputPaths refuses an output directory or a named file gitctx
// must not write: a default directory that is a link or not a directory
// (see realDir); a named file that is one of the files gitctx writes into
// the output directory (the record, the pack, the answer), which one
// write would overwrite with the other; and two flags naming one file.
func checkOutputPaths(o *packOptions, outDir string, defaultDir bool) error {
	if defaultDir {
		if err := realDir(outDir); err != nil {
			return err
		}
	}
	type output struct{ name, what string }
	own := []output{{"record.json", "the record"}}
	if defaultDir {
		own = append(own, output{".gitignore", "the .gitignore that keeps the directory out of git"})
	}
	reviews := own // a review also writes its pack and answer there
	if f, err := pack.ParseFormat(o.format); err == nil {
		reviews = append(slices.Clip(own), output{"pack." + f.Ext(), "the pack"}, output{reviewFile, "the saved answer"},
			output{sarifFile, "the findings as SARIF"}, output{rdjsonFile, "the findings as rdjson"})
	}
	named := o.namedFiles()
	for i, f := range named {
		clash := own
		if f.flag != "-o" {
			clash = reviews
		}
		for _, w := range clash {
			if p := filepath.Join(outDir, w.name); samePath(f.path, p) {
				return &usageError{err: fmt.Errorf("%s %s would overwrite %s (%s): name another file, or send the outputs elsewhere with --out DIR", f.flag, f.path, w.what, p)}
			}
		}
		for _, g := range named[:i] {
			if samePath(f.path, g.path) && !artifact.WritesThrough(f.path) {
				return &usageError{err: fmt.Errorf("%s and %s name one file (%s): name two", g.flag, f.flag, f.path)}
			}
		}
	}
	return nil
}

// samePath reports whether two paths name one file: the same path once
// their links are resolved, or two names of one existing file.
func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if realPath(a) == realPath(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// realPath is p made absolute, with the symbolic links of its longest
// existing part resolved; the rest, not there yet, is kept as it is.
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	var missing []string
	for q := abs; ; {
		real, err := filepath.EvalSymlinks(q)
		if err == nil {
			return filepath.Join(append([]string{real}, missing...)...)
		}
		parent := filepath.Dir(q)
		if parent == q || !errors.Is(err, os.ErrNotExist) {
			return abs
		}
		missing = append([]string{filepath.Base(q)}, missing...)
		q = parent
	}
}

// ownOutputs names, as paths in the change's repository, where this run
// writes: the output directory and the -o file, those of them inside it.
// The pack leaves them out, so that a run does not pack what an earlier
// one wrote (an output directory inside the work tree that git does not
// ignore, or a pack committed by mistake).
func ownOutputs(ch *gitctx.Change, o *packOptions, outDir string) pack.Outputs {
	var out pack.Outputs
	r := ch.Repo()
	if r == nil {
		return out
	}
	if r.Bare {
		return out // every file is read from the objects
	}
	if p, ok := repoPath(r.Root, outDir); ok {
		out.Dirs = append(out.Dirs, p)
	}
	if p, ok := repoPath(r.Root, o.outputFile()); ok {
		out.Files = append(out.Files, p)
	}
	return out
}

// repoPath returns p as a path in the repository at root ("dir/file", or
// "." for the root), or false when p is outside it.
func repoPath(root, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	rel, err := filepath.Rel(realPath(root), realPath(p))
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
