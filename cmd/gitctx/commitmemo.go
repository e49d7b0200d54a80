package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// maxCommitEntries bounds the ranges the commit memo keeps.
const maxCommitEntries = 1000

// commitMemo keeps the ids of ranges' commits (see gitctx.CommitMemo) in
// the folder commits of cacheDir: a file a range, named by a digest of its
// two commits, holding the ids one a line. Nothing else: no message.
type commitMemo struct{ dir string }

// openCommitMemo returns the commit memo, or nil without a cache.
func openCommitMemo(a *app) gitctx.CommitMemo {
	dir := cacheDir(a)
	if dir == "" {
		return nil
	}
	dir = filepath.Join(dir, "commits")
	if os.MkdirAll(dir, 0o700) != nil {
		return nil
	}
	return commitMemo{dir}
}

func (m commitMemo) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(m.dir, hex.EncodeToString(sum[:]))
}

func (m commitMemo) Get(key string) ([]string, bool) {
	data, err := os.ReadFile(m.path(key))
	if err != nil || len(data) == 0 || data[len(data)-1] != '\n' {
		return nil, false // none, or a write cut short
	}
	ids := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for _, id := range ids {
		if len(id) != 40 && len(id) != 64 || strings.Trim(id, "0123456789abcdef") != "" {
			return nil, false
		}
	}
	return ids, true
}

// Put writes the entry whole (a temporary file renamed into place) and,
// past maxCommitEntries, removes the oldest. A memo that cannot be written
// is only slower.
func (m commitMemo) Put(key string, ids []string) {
	if len(ids) == 0 {
		return
	}
	f, err := os.CreateTemp(m.dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.WriteString(strings.Join(ids, "\n") + "\n")
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), m.path(key)) != nil {
		os.Remove(f.Name())
		return
	}
	m.trim()
}

func (m commitMemo) trim() {
	entries, err := os.ReadDir(m.dir)
	if err != nil || len(entries) <= maxCommitEntries {
		return
	}
	type aged struct {
		name string
		mod  int64
	}
	var all []aged
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			all = append(all, aged{e.Name(), info.ModTime().UnixNano()})
		}
	}
	slices.SortFunc(all, func(a, b aged) int { return int(min(max(a.mod-b.mod, -1), 1)) })
	for _, e := range all[:max(0, len(all)-maxCommitEntries)] {
		os.Remove(filepath.Join(m.dir, e.name))
	}
}
