package gitctx

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx/gittest"
)

// benchShape is the synthetic repository of the benchmarks: 40 packages
// of 15 files (about 900 files, 3 MB), 200 commits of history and a
// change of 20 commits touching about 200 files.
var benchShape = gittest.Shape{Packages: 40, Files: 15, History: 200, Change: 20}

// benchChange opens the synthetic repository and selects its change.
func benchChange(b *testing.B, r *gittest.Repo) (*Repo, *Change) {
	b.Helper()
	repo, err := Open(b.Context(), r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = repo.Close() })
	ch, err := repo.SelectRange(b.Context(), "HEAD~20..HEAD")
	if err != nil {
		b.Fatal(err)
	}
	return repo, ch
}

// BenchmarkSelect selects the change: revisions, the changed files (git
// diff --raw) and the commits.
func BenchmarkSelect(b *testing.B) {
	r := gittest.Synthetic(b, benchShape)
	repo, _ := benchChange(b, r)
	for b.Loop() {
		if _, err := repo.SelectRange(b.Context(), "HEAD~20..HEAD"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPatches streams the change's diff and parses every patch.
func BenchmarkPatches(b *testing.B) {
	r := gittest.Synthetic(b, benchShape)
	_, ch := benchChange(b, r)
	for b.Loop() {
		n := 0
		err := ch.Patches(b.Context(), func(*File) bool { return true }, 1<<20, func(*File, *Patch) error { n++; return nil })
		if err != nil || n != len(ch.Files) {
			b.Fatalf("Patches: %d of %d, %v", n, len(ch.Files), err)
		}
	}
}

// BenchmarkReadEach reads the new side of every changed file through one
// git cat-file --batch.
func BenchmarkReadEach(b *testing.B) {
	r := gittest.Synthetic(b, benchShape)
	_, ch := benchChange(b, r)
	for b.Loop() {
		var bytes int64
		err := ch.ReadEach(b.Context(), ch.Files, New, 1<<20, func(_ *File, size int64, _ []byte, err error) error {
			bytes += size
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(bytes)
	}
}

// BenchmarkReadTree reads every file of the range's head commit as the
// neighbours' search does: through git cat-file (ReadTreeEach), and from
// the work tree, which stands in for the commit (ReadTreeToSearch).
func BenchmarkReadTree(b *testing.B) {
	r := gittest.Synthetic(b, benchShape)
	_, ch := benchChange(b, r)
	tree, err := ch.Tree(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	type read func(context.Context, []TreeEntry, int64, func(TreeEntry, []byte, error) error) error
	for _, m := range []struct {
		name string
		read read
	}{{"cat-file", ch.ReadTreeEach}, {"worktree", ch.ReadTreeToSearch}} {
		b.Run(m.name, func(b *testing.B) {
			for b.Loop() {
				var bytes int64
				err := m.read(b.Context(), tree, 1<<20, func(_ TreeEntry, data []byte, err error) error {
					bytes += int64(len(data))
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(bytes)
			}
		})
	}
}

// BenchmarkHistory reads the history of the changed files, as the
// neighbours' co-change signal does: of a few of them, which git matches
// itself, and of more than maxPathspecs, whose commits History picks from
// every commit's files.
func BenchmarkHistory(b *testing.B) {
	r := gittest.Synthetic(b, benchShape)
	_, ch := benchChange(b, r)
	var paths []string
	for _, f := range ch.Files {
		paths = append(paths, f.Path)
	}
	for len(paths) <= maxPathspecs {
		paths = append(paths, fmt.Sprintf("absent/%d.go", len(paths)))
	}
	for _, bc := range []struct {
		name  string
		paths []string
	}{{"few", paths[:min(8, len(paths))]}, {"many", paths}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := ch.History(b.Context(), bc.paths, 1000, 10000); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReverseApply: an old side made from a 600 KB new side and a
// patch of one hunk (see oldFromWorktree).
func BenchmarkReverseApply(b *testing.B) {
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, "\tfield%d := compute(%d) // a line of code\n", i, i)
	}
	newSide := sb.String()
	hunks := oneHunk(strings.Replace(newSide, "field10000 ", "field10000x ", 1), newSide, 3)
	b.SetBytes(int64(len(newSide)))
	for b.Loop() {
		if _, ok := reverseApply(newSide, hunks); !ok {
			b.Fatal("refused")
		}
	}
}
