package neighbours

import (
	"context"
	"path"
	"strings"
)

// siblings adds the files of the same kind beside each changed file: a
// weak signal. (A README's siblings are the other documents beside it, not
// the build files at the repository root.)
func (f *finder) siblings(context.Context) error {
	dirs := map[string][]string{}
	for _, s := range f.seeds() {
		dirs[path.Dir(s)] = append(dirs[path.Dir(s)], s)
	}
	for p := range f.files {
		for _, seed := range dirs[path.Dir(p)] {
			if !sameKind(p, seed) {
				continue
			}
			f.add(p, 0, 0, "in the same directory as "+seed)
			if c := f.cands[p]; c != nil {
				c.sibling = true
			}
			break
		}
	}
	return nil
}

// sameKind reports whether two files are written in the same language, or
// share an extension.
func sameKind(a, b string) bool {
	if la := languageOf(a); la != "" {
		return la == languageOf(b)
	}
	return strings.EqualFold(path.Ext(a), path.Ext(b))
}
