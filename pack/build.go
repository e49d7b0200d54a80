package pack

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/secrets"
)

// Options configure a pack. The zero value of a field means its default.
type Options struct {
	Format          Format
	Mode            string // auto (default), full or summary
	Rules           Rules  // exclusions; DefaultRules() with the user's globs
	MaxFileBytes    int64  // a file over this is not shown whole (default 1 MiB)
	MaxFiles        int    // a full pack shows at most this many files (default 200)
	MaxContentBytes int64  // a full pack holds at most this much file content (default 500,000)
	Budget          Budget
	Split           bool          // lay a Full pack that does not fit over several parts instead of summarising it
	Counter         Counter       // counts tokens; required
	Gate            *secrets.Gate // removes credentials; required, there is no way around it
	Tool            Tool
	Now             func() time.Time
	Progress        func(stage string) // called as the pack moves from stage to stage; may be nil
}

// Budget is the token budget a pack must fit.
type Budget struct {
	Provider       string
	Model          string
	ContextWindow  int
	ReservedOutput int
	Limit          int
}

// Defaults of Options.
const (
	DefaultMaxFileBytes    = 1024 * 1024
	DefaultMaxFiles        = 200
	DefaultMaxContentBytes = 500000
	DefaultLimit           = 128000
)

// ErrBudget means not even the smallest pack fits the token budget.
var ErrBudget = errors.New("the token budget cannot be met")

// ErrEmpty means the change touches no file: there is nothing to pack.
var ErrEmpty = errors.New("nothing to pack")

// Result is a built pack and its record.
type Result struct {
	Text   string   // the pack (the first part, when split)
	Parts  []string // every part, when split
	Record *Record
}

func (o *Options) defaults() {
	if o.Format == "" {
		o.Format = Markdown
	}
	if o.Mode == "" {
		o.Mode = "auto"
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = DefaultMaxFiles
	}
	if o.MaxContentBytes <= 0 {
		o.MaxContentBytes = DefaultMaxContentBytes
	}
	if o.Budget.Limit <= 0 {
		o.Budget.Limit = DefaultLimit
	}
	if o.Budget.Provider == "" {
		o.Budget.Provider = "none"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Progress == nil {
		o.Progress = func(string) {}
	}
}

// Build makes the pack of a change. An empty change returns ErrEmpty with a
// record that lists no files; a budget no pack can meet returns ErrBudget.
func Build(ctx context.Context, ch *gitctx.Change, opts Options) (*Result, error) {
	opts.defaults()
	if opts.Counter == nil || opts.Gate == nil {
		return nil, errors.New("pack: a token counter and a secrets gate are required")
	}
	if err := opts.Rules.Validate(); err != nil {
		return nil, err
	}
	b := newBuilder(ch, opts)
	v, s, err := b.prepare(ctx)
	if err != nil {
		if errors.Is(err, ErrEmpty) {
			return &Result{Record: b.record(nil)}, err
		}
		return nil, err
	}
	opts.Progress("fitting the budget")
	parts, err := s.shapeParts(ctx)
	if err != nil {
		if errors.Is(err, ErrBudget) {
			return &Result{Record: b.record(nil)}, err
		}
		return nil, err
	}
	res := &Result{}
	for _, segs := range parts {
		if err := s.rescanBoundaries(ctx, segs); err != nil {
			return nil, err
		}
		res.Parts = append(res.Parts, join(segs))
	}
	res.Text = res.Parts[0]
	if len(parts) == 1 {
		res.Parts = nil
	}
	res.Record = b.record(v, parts...)
	res.Record.Pack.SelectionReason = s.reason
	return res, nil
}

func newBuilder(ch *gitctx.Change, opts Options) *builder {
	return &builder{ch: ch, opts: opts, ahead: opts.Format != Markdown, origins: map[string]RedactionItem{}}
}

// prepare runs the pipeline up to shaping: the change's text through the
// gate, the files classified and read, the view gathered, and the shaper
// that will fit it.
func (b *builder) prepare(ctx context.Context) (*view, *shaper, error) {
	// What the record says of the change goes through the gate first, so
	// that even the record of an empty change holds nothing unredacted.
	if err := b.redactCommits(ctx); err != nil {
		return nil, nil, err
	}
	if len(b.ch.Files) == 0 {
		return nil, nil, ErrEmpty
	}
	b.opts.Progress("reading files")
	b.classify()
	if err := b.readContents(ctx); err != nil {
		return nil, nil, err
	}
	b.opts.Progress("reading the diff")
	if err := b.readPatches(ctx); err != nil {
		return nil, nil, err
	}
	v, err := b.view(ctx)
	if err != nil {
		return nil, nil, err
	}
	s := &shaper{v: v, r: rendererFor(b.opts.Format), counter: b.opts.Counter, opts: b.opts, fullPossible: b.fullPossible, prepare: b.redactEntries}
	return v, s, nil
}

// builder gathers the entries of a pack.
type builder struct {
	ch       *gitctx.Change
	opts     Options
	entries  []*entry
	problems []Problem

	spec    string                   // the change's spec, through the gate
	commits []commitView             // the commits, through the gate
	origins map[string]RedactionItem // where each placeholder of a path, message or manifest came from

	fullPossible bool // whole contents are still kept for a Full pack
	ahead        bool // scan shown lines ahead of rendering, always: the format escapes them (XML) or loses their layout (JSON)
}

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
// can show, so memory stays bounded on huge changes.
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
		b.setContent(e, data)
		if !e.hasContent {
			return nil
		}
		kept += int64(len(e.content))
		if b.fullPossible && kept > b.opts.MaxContentBytes {
			b.fullPossible = false
			for _, other := range b.entries {
				other.dropContent()
			}
		}
		if !b.fullPossible {
			e.dropContent()
		}
		return nil
	})
}

// setContent decodes a file's content into its entry.
func (b *builder) setContent(e *entry, data []byte) {
	if e.kind == KindSymlink {
		e.setText(cleanText(decodeLine(string(data))))
		return
	}
	d := decode(data)
	switch d.Kind {
	case KindBinary:
		e.kind, e.excluded = KindBinary, ReasonBinary
	case KindLFSPointer:
		e.kind = KindLFSPointer
		e.setText(d.Text)
	default:
		e.encoding = d.Encoding
		e.setText(cleanText(d.Text))
	}
}

// readPatches streams the diff and keeps the patches of included files.
func (b *builder) readPatches(ctx context.Context) error {
	byFile := make(map[*gitctx.File]*entry, len(b.entries))
	for _, e := range b.entries {
		byFile[e.file] = e
	}
	want := func(f *gitctx.File) bool { e := byFile[f]; return e != nil && e.included() }
	return b.ch.Patches(ctx, want, b.opts.MaxFileBytes, func(f *gitctx.File, p *gitctx.Patch) error {
		e := byFile[f]
		switch {
		case p.Oversize:
			e.patch = &gitctx.Patch{Added: p.Added, Deleted: p.Deleted}
			if !e.hasContent {
				e.excluded = ReasonSizeLimit
				return nil
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
		return nil
	})
}

func (b *builder) warn(path, kind, msg string) {
	b.problems = append(b.problems, Problem{Path: path, Kind: kind, Message: msg})
}

// view gathers what the renderers need, everything from the repository
// put through the gate: paths, commit messages, the manifest.
func (b *builder) view(ctx context.Context) (*view, error) {
	v := &view{Type: "full", Tool: b.opts.Tool, Source: b.ch.Source, Messages: true, ShowTree: true, origins: b.origins}
	v.Source.Spec, v.Commits = b.spec, b.commits
	if err := b.redactLabels(ctx, v); err != nil {
		return nil, err
	}
	m, err := b.manifest(ctx)
	if err != nil {
		return nil, err
	}
	if v.Manifest, err = redactManifest(ctx, b.opts.Gate, m, v); err != nil {
		return nil, err
	}
	v.Entries = b.entries
	v.Keys, v.Spots = keyFiles(b.entries), hotspots(b.entries)
	v.Budget = BudgetRecord{Provider: b.opts.Budget.Provider, Model: b.opts.Budget.Model, Tokenizer: b.opts.Counter.Name(),
		ContextWindow: b.opts.Budget.ContextWindow, ReservedOutput: b.opts.Budget.ReservedOutput, Limit: b.opts.Budget.Limit}
	return v, nil
}

// redactLabels puts every path (and old path) through the gate: a file
// name can hold a credential too.
func (b *builder) redactLabels(ctx context.Context, v *view) error {
	var names []string
	for _, e := range b.entries {
		names = append(names, cleanText(decodeLine(e.path)), cleanText(decodeLine(e.oldPath)))
	}
	texts, hits, err := redactMany(ctx, b.opts.Gate, names)
	if err != nil {
		return fmt.Errorf("check file names for credentials: %w", err)
	}
	for i, e := range b.entries {
		e.label, e.oldLabel = texts[2*i], texts[2*i+1]
		for _, h := range append(hits[2*i], hits[2*i+1]...) {
			v.origin(h.Placeholder, RedactionItem{Path: e.label.String(), Side: "file_name", Rule: ruleOf(h.Placeholder), Placeholder: h.Placeholder})
		}
	}
	return nil
}

// redactCommits puts the commit messages (and the spec the user gave)
// through the gate.
func (b *builder) redactCommits(ctx context.Context) error {
	texts := []string{cleanText(decodeLine(b.ch.Source.Spec))}
	for _, c := range b.ch.Commits {
		texts = append(texts, cleanText(decodeLine(c.Message)))
	}
	red, hits, err := redactMany(ctx, b.opts.Gate, texts)
	if err != nil {
		return fmt.Errorf("check commit messages for credentials: %w", err)
	}
	b.spec = red[0].String()
	for i, c := range b.ch.Commits {
		msg := red[i+1]
		subject, _, _ := strings.Cut(msg.String(), "\n")
		b.commits = append(b.commits, commitView{SHA: c.SHA, Subject: subject, Message: msg.String()})
		for _, h := range hits[i+1] {
			if _, ok := b.origins[h.Placeholder]; !ok {
				b.origins[h.Placeholder] = RedactionItem{Side: "commit_message", Line: h.Line + 1, Rule: ruleOf(h.Placeholder), Placeholder: h.Placeholder}
			}
		}
	}
	return nil
}

// manifest detects the project's manifest from the files on the change's
// new side.
func (b *builder) manifest(ctx context.Context) (Manifest, error) {
	name := "patch"
	repo := b.ch.Repo()
	if repo != nil {
		name = filepath.Base(repo.Root)
	}
	tree, err := b.ch.Tree(ctx)
	if err != nil {
		return Manifest{}, err
	}
	paths := make([]string, len(tree))
	byPath := make(map[string]gitctx.TreeEntry, len(tree))
	for i, t := range tree {
		paths[i] = t.Path
		byPath[t.Path] = t
	}
	read := func(p string) (string, bool) {
		t, ok := byPath[p]
		if !ok || b.opts.Rules.IsCredential(p) {
			return "", false
		}
		_, data, err := b.ch.ReadTree(ctx, t, 256<<10)
		if err != nil {
			return "", false
		}
		d := decode(data)
		return d.Text, d.Kind == KindText
	}
	return detectManifest(name, paths, read), nil
}
