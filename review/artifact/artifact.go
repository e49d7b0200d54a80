// Package artifact saves a run's outputs (the pack, its record, a review)
// into a directory so that a reader never sees a half-written set: every
// file is written beside its destination under a temporary name and renamed
// into place only when all are complete, under a lock that keeps two runs
// from interleaving their renames.
//
// A destination that is not a regular file is never replaced: a device or
// a FIFO (-o /dev/null, a pipe a reader waits on) is opened and written
// through, as the shell's > does; a symbolic link the user named is
// followed, and the file it leads to is written as any other.
package artifact

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// File is one output: a name inside the directory and its bytes.
type File struct {
	Name string
	Data []byte
}

// tempPrefix marks temporary files; a run that is killed (not interrupted,
// which is handled) can leave one, and the next run removes it.
const tempPrefix = ".gitctx-tmp-"

// Save writes files into dir, creating dir if needed, and removes the
// files named in remove (stale outputs of an earlier run). Either all files
// are in place when Save returns nil, or none of dir's files has changed:
// a failure or a cancelled ctx before the renames leaves dir as it was, and
// no temporary file behind. The names are gitctx's own, in a directory a
// repository may have brought: a symbolic link among them is replaced, not
// followed. A device or FIFO is written through (see the package comment).
func Save(ctx context.Context, dir string, files []File, remove []string) error {
	return save(ctx, dir, files, remove, false)
}

// SaveFile writes one file the user named atomically: the previous content
// stays until the new one is complete. A symbolic link is followed (the
// file it leads to is written, the link stays), and a device or FIFO is
// written through.
func SaveFile(ctx context.Context, path string, data []byte) error {
	return save(ctx, filepath.Dir(path), []File{{Name: filepath.Base(path), Data: data}}, nil, true)
}

// Destination returns the file SaveFile writes when given path: path
// itself, or the file its symbolic links lead to, there or not.
func Destination(path string) (string, error) {
	t, err := resolve(path, true)
	return t.path, err
}

// WritesThrough reports whether SaveFile writes into path as it is (a
// device or a FIFO, or a link to one) rather than replacing it.
func WritesThrough(path string) bool {
	t, err := resolve(path, true)
	return err == nil && t.through
}

// save is Save; follow says whether a symbolic link among the files is
// followed or replaced.
func save(ctx context.Context, dir string, files []File, remove []string, follow bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output directory %s: %w", dir, err)
	}
	targets := make([]target, len(files))
	defer func() {
		for _, t := range targets {
			if t.temp != "" {
				_ = os.Remove(t.temp)
			}
		}
	}()
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if f.Name == "" || strings.ContainsRune(f.Name, os.PathSeparator) || f.Name == "." || f.Name == ".." {
			return fmt.Errorf("save %q: not a plain file name", f.Name)
		}
		t, err := resolve(filepath.Join(dir, f.Name), follow)
		if err != nil {
			return err
		}
		if !t.through {
			if t.temp, err = writeTemp(t.path, f.Data); err != nil {
				return err
			}
		}
		targets[i] = t
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	unlock, err := lock(dir)
	if err != nil {
		return err
	}
	defer unlock()
	// What is written through cannot wait for the renames or be undone:
	// it goes first, so that one that fails (a FIFO nobody reads, and an
	// interruption) leaves the renamed files as they were.
	for i, t := range targets {
		if t.through {
			if err := writeThrough(ctx, t.path, files[i].Data); err != nil {
				return err
			}
		}
	}
	// From here on the set is committed; an interruption no longer stops it
	// halfway.
	for i, t := range targets {
		if t.through {
			continue
		}
		if err := os.Rename(t.temp, t.path); err != nil {
			return fmt.Errorf("save %s: %w", filepath.Join(dir, files[i].Name), err)
		}
		targets[i].temp = ""
	}
	for _, name := range remove {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove stale %s: %w", filepath.Join(dir, name), err)
		}
	}
	removeStaleTemps(dir)
	return nil
}

// target is where one file is written, and how.
type target struct {
	path    string // the file written: the destination, or where its links lead
	through bool   // a device, FIFO or other special file: written into, never replaced
	temp    string // the temporary file renamed onto path, until it is
}

// maxLinks bounds the symbolic links followed from one destination, as
// the kernel's own limit does (ELOOP).
const maxLinks = 40

// resolve says how to write dest. A missing or regular file is replaced
// atomically; so is a symbolic link unless follow, when the file it leads
// to (existing or not) is resolved the same way. A directory is refused;
// anything else (a device, a FIFO) is written through.
func resolve(dest string, follow bool) (target, error) {
	p := dest
	for range maxLinks {
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return target{path: p}, nil
		case err != nil:
			return target{}, fmt.Errorf("save %s: %w", dest, err)
		case fi.Mode()&fs.ModeSymlink != 0 && follow:
			if p, err = linkTarget(p); err != nil {
				return target{}, fmt.Errorf("save %s: %w", dest, err)
			}
			continue
		case fi.Mode()&fs.ModeSymlink != 0, fi.Mode().IsRegular():
			return target{path: p}, nil
		case fi.IsDir():
			if p != dest {
				return target{}, fmt.Errorf("save %s: it leads to %s, a directory", dest, p)
			}
			return target{}, fmt.Errorf("save %s: it is a directory", dest)
		}
		return target{path: p, through: true}, nil
	}
	return target{}, fmt.Errorf("save %s: more than %d symbolic links", dest, maxLinks)
}

// linkTarget returns the path the symbolic link at p leads to, in a
// directory with no link in its path: a ".." in the link then means what
// the kernel takes it to mean.
func linkTarget(p string) (string, error) {
	to, err := os.Readlink(p)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(to) {
		dir, _ := filepath.Split(p)
		to = dir + to // not cleaned: dir may end in a link
	}
	dir, base := filepath.Split(to)
	if dir == "" {
		return base, nil
	}
	real, err := filepath.EvalSymlinks(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return filepath.Join(dir, base), nil // writing there will say what is missing
	case err != nil:
		return "", err
	}
	return filepath.Join(real, base), nil
}

// writeThrough writes data into a file that is not a regular one, as the
// shell's > does: opened for writing and truncated (where that means
// anything), never created or renamed over. An interruption ends the wait
// for a FIFO's reader, or for room in its pipe.
func writeThrough(ctx context.Context, path string, data []byte) error {
	f, err := openThrough(ctx, path)
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	// a FIFO's writes can be given a deadline; a device's cannot, and
	// does not need one
	stop := context.AfterFunc(ctx, func() { _ = f.SetWriteDeadline(time.Unix(1, 0)) })
	_, err = f.Write(data)
	stop()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

// openThrough opens path for writing. Opening a FIFO waits for a reader
// in the kernel, where no interruption reaches it: the open runs aside,
// and an interrupted caller goes on without it.
func openThrough(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-done; o.f != nil {
				_ = o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// writeTemp writes data to a new temporary file beside path, the file it
// is to replace, and returns its name. It is created as any file a
// program writes is (0666 less the umask), then given the permissions of
// the file it replaces, if there is one: a pack or answer the user made
// private stays private.
func writeTemp(path string, data []byte) (string, error) {
	dir := filepath.Dir(path)
	var f *os.File
	var err error
	for range 100 {
		name := filepath.Join(dir, tempPrefix+strconv.FormatUint(rand.Uint64(), 36))
		if f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666); !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", fmt.Errorf("write in %s: %w", dir, err)
	}
	name := f.Name()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		_ = os.Remove(name)
		return "", fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(name)
		return "", fmt.Errorf("write %s: %w", name, err)
	}
	if info, err := os.Lstat(path); err == nil && info.Mode().IsRegular() {
		if err := os.Chmod(name, info.Mode().Perm()); err != nil {
			_ = os.Remove(name)
			return "", fmt.Errorf("write %s: %w", name, err)
		}
	}
	return name, nil
}

// removeStaleTemps removes temporary files a killed run left behind. Only
// files older than a minute go, so that the temporary files of a run still
// writing are never touched.
func removeStaleTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && stale(info) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
