package gitctx

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// LargeFile is the size over which an untracked file of a work-tree
// change is listed as added but never diffed or searched: git would read
// it whole to count its lines, print its patch and grep it (beside a
// one-line change, a 500 MB text took the pack from 0.08 to 3.7 s), and no
// pack shows, nor any check reads, that much of a file.
const LargeFile = 64 << 20

// splitLarge takes the untracked regular files over LargeFile out of
// paths, with their modes.
func (r *Repo) splitLarge(paths []string) (rest []string, large map[string]uint32) {
	for _, p := range paths {
		info, err := os.Lstat(filepath.Join(r.Root, filepath.FromSlash(p)))
		if err != nil || !info.Mode().IsRegular() || info.Size() <= r.largeFile {
			continue
		}
		if large == nil {
			large = map[string]uint32{}
		}
		large[p] = ModeRegular
		if info.Mode()&0o111 != 0 {
			large[p] = ModeExecutable
		}
	}
	if large == nil {
		return paths, nil
	}
	for _, p := range paths {
		if _, ok := large[p]; !ok {
			rest = append(rest, p)
		}
	}
	return rest, large
}

// withLarge adds the large untracked files to a change's files, as added,
// in the order of their paths.
func withLarge(files []*File, large map[string]uint32) []*File {
	for p, mode := range large {
		i, _ := slices.BinarySearchFunc(files, p, func(f *File, p string) int { return strings.Compare(f.Path, p) })
		files = slices.Insert(files, i, &File{Path: p, Status: Added, NewMode: mode})
	}
	return files
}

// isLarge reports whether f is one of the change's large untracked files.
func (c *Change) isLarge(f *File) bool {
	_, ok := slices.BinarySearch(c.large, f.Path)
	return ok && f.Status == Added && f.NewID == ""
}

// largePatch is the patch of a large untracked file as git would give it,
// but read here, once through and once a run: binary if its first 8,000
// bytes hold a NUL (git's test), else oversize with the lines it adds
// counted.
func (c *Change) largePatch(f *File) (*Patch, error) {
	c.largeMu.Lock()
	defer c.largeMu.Unlock()
	if p, ok := c.largePatches[f]; ok {
		return p, nil
	}
	p, err := c.readLarge(f)
	if err != nil {
		return nil, err
	}
	if c.largePatches == nil {
		c.largePatches = map[*File]*Patch{}
	}
	c.largePatches[f] = p
	return p, nil
}

func (c *Change) readLarge(f *File) (*Patch, error) {
	root, native, err := c.repo.worktreeFile(f.Path)
	if err != nil {
		return nil, err
	}
	file, err := root.Open(native)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	buf := make([]byte, 256<<10)
	p := &Patch{Oversize: true}
	last := byte('\n')
	for first := true; ; first = false {
		n, err := file.Read(buf)
		if first && bytes.IndexByte(buf[:min(n, 8000)], 0) >= 0 {
			return &Patch{Binary: true}, nil
		}
		p.Size += int64(n)
		p.Added += bytes.Count(buf[:n], []byte{'\n'})
		if n > 0 {
			last = buf[n-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if last != '\n' {
		p.Added++ // a last line without a newline is a line to git
	}
	return p, nil
}

// withLargePatches wraps fn, which Patches calls in the order of the
// files, so that the wanted large files, which git does not print, are
// handed to it in their places too; flush hands on the ones after the
// last file git printed.
func (c *Change) withLargePatches(want func(*File) bool, fn func(*File, *Patch) error) (wrapped func(*File, *Patch) error, flush func() error) {
	if len(c.large) == 0 {
		return fn, func() error { return nil }
	}
	next := 0
	upTo := func(stop *File) error {
		for ; next < len(c.Files) && c.Files[next] != stop; next++ {
			f := c.Files[next]
			if !c.isLarge(f) || !want(f) {
				continue
			}
			p, err := c.largePatch(f)
			if err != nil {
				return err
			}
			if err := fn(f, p); err != nil {
				return err
			}
		}
		return nil
	}
	wrapped = func(f *File, p *Patch) error {
		if err := upTo(f); err != nil {
			return err
		}
		return fn(f, p)
	}
	return wrapped, func() error { return upTo(nil) }
}
