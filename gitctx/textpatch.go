package gitctx

import (
	"context"
	"io"
	"slices"
)

// TextPatches reads the patches of files as text: what `git diff --text`
// prints for them with the flags of every other patch. It is for files
// git shows as "Binary files differ" because an attribute says so (`-diff`
// or `binary` in .gitattributes, often set on lock files to quiet their
// diffs) while their content is text. The files must be the change's;
// fn is called as Patches calls it. A change read from a patch has no
// other diff to read: fn is not called.
func (c *Change) TextPatches(ctx context.Context, files []*File, maxBytes int64, fn func(*File, *Patch) error) error {
	if c.repo == nil || c.diffArgs == nil || len(files) == 0 {
		return nil
	}
	want := make(map[*File]bool, len(files))
	paths := make([]string, 0, len(files))
	for _, f := range files {
		want[f] = true
		paths = append(paths, f.Path)
		if f.OldPath != "" && f.OldPath != f.Path {
			paths = append(paths, f.OldPath) // git pairs a rename only with both its paths
		}
	}
	read := func(out io.Reader) error {
		return splitPatches(ctx, out, c.Files, func(f *File) bool { return want[f] }, maxBytes, fn)
	}
	args := append(append([]string{"diff", "-p", "--text"}, patchFlags...), diffFlags...)
	args = append(append(append(args, c.diffArgs...), "--"), paths...)
	g := c.repo.git
	g.env = append(slices.Clip(g.env), c.diffEnv...)
	return g.stream(ctx, read, args...)
}
