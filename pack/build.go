package pack

import (
	"context"
	"errors"
	"time"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/gitctx/neighbours"
	"github.com/gitctx/gitctx/secrets"
)

// Options configure a pack. The zero value of a field means its default.
type Options struct {
	Format          Format
	Mode            string     // auto (default), full or summary
	Rules           Rules      // exclusions; DefaultRules() with the user's globs
	MaxFileBytes    int64      // a larger file's content is not read: a changed one shows its diff only (default 1 MiB)
	MaxFiles        int        // a full pack shows at most this many files (default 200)
	MaxContentBytes int64      // a full pack holds at most this much file content (default 500,000)
	Truncation      Truncation // when and how a file is cut to its head and tail
	KeyFiles        KeyFiles   // how many key files (guides, a Summary's review focus), and how much of a guide
	Budget          Budget
	Split           bool             // lay a Full pack that does not fit over several parts instead of summarising it
	NoNeighbours    bool             // leave out neighbours (guide files stay)
	MaxNeighbours   int              // at most this many neighbours (default 12)
	HistoryDepth    int              // recent commits mined for co-change (0: 10,000; negative: none)
	NeighbourMemo   *neighbours.Memo // keeps a range's neighbours for later runs; may be nil
	Context         ContextOptions   // files the user adds: --context, --context-cmd, --context-query
	Counter         Counter          // counts tokens; required
	Counts          *CountCache      // keeps the counts of segments for later runs; may be nil
	Gate            *secrets.Gate    // removes credentials; required, there is no way around it
	Tool            Tool
	Now             func() time.Time
	Progress        func(stage string) // called as the pack moves from stage to stage; may be nil
	PullRequest     *PullRequest       // the pull request the change belongs to; may be nil
}

// Budget is the token budget a pack must fit.
type Budget struct {
	Provider       string
	Model          string
	ContextWindow  int
	ReservedOutput int
	Limit          int
}

// Truncation says when a file is cut to its head and tail, with a marker
// naming the lines left out, and how much of it is kept. A Summary may cut
// any long file to fit its budget; a Full pack cuts only a file over
// MaxFileBytes. A file is cut only when it has more lines than
// HeadLines+TailLines: one with fewer (a minified file, say) is shown
// whole, within Options.MaxFileBytes. The zero value of a field means its
// default.
type Truncation struct {
	MaxFileBytes int64 // a larger file shows its head and tail, even in a Full pack (default 51,200)
	HeadLines    int   // a cut file keeps its first lines… (default 100)
	TailLines    int   // …and its last (default 50)
}

// KeyFiles bound the files a pack names as key: the guide files it adds
// whole — instructions for agents (AGENTS.md, CLAUDE.md), readmes,
// contribution guides and manifests (go.mod, package.json …) — and the
// key files of the change a Summary lists in its review focus (config,
// entry point, auth, API, database, security). The count limits apply to
// each list on its own; the zero value of a field means its default.
type KeyFiles struct {
	MaxPerCategory         int   // files of each kind (default 5)
	MaxTotal               int   // files in all (default 25)
	MaxContentPerFileBytes int64 // a larger guide file shows its head and tail, like Truncation.MaxFileBytes (default 50,000)
}

// Defaults of Options.
const (
	DefaultMaxFileBytes    = 1024 * 1024
	DefaultMaxFiles        = 200
	DefaultMaxContentBytes = 500000
	DefaultLimit           = 128000

	DefaultTruncateFileBytes   = 51200
	DefaultHeadLines           = 100
	DefaultTailLines           = 50
	DefaultKeyFilesPerCategory = 5
	DefaultKeyFilesTotal       = 25
	DefaultKeyFileContentBytes = 50000
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
	o.Context.defaults(o.MaxFileBytes)
	o.Truncation.defaults()
	o.KeyFiles.defaults()
}

func (t *Truncation) defaults() {
	if t.MaxFileBytes <= 0 {
		t.MaxFileBytes = DefaultTruncateFileBytes
	}
	if t.HeadLines <= 0 {
		t.HeadLines = DefaultHeadLines
	}
	if t.TailLines <= 0 {
		t.TailLines = DefaultTailLines
	}
}

func (k *KeyFiles) defaults() {
	if k.MaxPerCategory <= 0 {
		k.MaxPerCategory = DefaultKeyFilesPerCategory
	}
	if k.MaxTotal <= 0 {
		k.MaxTotal = DefaultKeyFilesTotal
	}
	if k.MaxContentPerFileBytes <= 0 {
		k.MaxContentPerFileBytes = DefaultKeyFileContentBytes
	}
}

// Build makes the pack of a change. An empty change returns ErrEmpty with a
// record that lists no files; a budget no pack can meet returns ErrBudget;
// context files whose problems stop the pack (see ContextOptions.ErrorMode)
// return a *ContextError. In these three cases the Result holds the record
// (with the problems among its errors), and no pack.
func Build(ctx context.Context, ch *gitctx.Change, opts Options) (*Result, error) {
	opts.defaults()
	if opts.Counter == nil || opts.Gate == nil {
		return nil, errors.New("pack: a token counter and a secrets gate are required")
	}
	if err := opts.Rules.Validate(); err != nil {
		return nil, err
	}
	if err := opts.Context.Validate(); err != nil {
		return nil, err
	}
	b := newBuilder(ch, opts)
	v, s, err := b.prepare(ctx)
	if err != nil {
		var cerr *ContextError
		if errors.Is(err, ErrEmpty) || errors.As(err, &cerr) {
			return b.recordOnly(ctx, err)
		}
		return nil, err
	}
	// From here on, a credential found anywhere is redacted everywhere it
	// appears: the texts the pack shows go through the gate as they are
	// rendered, and what went through it before (the commit messages, the
	// pull request) is swept once they have.
	opts.Gate.Everywhere()
	opts.Progress("fitting the budget")
	parts, err := s.shapeParts(ctx)
	if err != nil {
		if errors.Is(err, ErrBudget) {
			b.redactFound(v)
			return b.recordOnly(ctx, err)
		}
		return nil, err
	}
	b.redactFound(v)
	if err := b.redactWarnings(ctx); err != nil {
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

// recordOnly is Build's result when no pack is made: the record, and
// why.
func (b *builder) recordOnly(ctx context.Context, why error) (*Result, error) {
	if err := b.redactWarnings(ctx); err != nil {
		return nil, err
	}
	return &Result{Record: b.record(nil)}, why
}

func newBuilder(ch *gitctx.Change, opts Options) *builder {
	b := &builder{ch: ch, opts: opts, ahead: opts.Format != Markdown, origins: map[string]RedactionItem{}}
	b.readWorktree = opts.Context.read
	if b.readWorktree == nil && ch.Repo() != nil {
		b.readWorktree = ch.Repo().ReadWorktree
	}
	return b
}

// builder gathers the entries of a pack.
type builder struct {
	ch       *gitctx.Change
	opts     Options
	entries  []*entry
	context  []*entry  // the user's context files, until they join entries after the neighbours
	problems []Problem // warnings
	errors   []Problem // the problems that failed the pack

	readWorktree func(name string, limit int64) (int64, []byte, error) // reads context files

	spec    string                   // the change's spec, through the gate
	commits []commitView             // the commits, through the gate
	pr      *prView                  // the pull request, through the gate; nil without one
	origins map[string]RedactionItem // where each placeholder of a path, message or manifest came from

	fullPossible bool // whole contents are still kept for a Full pack
	heldBytes    int  // the long contents held after that (see dropContent)
	readBytes    int  // the bytes of the changed files' new sides read
	ahead        bool // scan shown lines ahead of rendering, always: the format escapes them (XML) or loses their layout (JSON)

	manifestAhead func() (Manifest, error) // the manifest read beside the neighbours' search (see startExtras)
}
