package gitctx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// windowRepo has 30 commits, every third of which touches a.txt, and a
// change of a.txt in the work tree.
func windowRepo(t *testing.T) *testRepo {
	r := newTestRepo(t)
	for i := range 30 {
		if i%3 == 0 {
			r.Write("a.txt", fmt.Sprintf("a %d\n", i))
		}
		r.Write(fmt.Sprintf("f%d.txt", i), "x\n")
		r.Commit(fmt.Sprintf("c%d", i))
	}
	r.Write("a.txt", "changed\n")
	return r
}

// A work tree's history window, walked in the background while the change
// is listed, is the one History would walk itself, and it is walked once.
func TestPrefetchedWindowIsWalkedOnce(t *testing.T) {
	r := windowRepo(t)
	history := func(prefetch bool) ([]HistoryCommit, int) {
		trace := filepath.Join(t.TempDir(), "trace")
		t.Setenv("GIT_TRACE", trace)
		repo := openRepo(t, r.Dir)
		if prefetch {
			repo.PrefetchHistory(12)
		}
		ch, err := repo.SelectWorktree(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer ch.Close()
		h, err := ch.History(t.Context(), []string{"a.txt"}, 100, 12)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(trace)
		return h, strings.Count(string(data), "rev-list --parents -n12 ")
	}
	want, walks := history(false)
	if len(want) != 4 || walks != 1 { // c27, c24, c21, c18: the window is c29 … c18
		t.Fatalf("History without a prefetch: %d commits, %d walks; want 4 and 1", len(want), walks)
	}
	got, walks := history(true)
	if !reflect.DeepEqual(got, want) || walks != 1 {
		t.Errorf("History with the window prefetched: %+v in %d walks, want %+v in one", got, walks, want)
	}
}

// Close stops a prefetch still walking and waits for it; without
// PrefetchHistory none starts.
func TestCloseStopsThePrefetch(t *testing.T) {
	r := windowRepo(t)
	repo, err := Open(context.Background(), r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	repo.PrefetchHistory(10000)
	ch, err := repo.SelectWorktree(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	_ = ch.Close()
	if err := repo.Close(); err != nil {
		t.Fatal(err)
	}
	if repo.windows.ctx.Err() == nil {
		t.Error("the prefetch's context is still live after Close")
	}

	plain := r.open()
	ch, err = plain.SelectWorktree(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	_ = ch.Close()
	if plain.windows.cancel != nil || len(plain.windows.walked) != 0 {
		t.Error("a window was walked without PrefetchHistory")
	}
}
