package gitctx

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
)

// maxPathspecBytes bounds the paths LineCounts names on git's command
// line.
const maxPathspecBytes = 256 << 10

// LineCount is how many lines a file's change adds and deletes.
type LineCount struct{ Added, Deleted int }

// LineCounts counts the lines each of files adds and deletes, as git diff
// --numstat does, without reading their patches: for the files a pack
// leaves out, whose line counts it still gives. A binary file has none.
func (c *Change) LineCounts(ctx context.Context, files []*File) (map[*File]LineCount, error) {
	out := map[*File]LineCount{}
	if len(files) == 0 {
		return out, nil
	}
	if c.repo == nil || c.diffArgs == nil {
		for _, f := range files {
			if f.patch != nil {
				out[f] = LineCount{f.patch.Added, f.patch.Deleted}
			}
		}
		return out, nil
	}
	byPath := map[string]*File{}
	var paths []string
	size := 0
	for _, f := range files {
		if c.isLarge(f) { // counted here: git never diffs it
			if p, err := c.largePatch(f); err == nil && !p.Binary {
				out[f] = LineCount{Added: p.Added}
			}
			continue
		}
		byPath[f.Path] = f
		paths = append(paths, f.Path)
		if f.OldPath != "" {
			paths = append(paths, f.OldPath)
		}
		size += len(f.Path) + len(f.OldPath) + 2
	}
	if len(byPath) == 0 {
		return out, nil
	}
	if size > maxPathspecBytes {
		paths = nil // the whole change, counted once: a command line has its limits
	}
	args := append(append([]string{"diff", "--numstat", "-z"}, diffFlags...), c.diffArgs...)
	args = append(append(args, "--"), paths...)
	g := c.repo.git
	g.env = append(slices.Clip(g.env), c.diffEnv...)
	data, err := g.output(ctx, nil, args...)
	if err != nil {
		return nil, fmt.Errorf("count the lines of %d files: %w", len(files), err)
	}
	for rec, rest := range numstatRecords(data) {
		if f := byPath[rest]; f != nil {
			out[f] = rec
		}
	}
	return out, nil
}

// numstatRecords reads git diff --numstat -z: "A\tD\tpath\x00", or for a
// rename "A\tD\t\x00old\x00new\x00"; binary files ("-\t-") are left out.
// It yields each count with the file's (new) path.
func numstatRecords(data []byte) func(yield func(LineCount, string) bool) {
	return func(yield func(LineCount, string) bool) {
		for len(data) > 0 {
			end := bytes.IndexByte(data, 0)
			if end < 0 {
				return
			}
			head := data[:end]
			data = data[end+1:]
			fields := bytes.SplitN(head, []byte{'\t'}, 3)
			if len(fields) != 3 {
				return
			}
			path := string(fields[2])
			if path == "" { // a rename: the old path, then the new
				var parts [][]byte
				for range 2 {
					end = bytes.IndexByte(data, 0)
					if end < 0 {
						return
					}
					parts, data = append(parts, data[:end]), data[end+1:]
				}
				path = string(parts[1])
			}
			added, errA := strconv.Atoi(string(fields[0]))
			deleted, errD := strconv.Atoi(string(fields[1]))
			if errA != nil || errD != nil {
				continue // binary
			}
			if !yield(LineCount{added, deleted}, path) {
				return
			}
		}
	}
}
