package pack

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/gitctx/neighbours"
)

// classify makes an entry per changed file and applies the path rules.
func (b *builder) classify() {
	for _, f := range b.ch.Files {
		e := &entry{
			file: f, path: f.Path, oldPath: f.OldPath, role: RoleChanged, status: string(f.Status),
			kind: KindText, reason: "changed", diffContext: 3,
		}
		switch {
		case f.IsSubmodule():
			e.kind = KindSubmodule
		case f.IsSymlink():
			e.kind = KindSymlink
		}
		e.setGenerated(generatedByName(f.Path))
		e.excluded = b.opts.Rules.ExcludeReason(f.Path, true)
		if e.excluded == "" && f.OldPath != "" && b.opts.Rules.IsCredential(f.OldPath) {
			e.excluded = ReasonCredentials
		}
		b.entries = append(b.entries, e)
	}
}

// readContents reads the new side of every included changed file that has
// one, within the size limit, and decodes it. Whole contents are kept only
// while a Full pack is still possible (their total within
// MaxContentBytes); past that, large files keep only the excerpt a Summary
// can show, so memory stays bounded on huge changes. A file over the
// truncation limit counts as its excerpt: it is all a Full pack shows of
// it.
func (b *builder) readContents(ctx context.Context) error {
	var files []*gitctx.File
	byFile := map[*gitctx.File]*entry{}
	for _, e := range b.entries {
		f := e.file
		if e.included() && f.NewMode != 0 && e.kind != KindSubmodule {
			files = append(files, f)
			byFile[f] = e
		}
	}
	b.fullPossible = b.opts.Mode != "summary"
	var kept int64
	return b.ch.ReadEach(ctx, files, gitctx.New, b.opts.MaxFileBytes, func(f *gitctx.File, size int64, data []byte, err error) error {
		e := byFile[f]
		e.size = size
		switch {
		case errors.Is(err, gitctx.ErrTooLarge):
			e.patchNote = fmt.Sprintf("content is %s bytes, over the %s-byte limit: diff only", thousands(int(size)), thousands(int(b.opts.MaxFileBytes)))
			return nil
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			return err
		case err != nil:
			b.warn(f.Path, ReasonUnreadable, err.Error())
			e.patchNote = "content could not be read: diff only"
			return nil
		}
		b.readBytes += len(data)
		b.setContent(e, data)
		if !e.hasContent {
			return nil
		}
		if e.generated != "" && gitctx.Status(e.status) != gitctx.Added {
			b.dropContent(e) // a pack shows its diff alone (see diffOnly)
			return nil
		}
		if e.oversize {
			kept += int64(len(e.excerpt)) // all a pack shows of it
		} else {
			kept += int64(len(e.content))
		}
		if b.fullPossible && kept > b.opts.MaxContentBytes {
			b.fullPossible = false
			for _, other := range b.entries {
				b.dropContent(other) // e too
			}
		} else if !b.fullPossible {
			b.dropContent(e)
		}
		return nil
	})
}

// setContent decodes a file's content into its entry.
func (b *builder) setContent(e *entry, data []byte) {
	t := b.truncation(e)
	if e.kind == KindSymlink {
		e.setText(cleanText(decodeLine(string(data))), t)
		return
	}
	d := decode(data)
	switch d.Kind {
	case KindBinary:
		e.kind, e.excluded = KindBinary, ReasonBinary
	case KindLFSPointer:
		e.kind = KindLFSPointer
		e.setText(d.Text, t)
	default:
		e.encoding = d.Encoding
		text := cleanText(d.Text)
		e.raw = text == string(data)
		e.marked = e.role == RoleChanged && markedGenerated(text)
		e.setText(text, t)
		b.holdWhole(e, text)
	}
}

// truncation says how an entry's content is cut: a guide file is shown
// whole up to the key files' own limit, every other file up to the
// truncation limit.
func (b *builder) truncation(e *entry) Truncation {
	t := b.opts.Truncation
	if e.role == RoleGuide {
		t.MaxFileBytes = b.opts.KeyFiles.MaxContentPerFileBytes
	}
	return t
}

// filePatch is one file's patch as the diff streamed it.
type filePatch struct {
	file  *gitctx.File
	patch *gitctx.Patch
}

// startPatches streams the diff in the background and parses the patches
// of the files classify kept; applyPatches files them once the contents
// are read. stream hands on each patch as it is parsed, for the
// neighbours, and so does parsed, for startSides.
func (b *builder) startPatches(ctx context.Context) (wait func() ([]filePatch, error), stream <-chan neighbours.FilePatch, parsed <-chan filePatch) {
	want := make(map[*gitctx.File]bool, len(b.entries))
	for _, e := range b.entries {
		if e.included() {
			want[e.file] = true
		}
	}
	var list []filePatch
	// the patches as they come, for the neighbours' search: it may stop
	// reading at any time, so the buffer holds them all, and the stream
	// is never waited on (were it ever full, it would end there: the
	// search takes what a stream holds only as the first patches)
	each := make(chan neighbours.FilePatch, len(want))
	streaming := true
	all := make(chan filePatch, len(want)) // never full: one patch a file
	done := inBackground(func() error {
		defer close(each)
		defer close(all)
		return b.ch.Patches(ctx, func(f *gitctx.File) bool { return want[f] }, b.opts.MaxFileBytes, func(f *gitctx.File, p *gitctx.Patch) error {
			list = append(list, filePatch{f, p})
			select {
			case all <- filePatch{f, p}:
			default:
			}
			if streaming {
				select {
				case each <- neighbours.FilePatch{File: f, Patch: p}:
				default:
					streaming = false
				}
			}
			return nil
		})
	})
	return func() ([]filePatch, error) {
		err := done()
		return list, err
	}, each, all
}

// applyPatches keeps the patches of the files still included once their
// contents are read. It returns the entries git saw as binary though
// their content is text with no NUL byte: an attribute (`-diff`, `binary`)
// says so, and applyTextPatches reads their diff as text.
func (b *builder) applyPatches(list []filePatch) (asText []*entry) {
	byFile := make(map[*gitctx.File]*entry, len(b.entries))
	for _, e := range b.entries {
		if e.included() {
			byFile[e.file] = e
		}
	}
	for _, fp := range list {
		e, p := byFile[fp.file], fp.patch
		switch {
		case e == nil:
		case p.Binary && e.hasContent && !strings.HasPrefix(e.encoding, "utf-16"):
			asText = append(asText, e)
		default:
			b.applyPatch(e, p)
		}
	}
	return asText
}

// applyPatch keeps an included entry's patch, or says why it shows none.
func (b *builder) applyPatch(e *entry, p *gitctx.Patch) {
	switch {
	case p.Oversize:
		e.patch = &gitctx.Patch{Added: p.Added, Deleted: p.Deleted}
		if !e.hasContent {
			e.excluded = ReasonSizeLimit
			return
		}
		e.patchNote = joinNote(e.patchNote, "diff over the size limit: content only")
		e.diffContext = -1
	case p.Binary && e.hasContent:
		// git saw NUL bytes (UTF-16, say) that decode as text
		e.patchNote = joinNote(e.patchNote, "no text diff from git (it sees binary): content shown decoded")
		e.diffContext = -1
	case p.Binary:
		e.kind, e.excluded = KindBinary, ReasonBinary
	default:
		e.patch = p
	}
}

// applyTextPatches reads as text the diffs of files git sees as binary by
// their attributes (see applyPatches) and keeps them. A file whose diff
// still holds a NUL byte (its old side was binary) shows its content, as
// it would without.
func (b *builder) applyTextPatches(ctx context.Context, todo []*entry) error {
	if len(todo) == 0 {
		return nil
	}
	byFile := make(map[*gitctx.File]*entry, len(todo))
	files := make([]*gitctx.File, 0, len(todo))
	for _, e := range todo {
		byFile[e.file] = e
		files = append(files, e.file)
	}
	err := b.ch.TextPatches(ctx, files, b.opts.MaxFileBytes, func(f *gitctx.File, p *gitctx.Patch) error {
		if e := byFile[f]; e != nil && !holdsNUL(p) {
			delete(byFile, f)
			b.applyPatch(e, p)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read the diff as text: %w", err)
	}
	for _, e := range byFile {
		b.applyPatch(e, &gitctx.Patch{Binary: true})
	}
	return nil
}

// holdsNUL reports whether a line of the patch holds a NUL byte.
func holdsNUL(p *gitctx.Patch) bool {
	for _, h := range p.Hunks {
		for _, l := range h.Lines {
			if strings.IndexByte(l.Text, 0) >= 0 {
				return true
			}
		}
	}
	return false
}

// warn keeps a problem with a file of the change; redactWarnings puts it
// through the gate before anything shows it. A message that starts with
// the path, as gitctx's errors do, is kept without it: the warning names
// the path already.
func (b *builder) warn(path, kind, msg string) {
	if path != "" {
		msg = strings.TrimPrefix(msg, path+": ")
	}
	b.problems = append(b.problems, Problem{Path: path, Kind: kind, Message: msg})
}
