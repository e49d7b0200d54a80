package pack

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// walk adds the files git lists under a directory, within the depth and
// per-directory limits. Files excluded by name are recorded without being
// opened; the others are checked with lstat before they are read.
func (g *gatherer) walk(ctx context.Context, dir, reason string) error {
	paths, err := g.repo.ListFiles(ctx, true, dir)
	if err != nil {
		return fmt.Errorf("list the files of %s: %w", dir, err)
	}
	byDir := map[string][]*entry{}
	var walked []*entry
	for _, p := range paths {
		sub := p
		if dir != "." {
			sub = strings.TrimPrefix(p, dir+"/")
		}
		if g.seen[p] || !g.inDepth(sub) || g.excludedDir(sub) {
			continue
		}
		e := g.candidate(p, reason)
		if e == nil {
			continue
		}
		walked = append(walked, e)
		if e.included() {
			byDir[path.Dir(p)] = append(byDir[path.Dir(p)], e)
		}
	}
	g.limitDirs(byDir)
	for _, e := range walked {
		if e.included() {
			g.read(e, false)
		}
	}
	return nil
}

// candidate makes the entry of a file met in a walk, excluded by its name,
// kind or size where it must be; nil when there is no such file to record
// (in the index but not on disk, or not a file).
func (g *gatherer) candidate(p, reason string) *entry {
	rules := &g.b.opts.Rules
	why := ""
	switch {
	case rules.Outputs.has(p):
		why = ReasonOwnOutput
	case rules.IsCredential(p):
		why = ReasonCredentials
	default:
		why = rules.nameReason(path.Base(p))
	}
	if why != "" {
		g.seen[p] = true
		e := g.add(p, reason)
		e.excluded = why
		return e
	}
	info, err := g.fsys.Lstat(filepath.FromSlash(p))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err == nil && !info.Mode().IsRegular() && info.Mode()&fs.ModeSymlink == 0:
		return nil // a submodule's directory
	}
	g.seen[p] = true
	e := g.add(p, reason)
	switch {
	case err != nil:
		e.excluded = ReasonUnreadable
		g.ioProblem(p, err)
	case info.Mode()&fs.ModeSymlink != 0:
		e.kind, e.excluded = KindSymlink, ReasonSymlink // never followed from a walk
	case info.Size() > g.opts.MaxFileBytes:
		e.size, e.excluded = info.Size(), ReasonSizeLimit
	default:
		e.size = info.Size()
	}
	return e
}

func (g *gatherer) inDepth(sub string) bool {
	return g.opts.RecurseDepth < 0 || strings.Count(sub, "/") <= g.opts.RecurseDepth
}

// excludedDir reports whether a path below a walked directory is inside a
// default-excluded directory (node_modules, build, .git …), which a walk
// never enters.
func (g *gatherer) excludedDir(sub string) bool {
	parts := strings.Split(sub, "/")
	for _, d := range parts[:len(parts)-1] {
		if g.b.opts.Rules.dirReason(d) != "" || strings.EqualFold(d, ".git") {
			return true
		}
	}
	return false
}

// limitDirs keeps the first MaxFilesPerDir files of each directory, by
// name with numbers in order (f2 before f10), and records the rest as left
// out, with one problem per directory.
func (g *gatherer) limitDirs(byDir map[string][]*entry) {
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	limit := g.opts.MaxFilesPerDir
	for _, d := range dirs {
		files := byDir[d]
		if len(files) <= limit {
			continue
		}
		slices.SortStableFunc(files, func(a, b *entry) int { return naturalCompare(a.path, b.path) })
		for _, e := range files[limit:] {
			e.excluded = ReasonDirLimit
		}
		g.problem(d, ReasonDirLimit, fmt.Sprintf("%s files, over the limit of %s per directory: the first %s by name are packed, %s left out",
			thousands(len(files)), thousands(limit), thousands(limit), thousands(len(files)-limit)))
	}
}

// naturalCompare orders names as people count: a run of digits by its
// value (f2 before f10), everything else byte by byte.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitsPrefix(a), digitsPrefix(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitsPrefix is the length of the run of ASCII digits s starts with.
func digitsPrefix(s string) int {
	n := 0
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	return n
}
