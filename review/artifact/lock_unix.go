//go:build unix

package artifact

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

// lock takes an exclusive lock on the directory itself, so no lock file is
// ever left behind.
func lock(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}

func stale(info os.FileInfo) bool { return time.Since(info.ModTime()) > time.Minute }
