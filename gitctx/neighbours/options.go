package neighbours

import "github.com/gitctx/gitctx/gitctx"

// Options configure Find.
type Options struct {
	Max          int                    // neighbours to return (default 12)
	HistoryDepth int                    // how many recent commits to mine (0: DefaultHistoryDepth; negative: none)
	Skip         func(path string) bool // files never chosen (credentials, vendored, binary by name…)
	// SkipDirs names directories, at any depth and in any case, whose
	// files Skip rules out (vendor, node_modules, build output): the
	// searches for words and names pass over them, and a word's rarity is
	// counted in the other files alone.
	SkipDirs []string
	// Quiet, if set, says which changed files that Skip rules out still
	// lead to neighbours, by their paths alone: a binary fixture, a script
	// under build/ or a file named as a credential is never shown, but the
	// files that change with it and the files that name it are a
	// reviewer's business. Their text is never read. At most
	// maxQuietSeeds count.
	Quiet func(path string) bool
	// Patches are the change's patches when the caller has them already;
	// without them Find streams the diff once.
	Patches map[*gitctx.File]*gitctx.Patch
	// WaitPatches, when set, is used instead of Patches: it returns the
	// patches once the caller has read them, so that Find can start (its
	// history and import index need none) while the diff is still being
	// read. Find calls it once, from a goroutine of its own.
	WaitPatches func() (map[*gitctx.File]*gitctx.Patch, error)
	// PatchStream, when set, hands Find the patches as the diff is parsed,
	// in the order of the change's files, and is closed once the diff is
	// read: the search for the names the change defines and uses starts
	// as soon as the first patches hold as many as it searches for. It
	// carries the patches WaitPatches returns, or the first of them; Find
	// may stop reading it at any time, so a sender must never wait on it.
	PatchStream <-chan FilePatch
	// GuidesOnly skips the search for neighbours (--no-neighbours): guide
	// files are still found.
	GuidesOnly bool
	// MaxGuides bounds the guide files returned (default DefaultMaxGuides),
	// and MaxGuidesPerKind those of each kind (default
	// DefaultMaxGuidesPerKind): instructions for agents, readme,
	// contribution guide, manifest. The first found are kept.
	MaxGuides        int
	MaxGuidesPerKind int
	// Memo, if set, keeps the neighbours of a range for later runs (see
	// Memo). MemoKey names Skip: two runs whose Skip answers alike may
	// share an entry only if their MemoKeys are equal. With Skip set and
	// MemoKey "", the memo is not used.
	Memo    *Memo
	MemoKey string
	// noPerl makes the symbol search behave as with a git built without
	// Perl-compatible regular expressions (tests).
	noPerl bool
	// wordsEverywhere, if set, stands in for maxWordsEverywhere (tests).
	wordsEverywhere int
}

// Defaults of Options.
const (
	DefaultMax              = 12
	DefaultHistoryDepth     = 10000
	DefaultMaxGuides        = 25
	DefaultMaxGuidesPerKind = 5
)

// defaults fills in the options left at their zero value.
func (opts *Options) defaults() {
	if opts.Max <= 0 {
		opts.Max = DefaultMax
	}
	if opts.HistoryDepth == 0 {
		opts.HistoryDepth = DefaultHistoryDepth
	}
	if opts.MaxGuides <= 0 {
		opts.MaxGuides = DefaultMaxGuides
	}
	if opts.MaxGuidesPerKind <= 0 {
		opts.MaxGuidesPerKind = DefaultMaxGuidesPerKind
	}
}
