package secrets

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// blockBytes is what a small file takes on disk, at least.
const blockBytes = 4096

// staleTemp is how old a temporary file is before a sweep takes it for
// one a crashed run left.
const staleTemp = time.Hour

// sweep removes the temporary files crashed runs left in dir, and then
// the oldest entries (by modification time, which a hit refreshes once a
// day) until the rest take at most maxBytes.
func sweep(dir string, maxBytes int64, now time.Time) {
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if now.Sub(info.ModTime()) > staleTemp {
				_ = os.Remove(p)
			}
			return nil
		}
		if len(d.Name()) != 62 { // an entry's name: its key in hex, less the directory's two
			return nil
		}
		size := (info.Size() + blockBytes - 1) / blockBytes * blockBytes
		files = append(files, file{p, size, info.ModTime()})
		total += size
		return nil
	})
	if total <= maxBytes {
		return
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if total <= maxBytes {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
}

// touchAfter is how old an entry is before a hit refreshes its time, so
// that the entries a sweep removes are those not used for longest.
const touchAfter = 24 * time.Hour

// touch refreshes an entry's time when it is old.
func touch(path string, now time.Time) {
	if info, err := os.Stat(path); err == nil && now.Sub(info.ModTime()) > touchAfter {
		_ = os.Chtimes(path, now, now)
	}
}
