//go:build !linux

package gitctx

import (
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// statSettles: this system's stat data is not read (see unsureFiles); git
// compares the work tree.
const statSettles = false

func statMatches(string, *index.Entry) (time.Time, bool) { return time.Time{}, false }
