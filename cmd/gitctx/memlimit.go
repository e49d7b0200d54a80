package main

import (
	"math"
	"runtime/debug"
)

// packMemoryLimit is the soft limit of the heap while a pack is built, and
// the collector runs only as the heap nears it. A pack of a thousand
// commits of a large repository keeps about 80 MiB live, and Go lets the
// heap grow to twice what is live before it collects; with the limit, it
// collects sooner instead (peak RSS on terraform's last 1,000 commits: 195
// MiB without, 138 MiB with, in the same time). Below the limit nothing
// needs collecting: a run is short, and a small pack's 9 or 10 collections
// cost it 50 ms of CPU. It is soft: a larger live heap only makes the
// collector work harder, never fails.
const packMemoryLimit = 120 << 20

// hookMemoryLimit is the pre-commit check's: a commit's few files load
// the rules and end far below it, and a staged 54 MB dump, scanned whole,
// peaks at 340-390 MB (1 GB with the collector at 400%, as it was), in
// 3.4-3.9 s (3.2-3.4 s); at packMemoryLimit the collector ran so often it
// took 4.6-4.9 s for the same peak.
const hookMemoryLimit = 256 << 20

// limitMemory sets limit as the soft memory limit and turns the
// proportional collector off, unless GOMEMLIMIT or GOGC says otherwise or
// a limit is set already, and returns what undoes it.
func limitMemory(getenv func(string) string, limit int64) (restore func()) {
	if getenv("GOMEMLIMIT") != "" || getenv("GOGC") != "" || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return func() {}
	}
	prevLimit := debug.SetMemoryLimit(limit)
	prevPercent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}
}
