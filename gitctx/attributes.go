package gitctx

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
)

// generatedAttr is the attribute GitHub reads to collapse a generated
// file in a pull request's diff (Linguist's override).
const generatedAttr = "linguist-generated"

// maxAttributesBytes bounds a .gitattributes file gitctx reads.
const maxAttributesBytes = 1 << 20

// LinguistGenerated reads the linguist-generated attribute of paths from
// the .gitattributes files of the change's base commit (HEAD for the index
// and the work tree), the root's and those of the directories above each
// path, as GitHub does: true where the attribute is set (or "true"), false
// where it is unset ("-" or "false"), the repository's word that a file is
// or is not generated. The base, not the change: a pull request cannot
// mark its own files generated to have them shown as a diff alone. Paths
// without it are not in the map. A .gitattributes file that cannot be
// read or parsed is passed over: the attribute only decides how a file is
// shown.
func (c *Change) LinguistGenerated(ctx context.Context, paths []string) (map[string]bool, error) {
	out := map[string]bool{}
	if c.repo == nil || len(paths) == 0 {
		return out, nil
	}
	stack, err := c.attributeStack(ctx, paths)
	if err != nil || len(stack) == 0 {
		return out, err
	}
	for _, p := range paths {
		if v, ok := attributeOf(stack, p, generatedAttr); ok {
			out[p] = v
		}
	}
	return out, nil
}

// attributeStack reads and parses, as the base has them, the
// .gitattributes files of the directories that hold paths, the root's
// first and the deepest last (git's order of priority, lowest first). One
// git ls-tree finds which of them the base has; a link is passed over, as
// git does.
func (c *Change) attributeStack(ctx context.Context, paths []string) ([]gitattributes.MatchAttribute, error) {
	if c.Source.Base == "" {
		return nil, nil // no commit before the change: nothing says anything
	}
	seen := map[string]bool{}
	args := []string{"ls-tree", "-z", c.Source.Base, "--"}
	for _, p := range paths {
		for d := path.Dir(p); ; d = path.Dir(d) {
			if f := path.Join(d, ".gitattributes"); !seen[f] {
				seen[f] = true
				args = append(args, f)
			}
			if d == "." || d == "/" {
				break
			}
		}
	}
	listed, err := c.repo.git.output(ctx, nil, args...)
	if err != nil {
		return nil, fmt.Errorf("list the .gitattributes files of %s: %w", ShortID(c.Source.Base), err)
	}
	var files []string
	for _, rec := range strings.Split(string(listed), "\x00") {
		meta, name, ok := strings.Cut(rec, "\t")
		if ok && !strings.HasPrefix(meta, "120000 ") {
			files = append(files, name)
		}
	}
	var failed error
	stack := parseAttributes(files, func(f string) ([]byte, bool) {
		data, ok, err := c.ReadBaseFile(ctx, f, maxAttributesBytes)
		if ctx.Err() != nil {
			failed = ctx.Err()
		}
		return data, err == nil && ok // one too large to be read is passed over
	})
	if failed != nil {
		return nil, failed
	}
	return stack, nil
}

// attributeOf returns whether the attribute name is set for p by the
// last line of stack that matches p and names it, and whether one does.
func attributeOf(stack []gitattributes.MatchAttribute, p, name string) (set, ok bool) {
	a, ok := lastAttribute(stack, p, name)
	switch {
	case !ok:
		return false, false
	case a.IsSet():
		return true, true
	case a.IsUnset():
		return false, true
	case a.IsValueSet():
		v := strings.ToLower(a.Value())
		return v == "true" || v == "1", true
	default: // "!name": back to unspecified
		return false, false
	}
}

// lastAttribute returns the attribute name as the last line of stack that
// matches p and names it gives it, and whether one does. (go-git's
// Matcher, asked for one attribute, can stop at a line that names
// another, and asked for all lets a lower line win.)
func lastAttribute(stack []gitattributes.MatchAttribute, p, name string) (gitattributes.Attribute, bool) {
	parts := strings.Split(p, "/")
	for i := len(stack) - 1; i >= 0; i-- {
		m := stack[i]
		if m.Pattern == nil || !m.Pattern.Match(parts) {
			continue
		}
		for _, a := range m.Attributes {
			if a.Name() == name {
				return a, true
			}
		}
	}
	return nil, false
}

// parseAttributes parses the .gitattributes files (paths in the
// repository) that read returns, the root's first and the deepest last
// (git's order of priority, lowest first). A file read does not return,
// or that go-git cannot parse (a line git would warn about spoils it), is
// left out: the attributes only decide how a file is shown.
func parseAttributes(files []string, read func(path string) ([]byte, bool)) []gitattributes.MatchAttribute {
	files = slices.Clone(files)
	slices.SortStableFunc(files, func(a, b string) int { return strings.Count(a, "/") - strings.Count(b, "/") })
	var stack []gitattributes.MatchAttribute
	for _, f := range files {
		data, ok := read(f)
		if !ok {
			continue
		}
		var domain []string
		if d := path.Dir(f); d != "." {
			domain = strings.Split(d, "/")
		}
		attrs, err := gitattributes.ReadAttributes(bytes.NewReader(data), domain, domain == nil)
		if err != nil {
			continue
		}
		stack = append(stack, attrs...)
	}
	return stack
}
