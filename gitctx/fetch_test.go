package gitctx_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/gitctx/gittest"
)

func TestFetchMergeBaseDeepensAShallowClone(t *testing.T) {
	ctx := context.Background()
	origin := gittest.New(t, "origin")
	origin.Write("a.txt", "a\n")
	base := origin.Commit("base")
	for i := range 6 {
		origin.Write("a.txt", strings.Repeat("a\n", i+2))
		origin.Commit("step")
	}
	head := origin.Rev("HEAD")

	clone := gittest.New(t, "clone-parent")
	dir := clone.Dir + "/shallow"
	clone.Git("clone", "-q", "--depth", "1", "file://"+origin.Dir, dir)
	r, err := gitctx.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Shallow || r.HasCommit(ctx, base) {
		t.Fatalf("setup: shallow %v, has base %v", r.Shallow, r.HasCommit(ctx, base))
	}
	if err := r.FetchMergeBase(ctx, base, head, gitctx.FetchOptions{Depths: []int{2, 50}}); err != nil {
		t.Fatal(err)
	}
	if !r.HasCommit(ctx, base) {
		t.Error("the base was not fetched")
	}
	if _, err := r.SelectRange(ctx, base+"..."+head); err != nil {
		t.Errorf("the range does not resolve after the fetch: %v", err)
	}
}

func TestFetchMergeBaseFailsNamingFetchDepth(t *testing.T) {
	ctx := context.Background()
	repo := gittest.New(t, "lonely")
	repo.Write("a.txt", "a\n")
	head := repo.Commit("only")
	r, err := gitctx.Open(ctx, repo.Dir)
	if err != nil {
		t.Fatal(err)
	}
	err = r.FetchMergeBase(ctx, strings.Repeat("1", len(head)), head, gitctx.FetchOptions{Remote: "nowhere", Depths: []int{1}, Token: "tok-secret"})
	if !errors.Is(err, gitctx.ErrHistoryMissing) || !strings.Contains(err.Error(), "fetch-depth: 0") || strings.Contains(err.Error(), "tok-secret") {
		t.Errorf("err = %v", err)
	}
}
