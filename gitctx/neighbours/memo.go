package neighbours

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gitctx/gitctx/gitctx"
)

// Memo keeps, on disk, the neighbours found for a range of commits, so
// that a later run over the same range (`gitctx pack` then `gitctx
// review`, a job run again) does not search again: the search reads the
// whole tree and the history, and took 0.23 of the 0.39 s of a run over
// terraform's last 10 commits whose every text was in the scan cache.
//
// Only a range between two commits is kept: its files, its history and
// so its neighbours never change. A staged change or the work tree, a
// patch, and a shallow clone (whose history grows with each fetch) are
// searched every time. The key holds the commits, the changed files,
// every option and the build (see Options.MemoKey): a new gitctx searches
// again. An entry holds what record.json holds of the neighbours (paths,
// scores, reasons) and the guide files. Entries are written whole (a
// temporary file renamed into place), so that concurrent runs never read
// half of one; past maxMemoEntries the oldest half are removed.
type Memo struct {
	dir   string
	build string
}

// maxMemoEntries bounds a memo's entries (2 to 5 KB each on terraform and prometheus).
const maxMemoEntries = 1000

// memoFormat starts every key; a new layout of entries gets a new one.
const memoFormat = "gitctx-neighbours 3"

// OpenMemo opens (creating it if needed) the memo in dir for a build of
// gitctx: build names it exactly (a version, or a commit of a clean
// checkout). With build "" there is no memo: a build that cannot name
// itself could rank differently under the same name.
func OpenMemo(dir, build string) (*Memo, error) {
	if build == "" {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open the neighbours' memo: %w", err)
	}
	return &Memo{dir: dir, build: build}, nil
}

// memoEntry is what an entry holds.
type memoEntry struct {
	Neighbours []Neighbour `json:"neighbours"`
	Guides     []Guide     `json:"guides"`
}

// key names the entry of a change found with opts, if it may have one.
func (m *Memo) key(ch *gitctx.Change, opts Options) (string, bool) {
	src := ch.Source
	if m == nil || opts.GuidesOnly || opts.Skip != nil && opts.MemoKey == "" || src.Shallow ||
		src.Kind != gitctx.KindRange && src.Kind != gitctx.KindPullRequest || src.Base == "" || src.Head == "" {
		return "", false
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00", memoFormat, m.build, src.Kind, src.Base, src.Head)
	fmt.Fprintf(h, "max %d history %d guides %d/%d perl %t\x00%d\x00%s\x00",
		opts.Max, opts.HistoryDepth, opts.MaxGuides, opts.MaxGuidesPerKind, !opts.noPerl, len(opts.MemoKey), opts.MemoKey)
	for _, f := range ch.Files {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", f.Status, f.Path, f.OldPath, f.NewID)
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// Answers reports whether Find with opts (whose Memo is m) would answer
// from the memo, without searching: an entry is kept for the change.
func (m *Memo) Answers(ch *gitctx.Change, opts Options) bool {
	opts.defaults()
	key, ok := m.key(ch, opts)
	if !ok {
		return false
	}
	_, err := os.Stat(filepath.Join(m.dir, key))
	return err == nil
}

// get returns the entry under key, if there is a whole one.
func (m *Memo) get(key string) (memoEntry, bool) {
	data, err := os.ReadFile(filepath.Join(m.dir, key))
	if err != nil {
		return memoEntry{}, false
	}
	var e memoEntry
	if json.Unmarshal(data, &e) != nil {
		return memoEntry{}, false
	}
	now := time.Now()
	_ = os.Chtimes(filepath.Join(m.dir, key), now, now) // used: the last to go
	return e, true
}

// put keeps an entry under key; a memo that cannot be written is only
// slower.
func (m *Memo) put(key string, e memoEntry) {
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(m.dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), filepath.Join(m.dir, key))
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return
	}
	m.trim()
}

// trim removes the oldest half of the entries when there are more than
// maxMemoEntries, and temporary files a crashed run left.
func (m *Memo) trim() {
	des, err := os.ReadDir(m.dir)
	if err != nil || len(des) <= maxMemoEntries {
		return
	}
	type entry struct {
		name string
		mod  time.Time
	}
	var es []entry
	for _, d := range des {
		if info, err := d.Info(); err == nil {
			es = append(es, entry{d.Name(), info.ModTime()})
		}
	}
	slices.SortFunc(es, func(a, b entry) int { return a.mod.Compare(b.mod) })
	for i, e := range es {
		if i < len(es)/2 || strings.HasPrefix(e.name, ".tmp-") && time.Since(e.mod) > time.Hour {
			_ = os.Remove(filepath.Join(m.dir, e.name))
		}
	}
}
