package gitctx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// ErrUnsafePath means a path is absolute, climbs out of the repository with
// "..", or reaches into a .git directory.
var ErrUnsafePath = errors.New("path leaves the repository")

// ErrBadPatch means the input is not a patch gitctx can read.
var ErrBadPatch = errors.New("not a readable patch")

// ReadPatch selects the change described by a unified diff (git's format or
// plain `diff -u`), or by a series of commits' patches (git format-patch
// --stdout, git log -p, git show): their messages are the change's
// commits, and a file several of them change is one file of the change
// (see composeSeries). name is how the user named it ("-" for stdin).
// repo may be nil; with a repository, the blob ids in the patch's index
// lines are used to read the files' contents, applying the patch to the
// pre-image where the post-image is not stored, and a file whose content
// the patch leaves as it is without naming it (a rename of 100%
// similarity) is read from the repository (see resolveSameContent). A
// patch naming any absolute path, a path with "..", or a path under .git
// is refused as a whole.
func ReadPatch(ctx context.Context, repo *Repo, name string, r io.Reader) (*Change, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read patch %s: %w: %w", name, ErrBadPatch, err)
	}
	data = plainText(data)
	if coloured.Match(data) {
		data = sgr.ReplaceAll(data, nil) // git diff --color=always, or color.ui=always
	}
	if combinedDiff.Match(data) {
		return nil, fmt.Errorf("read patch %s: %w: it holds a merge's combined diff (\"diff --cc\", as git show and git log --cc print a merge), which shows the merge against all its parents at once; pack the merge against its first parent instead: gitctx pack MERGE^1..MERGE, or git diff MERGE^1 MERGE | gitctx pack --patch -", name, ErrBadPatch)
	}
	parts, err := readSeries(data)
	if err != nil {
		return nil, fmt.Errorf("read patch %s: %w: %v", name, ErrBadPatch, err)
	}
	chains := chainFiles(parts)
	if len(chains) == 0 && len(bytes.TrimSpace(data)) > 0 {
		// text without a single file header is not an empty change but
		// the wrong file: say so rather than pack nothing
		return nil, fmt.Errorf("read patch %s: %w: no file header (\"diff --git\" or \"---\"/\"+++\") in it; give the output of git diff, git format-patch --stdout, git log -p or diff -u", name, ErrBadPatch)
	}
	c := &Change{Source: Source{Kind: KindPatch, Spec: name}, repo: repo, Commits: seriesCommits(parts)}
	if repo != nil {
		c.Source.Shallow = repo.Shallow
	}
	if err := c.addChains(chains); err != nil {
		return nil, fmt.Errorf("read patch %s: %w", name, err)
	}
	if len(parts) > 1 {
		// a series lists its files as git diff of the range would
		slices.SortStableFunc(c.Files, func(a, b *File) int { return strings.Compare(a.Path, b.Path) })
	}
	if repo == nil {
		for _, f := range c.Files {
			f.OldID, f.NewID = "", ""
		}
	} else if err := repo.resolveBlobIDs(ctx, c.Files); err != nil {
		return nil, fmt.Errorf("read patch %s: %w", name, err)
	} else if err := repo.resolveSameContent(ctx, c.Files); err != nil {
		return nil, fmt.Errorf("read patch %s: %w", name, err)
	} else if err := repo.resolveUnnamedBases(ctx, c.Files); err != nil {
		return nil, fmt.Errorf("read patch %s: %w", name, err)
	}
	if err := c.composeSeries(ctx); err != nil {
		return nil, fmt.Errorf("read patch %s: %w", name, err)
	}
	return c, nil
}

// addChains adds a file to c for each chain of patches, once every name
// any of them gives is checked.
func (c *Change) addChains(chains []*fileChain) error {
	for _, ch := range chains {
		for _, s := range ch.steps {
			for _, p := range []string{s.OldName, s.NewName} {
				if err := checkPath(p); p != "" && err != nil {
					return fmt.Errorf("refused: %w", err)
				}
			}
		}
	}
	for _, ch := range chains {
		pf := ch.file()
		if pf == nil {
			continue // added and deleted again within the series
		}
		f, err := patchFile(pf)
		if err != nil {
			return err
		}
		if len(ch.steps) > 1 {
			f.steps = ch.steps
		}
		c.Files = append(c.Files, f)
	}
	return nil
}

// plainText undoes what an editor or a mail program may do to a patch on
// its way: a UTF-8 byte order mark before it, and "\r\n" ending every
// line, headers too (git am strips those carriage returns as well; a
// patch whose headers end in "\n" alone is left as it is, its content
// lines' "\r" being the files' own).
func plainText(data []byte) []byte {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	crlf, lf := 0, 0
	for _, m := range headerLine.FindAll(data, -1) {
		if bytes.HasSuffix(m, []byte("\r\n")) {
			crlf++
		} else {
			lf++
		}
	}
	if crlf > 0 && lf == 0 {
		return bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	return data
}

// headerLine finds the lines of a patch's file and hunk headers.
var headerLine = regexp.MustCompile(`(?m)^(?:diff --git |--- |\+\+\+ |@@ )[^\n]*\n`)

// coloured finds a file or commit header that git painted for a terminal;
// sgr matches a colour code.
var (
	coloured = regexp.MustCompile(`(?m)^\x1b\[[0-9;]*m(?:diff --git |commit |--- |@@ )`)
	sgr      = regexp.MustCompile(`\x1b\[[0-9;]*m`)
)

// combinedDiff finds the header of a merge's combined diff.
var combinedDiff = regexp.MustCompile(`(?m)^diff --(?:cc|combined) `)

func patchFile(pf *gitdiff.File) (*File, error) {
	for _, p := range []string{pf.OldName, pf.NewName} {
		if p == "" {
			continue
		}
		if err := checkPath(p); err != nil {
			return nil, fmt.Errorf("refused: %w", err)
		}
	}
	f := &File{
		Path:    pf.NewName,
		OldMode: uint32(pf.OldMode),
		NewMode: uint32(pf.NewMode),
		OldID:   pf.OldOIDPrefix,
		NewID:   pf.NewOIDPrefix,
		Score:   pf.Score,
		patch:   convert(pf),
		applyTo: pf,
	}
	switch {
	case pf.IsNew:
		f.Status, f.OldMode, f.OldID = Added, 0, ""
	case pf.IsDelete:
		f.Status, f.Path, f.NewMode, f.NewID = Deleted, pf.OldName, 0, ""
	case pf.IsRename:
		f.Status, f.OldPath = Renamed, pf.OldName
	case pf.IsCopy:
		f.Status, f.OldPath = Copied, pf.OldName
	case len(pf.TextFragments) == 0 && !pf.IsBinary && pf.OldMode != pf.NewMode:
		f.Status = ModeChanged
	default:
		f.Status = Modified
	}
	if f.Path == "" {
		return nil, fmt.Errorf("%w: a file has no name", ErrBadPatch)
	}
	if f.Status != Added && f.OldMode == 0 {
		f.OldMode = ModeRegular
	}
	if f.Status != Deleted && f.NewMode == 0 {
		f.NewMode = f.OldMode
		if f.NewMode == 0 {
			f.NewMode = ModeRegular
		}
	}
	if isZeroID(f.OldID) {
		f.OldID = ""
	}
	if isZeroID(f.NewID) {
		f.NewID = ""
	}
	return f, nil
}

// resolveBlobIDs expands the (often abbreviated) blob ids of a patch to
// full ids of blobs present in the repository, and clears the others.
func (r *Repo) resolveBlobIDs(ctx context.Context, files []*File) error {
	var ids []*string
	var in bytes.Buffer
	for _, f := range files {
		for _, id := range []*string{&f.OldID, &f.NewID} {
			if *id != "" {
				ids = append(ids, id)
				in.WriteString(*id + "\n")
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	out, err := r.git.output(ctx, &in, "cat-file", "--batch-check=%(objectname) %(objecttype)")
	if err != nil {
		return fmt.Errorf("look up blob ids: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for _, id := range ids {
		if !sc.Scan() {
			return fmt.Errorf("look up blob ids: short answer from git cat-file")
		}
		full, typ, _ := strings.Cut(sc.Text(), " ")
		if typ == "blob" {
			*id = full
		} else {
			*id = ""
		}
	}
	return sc.Err()
}

// sameContent reports whether the patch changes f's name or mode but not
// its content, and names no blob for it: git writes no index line for a
// rename or copy of 100% similarity, or a change of mode alone.
func sameContent(f *File) bool {
	pf := f.applyTo
	return pf != nil && f.Status != Added && f.Status != Deleted && !pf.IsBinary && len(pf.TextFragments) == 0 &&
		pf.OldOIDPrefix == "" && pf.NewOIDPrefix == ""
}

// resolveSameContent finds the blob of each file whose content the patch
// leaves as it is without naming it (see sameContent): the file at its
// old path in the index, else in HEAD (the patch not applied yet), else
// at its new path, in the index or HEAD (applied, or committed). Both
// sides are that blob. A file found nowhere keeps no id.
func (r *Repo) resolveSameContent(ctx context.Context, files []*File) error {
	var asked []*File
	var in bytes.Buffer
	for _, f := range files {
		if !sameContent(f) || strings.ContainsAny(f.Path+f.OldPath, "\n") {
			continue // a name with a newline cannot be asked of cat-file's input
		}
		asked = append(asked, f)
		for _, p := range sameContentPlaces(f) {
			in.WriteString(p + "\n")
		}
	}
	if len(asked) == 0 {
		return nil
	}
	out, err := r.git.output(ctx, &in, "cat-file", "--batch-check=%(objectname) %(objecttype)")
	if err != nil {
		return fmt.Errorf("look up unchanged files: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for _, f := range asked {
		for range sameContentPlaces(f) {
			if !sc.Scan() {
				return fmt.Errorf("look up unchanged files: short answer from git cat-file")
			}
			// "<id> blob", or "<name> missing" (a name may hold spaces)
			line := sc.Text()
			if id, ok := strings.CutSuffix(line, " blob"); ok && f.OldID == "" && !strings.Contains(id, " ") {
				f.OldID, f.NewID = id, id
			}
		}
	}
	return sc.Err()
}

// sameContentPlaces are where resolveSameContent looks for f's content,
// in order, as revisions git cat-file reads.
func sameContentPlaces(f *File) []string {
	old := f.OldPath
	if old == "" {
		old = f.Path
	}
	return []string{":0:" + old, "HEAD:" + old, ":0:" + f.Path, "HEAD:" + f.Path}
}

// sameContentWhere names where resolveSameContent looked for f, for a
// message: its path, or both when it was renamed or copied.
func sameContentWhere(f *File) string {
	if f.OldPath == "" || f.OldPath == f.Path {
		return f.Path
	}
	return f.OldPath + " or " + f.Path
}

// readPatched builds the post-image of a patched file by applying the patch
// to its pre-image.
func (c *Change) readPatched(ctx context.Context, f *File, limit int64) (int64, []byte, error) {
	n, data, err := c.applyPatch(ctx, f, limit)
	if err != nil && len(f.steps) > 1 && !errors.Is(err, ErrTooLarge) {
		err = fmt.Errorf("%w; %d patches of the series change it, so its diff shows each one's hunks in turn", err, len(f.steps))
	}
	return n, data, err
}

// applyPatch is readPatched for one patch: f's base, read from the
// repository, with f's hunks applied.
func (c *Change) applyPatch(ctx context.Context, f *File, limit int64) (int64, []byte, error) {
	if f.applyTo == nil || f.applyTo.IsBinary {
		return 0, nil, fmt.Errorf("%s: the new version is not available", f.Path)
	}
	var src []byte
	if f.Status != Added {
		switch {
		case f.OldID != "":
		case c.repo == nil:
			return 0, nil, fmt.Errorf("%s: the new version is not available: there is no repository to read the patch's base from", f.Path)
		case sameContent(f):
			return 0, nil, fmt.Errorf("%s: the new version is not available: the patch names no blob for it (git writes none for a rename, copy or mode change alone), and this repository has no file at %s to read it from", f.Path, sameContentWhere(f))
		case f.applyTo.OldOIDPrefix == "":
			return 0, nil, fmt.Errorf("%s: the new version is not available: the patch names no blob for its base (it has no index line, as diff -u writes none)", f.Path)
		default:
			return 0, nil, fmt.Errorf("%s: the new version is not available (the patch's base, blob %s, is not in this repository)", f.Path, f.applyTo.OldOIDPrefix)
		}
		var err error
		if _, src, err = c.Read(ctx, f, Old, -1); err != nil {
			return 0, nil, err
		}
	}
	var out bytes.Buffer
	if err := gitdiff.Apply(&out, bytes.NewReader(src), f.applyTo); err != nil {
		return 0, nil, fmt.Errorf("%s: the patch does not apply to its base: %w", f.Path, err)
	}
	if limit >= 0 && int64(out.Len()) > limit {
		return int64(out.Len()), nil, fmt.Errorf("%s is %d bytes: %w", f.Path, out.Len(), ErrTooLarge)
	}
	return int64(out.Len()), out.Bytes(), nil
}
