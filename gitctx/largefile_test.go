package gitctx

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLargeUntracked: an untracked file over the large-file size is
// listed as added but never diffed or searched by git; its patch (binary,
// or oversize with its lines counted) and line counts come from gitctx,
// in their places among the other files', as git would have given them.
func TestLargeUntracked(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "a\n")
	r.Write("m/b.txt", "b\n")
	r.Commit("first")
	r.Write("a.txt", "a\nmore\n")
	big := strings.Repeat("needle in a big file\n", 100) + "no newline at the end"
	r.Write("dump.sql", big)
	r.Write("m/run.sh", "#!/bin/sh\n"+big)
	if err := os.Chmod(filepath.Join(r.Dir, "m", "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.Write("data.bin", "BIN\x00"+big)
	r.Write("small.txt", "needle in a small file\n")
	repo := r.open()
	repo.largeFile = 1 << 10

	c := closeChange(t, mustSelect(t)(repo.SelectWorktree(t.Context())))
	checkEqual(t, "files", summarize(c.Files), []fileSum{
		{"a.txt", "", Modified, ModeRegular, ModeRegular},
		{"data.bin", "", Added, 0, ModeRegular},
		{"dump.sql", "", Added, 0, ModeRegular},
		{"m/run.sh", "", Added, 0, ModeExecutable},
		{"small.txt", "", Added, 0, ModeRegular},
	})

	var order []string
	patches := map[string]*Patch{}
	err := c.Patches(t.Context(), func(f *File) bool { return f.Path != "small.txt" }, 1<<20, func(f *File, p *Patch) error {
		order, patches[f.Path] = append(order, f.Path), p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkEqual(t, "patches, in the order of the files", order, []string{"a.txt", "data.bin", "dump.sql", "m/run.sh"})
	if p := patches["dump.sql"]; !p.Oversize || p.Added != 101 || p.Size != int64(len(big)) {
		t.Errorf("dump.sql's patch: %+v; want oversize, 101 lines added, %d bytes", p, len(big))
	}
	if p := patches["m/run.sh"]; !p.Oversize || p.Added != 102 {
		t.Errorf("m/run.sh's patch: %+v; want oversize, 102 lines added", p)
	}
	if p := patches["data.bin"]; !p.Binary {
		t.Errorf("data.bin's patch: %+v; want binary", p)
	}

	counts, err := c.LineCounts(t.Context(), c.Files)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]LineCount{}
	for f, n := range counts {
		got[f.Path] = n
	}
	checkEqual(t, "line counts", got, map[string]LineCount{
		"a.txt": {1, 0}, "dump.sql": {101, 0}, "m/run.sh": {102, 0}, "small.txt": {1, 0},
	})

	var found []string
	if err := c.Grep(t.Context(), []string{"needle"}, func(path string, _ []byte) { found = append(found, path) }); err != nil {
		t.Fatal(err)
	}
	checkEqual(t, "files found", slices.Compact(found), []string{"small.txt"})
}
