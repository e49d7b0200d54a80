package gitctx

import (
	"reflect"
	"testing"
)

// TestLinguistGenerated checks that the linguist-generated attribute is
// read from the root's .gitattributes and a directory's, the deeper and
// later line winning, as the change's base has them: a range's first
// commit, HEAD for the work tree (not what the change itself writes); a
// line that names other attributes does not hide one below it.
func TestLinguistGenerated(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{
		".gitattributes":     "gen/** linguist-generated\n*.pb.go linguist-generated=true\n*.txt text eol=lf\n*.go text\n",
		"api/.gitattributes": "models.go linguist-generated=true\nhand.pb.go -linguist-generated\nkeep.pb.go !linguist-generated\n",
		"gen/a.go":           "package gen\n",
		"api/models.go":      "package api\n",
		"api/hand.pb.go":     "package api\n",
		"api/keep.pb.go":     "package api\n",
		"api/x.pb.go":        "package api\n",
		"docs/notes.txt":     "notes\n",
		"main.go":            "package main\n",
	})
	r.Commit("base")
	r.WriteAll(map[string]string{"api/.gitattributes": "models.go linguist-generated=false\n"})
	r.Commit("models.go is written by hand now")
	paths := []string{"gen/a.go", "api/models.go", "api/hand.pb.go", "api/keep.pb.go", "api/x.pb.go", "docs/notes.txt", "main.go"}
	// the base's api/.gitattributes, not the one the range writes
	want := map[string]bool{"gen/a.go": true, "api/models.go": true, "api/hand.pb.go": false, "api/x.pb.go": true}

	repo := r.open()
	c := closeChange(t, mustSelect(t)(repo.SelectRange(t.Context(), "HEAD~1..HEAD")))
	got, err := c.LinguistGenerated(t.Context(), paths)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("range: %v, want %v", got, want)
	}

	r.WriteAll(map[string]string{"api/.gitattributes": "hand.pb.go -linguist-generated\nkeep.pb.go !linguist-generated\n", "main.go": "package main\n\n"})
	wt := closeChange(t, mustSelect(t)(repo.SelectWorktree(t.Context())))
	got, err = wt.LinguistGenerated(t.Context(), paths)
	if err != nil {
		t.Fatal(err)
	}
	// HEAD's api/.gitattributes, not the work tree's
	want = map[string]bool{"gen/a.go": true, "api/models.go": false, "api/hand.pb.go": true, "api/keep.pb.go": true, "api/x.pb.go": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("work tree: %v, want %v", got, want)
	}
}

// TestLinguistGeneratedSkipsLinks checks that a .gitattributes that is a
// symbolic link is passed over, as git does.
func TestLinguistGeneratedSkipsLinks(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"sub/a.go": "package sub\n", "b.go": "package b\n"})
	r.symlink("* linguist-generated", "sub/.gitattributes") // a link's blob is its target: read, it would say this
	r.Commit("base")
	r.WriteAll(map[string]string{"sub/a.go": "package sub\n\n", "b.go": "package b\n\n"})
	r.Commit("change")
	c := closeChange(t, mustSelect(t)(r.open().SelectRange(t.Context(), "HEAD~1..HEAD")))
	got, err := c.LinguistGenerated(t.Context(), []string{"sub/a.go", "b.go"})
	if err != nil || len(got) != 0 {
		t.Errorf("LinguistGenerated = %v, %v; want nothing from a linked .gitattributes", got, err)
	}
}
