//go:build !unix

package artifact

import (
	"os"
	"time"
)

// lock is a no-op where flock is not available; renames stay atomic one by
// one.
func lock(string) (func(), error) { return func() {}, nil }

func stale(info os.FileInfo) bool { return time.Since(info.ModTime()) > time.Minute }
