package gitctx

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// resolveUnnamedBases finds the base of each changed file whose patch names
// none (diff -u, hg diff, svn diff write no index line) where git apply
// would: the file at its old path in the index, else in HEAD, when the
// patch (every patch of a series that changes it, in turn) applies to it
// exactly. A file no candidate fits keeps no base, and the pack shows its
// diff alone, as before.
func (r *Repo) resolveUnnamedBases(ctx context.Context, files []*File) error {
	var asked []*File
	var in bytes.Buffer
	for _, f := range files {
		pf := f.applyTo
		if f.OldID != "" || f.Status == Added || pf == nil || pf.IsBinary || len(pf.TextFragments) == 0 ||
			pf.OldOIDPrefix != "" || strings.ContainsAny(oldName(f), "\n") {
			continue
		}
		asked = append(asked, f)
		fmt.Fprintf(&in, ":0:%s\nHEAD:%s\n", oldName(f), oldName(f))
	}
	if len(asked) == 0 {
		return nil
	}
	out, err := r.git.output(ctx, &in, "cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)")
	if err != nil {
		return fmt.Errorf("look up the patch's bases: %w", err)
	}
	store, err := r.objectStore()
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for _, f := range asked {
		var ids []string
		for range 2 {
			if !sc.Scan() {
				return fmt.Errorf("look up the patch's bases: short answer from git cat-file")
			}
			// "<id> blob <size>", or "<name> missing"
			if fields := strings.Fields(sc.Text()); len(fields) == 3 && fields[1] == "blob" {
				ids = append(ids, fields[0])
			}
		}
		for _, id := range ids {
			_, data, err := store.blob(ctx, id, maxComposed)
			if err != nil {
				continue
			}
			if _, err := applySteps(f, data); err == nil {
				f.OldID = id
				break
			}
		}
	}
	return sc.Err()
}

// oldName is the name f had before the patch.
func oldName(f *File) string {
	if f.OldPath != "" {
		return f.OldPath
	}
	return f.Path
}

// applySteps applies f's patch to base: each patch of a series that
// changes f, in turn, exactly.
func applySteps(f *File, base []byte) ([]byte, error) {
	steps := f.steps
	if len(steps) == 0 {
		steps = []*gitdiff.File{f.applyTo}
	}
	cur := base
	for _, s := range steps {
		var out bytes.Buffer
		if err := gitdiff.Apply(&out, bytes.NewReader(cur), s); err != nil {
			return nil, err
		}
		cur = out.Bytes()
	}
	return cur, nil
}
