package gitctx

import (
	"path/filepath"
	"testing"
)

// TestCommitsCut: in a shallow clone that holds a range's base and head
// but not every commit between them (a CI checkout of depth 1 or 2, the
// base fetched apart), the diff is whole but git's walk of the range stops
// at the boundary: the change says where, so the commit list is not taken
// as complete.
func TestCommitsCut(t *testing.T) {
	src := newTestRepo(t)
	var ids []string
	for _, content := range []string{"1\n", "2\n", "3\n", "4\n"} {
		src.Write("a.txt", content)
		ids = append(ids, src.Commit("commit "+content[:1]))
	}
	src.Git("config", "uploadpack.allowAnySHA1InWant", "true")
	dst := filepath.Join(t.TempDir(), "shallow")
	src.Git("clone", "-q", "--depth", "2", "file://"+src.Dir, dst)
	src.Git("-C", dst, "fetch", "-q", "--depth", "1", "origin", ids[0]) // the boundary: commits 3 and 1
	repo := openRepo(t, dst)

	for _, tt := range []struct {
		name, spec string
		commits    []string
		cut        []string
	}{
		{"within the clone", "HEAD~1..HEAD", []string{ids[3]}, nil},
		{"past the boundary", ids[0] + "..HEAD", []string{ids[3], ids[2]}, []string{ids[2]}}, // commit 2 is missing
		{"from the boundary", ids[0] + "..HEAD~1", []string{ids[2]}, []string{ids[2]}},
		{"one commit", "HEAD", []string{ids[3]}, nil}, // whole (at the boundary: ErrShallow)
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := closeChange(t, mustSelect(t)(repo.SelectRange(t.Context(), tt.spec)))
			if err := c.WaitCommits(); err != nil {
				t.Fatalf("WaitCommits: %v", err)
			}
			var got []string
			for _, cm := range c.Commits {
				got = append(got, cm.SHA)
			}
			checkEqual(t, "Commits", got, tt.commits)
			checkEqual(t, "CommitsCut", c.CommitsCut(), tt.cut)
		})
	}
}
