package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// memorySettings reads the memory limit and the GC percent without
// changing them.
func memorySettings() (limit int64, percent int) {
	limit = debug.SetMemoryLimit(-1)
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return limit, percent
}

func TestLimitMemory(t *testing.T) {
	limit0, percent0 := memorySettings()
	if limit0 != math.MaxInt64 {
		t.Skip("the test process has a memory limit already")
	}
	for _, c := range []struct {
		name        string
		env         map[string]string
		wantLimit   int64
		wantPercent int
	}{
		{"by default", nil, packMemoryLimit, -1},
		{"GOGC set", map[string]string{"GOGC": "200"}, limit0, percent0},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "1GiB"}, limit0, percent0},
	} {
		t.Run(c.name, func(t *testing.T) {
			restore := limitMemory(func(k string) string { return c.env[k] }, packMemoryLimit)
			limit, percent := memorySettings()
			restore()
			if limit != c.wantLimit || percent != c.wantPercent {
				t.Errorf("while limited: memory limit %d, GC percent %d; want %d, %d", limit, percent, c.wantLimit, c.wantPercent)
			}
			if limit, percent := memorySettings(); limit != limit0 || percent != percent0 {
				t.Errorf("after restore: memory limit %d, GC percent %d; want %d, %d", limit, percent, limit0, percent0)
			}
		})
	}
}
