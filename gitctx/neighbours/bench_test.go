package neighbours

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/gitctx/gittest"
)

// BenchmarkFind finds the neighbours of a change of about 200 Go files in
// a synthetic project of about 900 files with 200 commits of history:
// history, the import index, references and the rest.
func BenchmarkFind(b *testing.B) {
	r := gittest.Synthetic(b, gittest.Shape{Packages: 40, Files: 15, History: 200, Change: 20})
	repo, err := gitctx.Open(b.Context(), r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	for b.Loop() {
		ch, err := repo.SelectRange(b.Context(), "HEAD~20..HEAD")
		if err != nil {
			b.Fatal(err)
		}
		ns, _, err := Find(b.Context(), ch, Options{})
		if err != nil || len(ns) == 0 {
			b.Fatalf("Find: %d neighbours, %v", len(ns), err)
		}
	}
}

// BenchmarkFindOneFile finds the neighbours of an uncommitted change of one
// Go file in the same synthetic project: for so small a change the search
// for the changed lines' words runs too (see words.go).
func BenchmarkFindOneFile(b *testing.B) {
	r := gittest.Synthetic(b, gittest.Shape{Packages: 40, Files: 15, History: 200, Change: 20})
	old, err := os.ReadFile(filepath.Join(r.Dir, "pkg05", "file03.go"))
	if err != nil {
		b.Fatal(err)
	}
	r.Write("pkg05/file03.go", string(old)+"\n// Extra merges the nested widgets.\nfunc Extra() string { return Compute0300(nil) + Compute0301(nil) }\n")
	repo, err := gitctx.Open(b.Context(), r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	for b.Loop() {
		ch, err := repo.SelectWorktree(b.Context())
		if err != nil {
			b.Fatal(err)
		}
		ns, _, err := Find(b.Context(), ch, Options{})
		if err != nil || len(ns) == 0 {
			b.Fatalf("Find: %d neighbours, %v", len(ns), err)
		}
		_ = ch.Close()
	}
}

// BenchmarkMostAlike compares a change with the most an earlier history
// can hold: maxHistoryCommits commits of maxChangedText bytes of changed
// lines each, of words drawn from a vocabulary of 5,000.
func BenchmarkMostAlike(b *testing.B) {
	word := func(i int) string { return fmt.Sprintf("word%d", i*7919%5000) }
	past := make([]gitctx.HunkCommit, maxHistoryCommits)
	for i := range past {
		var text []byte
		for j := i; len(text) < 16<<10; j++ {
			text = append(text, word(j)+" "...)
		}
		past[i] = gitctx.HunkCommit{SHA: fmt.Sprint(i), Changed: text}
	}
	var changed []byte
	for j := range 50 {
		changed = append(changed, word(j*31)+"\n"...)
	}
	for b.Loop() {
		if len(mostAlike(changed, past)) == 0 {
			b.Fatal("no like commit")
		}
	}
}
