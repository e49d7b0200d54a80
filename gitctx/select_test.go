package gitctx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const emptyTreeSHA1 = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// TestSelectRangeStatuses checks every status git reports between two
// commits, with the modes and blob ids of each side.
func TestSelectRangeStatuses(t *testing.T) {
	r := newTestRepo(t)
	r.Write("keep.txt", "kept\n")
	r.Write("mod.txt", "one\n")
	r.Write("del.txt", "gone soon\n")
	r.Write("old-name.txt", strings.Repeat("a line that moves with the file\n", 20))
	r.Write("script.sh", "echo hi\n")
	r.Write("kind.txt", "a file that becomes a link\n")
	a := r.Commit("first")

	r.Write("mod.txt", "two\n")
	r.remove("del.txt")
	r.Write("add.txt", "new\n")
	if err := os.Rename(filepath.Join(r.Dir, "old-name.txt"), filepath.Join(r.Dir, "new-name.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(r.Dir, "script.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.symlink("keep.txt", "kind.txt")
	b := r.Commit("second")

	c, err := r.open().SelectRange(context.Background(), "HEAD~1..HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	checkEqual(t, "Source", c.Source, Source{Kind: KindRange, Spec: "HEAD~1..HEAD", Base: a, Head: b})
	checkEqual(t, "Files", summarize(c.Files), []fileSum{
		{"add.txt", "", Added, 0, ModeRegular},
		{"del.txt", "", Deleted, ModeRegular, 0},
		{"kind.txt", "", TypeChanged, ModeRegular, ModeSymlink},
		{"mod.txt", "", Modified, ModeRegular, ModeRegular},
		{"new-name.txt", "old-name.txt", Renamed, ModeRegular, ModeRegular},
		{"script.sh", "", ModeChanged, ModeRegular, ModeExecutable},
	})

	ids := map[string][2]string{
		"add.txt":      {"", r.Rev(b + ":add.txt")},
		"del.txt":      {r.Rev(a + ":del.txt"), ""},
		"kind.txt":     {r.Rev(a + ":kind.txt"), r.Rev(b + ":kind.txt")},
		"mod.txt":      {r.Rev(a + ":mod.txt"), r.Rev(b + ":mod.txt")},
		"new-name.txt": {r.Rev(a + ":old-name.txt"), r.Rev(b + ":new-name.txt")},
		"script.sh":    {r.Rev(a + ":script.sh"), r.Rev(b + ":script.sh")},
	}
	for path, want := range ids {
		f := byPath(t, c, path)
		checkEqual(t, path+" ids", [2]string{f.OldID, f.NewID}, want)
	}
	if got := byPath(t, c, "new-name.txt").Score; got != 100 {
		t.Errorf("rename score = %d, want 100", got)
	}
	if f := byPath(t, c, "kind.txt"); !f.IsSymlink() || f.IsSubmodule() {
		t.Errorf("kind.txt: IsSymlink() = %v, IsSubmodule() = %v, want true, false", f.IsSymlink(), f.IsSubmodule())
	}
}

// TestSelectRangeSpecs checks how each form of spec resolves to a base and
// a head, and which files and commits it selects.
func TestSelectRangeSpecs(t *testing.T) {
	r := newTestRepo(t)
	r.Write("base.txt", "base\n")
	root := r.Commit("root")
	r.Write("base.txt", "base, second version\n")
	fork := r.Commit("fork point")
	r.Git("checkout", "-q", "-b", "feature")
	r.Write("feature.txt", "feature work\n")
	feat := r.Commit("feature work")
	r.Git("checkout", "-q", "main")
	r.Write("base.txt", "changed on main after the fork\n")
	mainTip := r.Commit("main moves on")
	repo := r.open()

	type want struct {
		base, head, mergeBase string
		files                 []fileSum
		commits               []string
	}
	tests := []struct {
		spec string
		want want
	}{
		{"main...feature", want{fork, feat, fork,
			[]fileSum{{"feature.txt", "", Added, 0, ModeRegular}}, []string{feat}}},
		{"main..feature", want{mainTip, feat, "",
			[]fileSum{{"base.txt", "", Modified, ModeRegular, ModeRegular}, {"feature.txt", "", Added, 0, ModeRegular}},
			[]string{feat}}},
		{"feature", want{fork, feat, "",
			[]fileSum{{"feature.txt", "", Added, 0, ModeRegular}}, []string{feat}}},
		{"HEAD~1..", want{fork, mainTip, "",
			[]fileSum{{"base.txt", "", Modified, ModeRegular, ModeRegular}}, []string{mainTip}}},
		{"..feature", want{mainTip, feat, "",
			[]fileSum{{"base.txt", "", Modified, ModeRegular, ModeRegular}, {"feature.txt", "", Added, 0, ModeRegular}},
			[]string{feat}}},
		{"feature...", want{fork, mainTip, fork,
			[]fileSum{{"base.txt", "", Modified, ModeRegular, ModeRegular}}, []string{mainTip}}},
		{root, want{emptyTreeSHA1, root, "",
			[]fileSum{{"base.txt", "", Added, 0, ModeRegular}}, []string{root}}},
		{root + "..main", want{root, mainTip, "",
			[]fileSum{{"base.txt", "", Modified, ModeRegular, ModeRegular}}, []string{mainTip, fork}}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			c, err := repo.SelectRange(context.Background(), tt.spec)
			if err != nil {
				t.Fatalf("SelectRange(%q): %v", tt.spec, err)
			}
			if err := c.WaitCommits(); err != nil {
				t.Fatalf("SelectRange(%q): commits: %v", tt.spec, err)
			}
			var shas []string
			for _, cm := range c.Commits {
				shas = append(shas, cm.SHA)
			}
			got := want{c.Source.Base, c.Source.Head, c.Source.MergeBase, summarize(c.Files), shas}
			checkEqual(t, "SelectRange("+tt.spec+")", got, tt.want)
			if c.Source.Kind != KindRange || c.Source.Spec != tt.spec || c.Repo() != repo {
				t.Errorf("Source = %+v, Repo() = %p; want kind range, spec %q, repo %p", c.Source, c.Repo(), tt.spec, repo)
			}
		})
	}
}

func TestSelectRangeCommits(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "1\n")
	first := r.Commit("first")
	r.Write("a.txt", "2\n")
	second := r.Commit("second: with a body\n\nThe body explains why.\nIt has two lines.\n")
	r.Write("a.txt", "3\n")
	third := r.Commit("third")

	c, err := r.open().SelectRange(context.Background(), first+"..HEAD")
	if err != nil {
		t.Fatalf("SelectRange: %v", err)
	}
	if err := c.WaitCommits(); err != nil {
		t.Fatalf("commits: %v", err)
	}
	checkEqual(t, "Commits", c.Commits, []Commit{
		{SHA: third, Subject: "third", Message: "third"},
		{SHA: second, Subject: "second: with a body", Message: "second: with a body\n\nThe body explains why.\nIt has two lines."},
	})
}

// TestSelectRangePastTheRoot checks that a revision that walks back past
// the first commit says how long the history is, and that others are
// still "no commit by that name".
func TestSelectRangePastTheRoot(t *testing.T) {
	r1 := newTestRepo(t)
	r1.Write("a.txt", "1\n")
	r1.Commit("first")
	one := r1.open()
	r := newTestRepo(t)
	for i := 1; i <= 3; i++ {
		r.Write("a.txt", fmt.Sprintf("%d\n", i))
		r.Commit(fmt.Sprint(i))
	}
	three := r.open()
	for _, tt := range []struct {
		repo *Repo
		spec string
		want []string
	}{
		{one, "HEAD~1..HEAD", []string{"HEAD~1: unknown revision", "HEAD's history is 1 commit long", "no ancestor 1 back", "gitctx pack HEAD packs that one commit"}},
		{three, "HEAD~5..HEAD", []string{"HEAD~5: unknown revision", "HEAD's history is 3 commits long", "no ancestor 5 back", "the oldest is HEAD~2"}},
		{three, "main^^^^", []string{"main^^^^", "no ancestor 4 back", "the oldest is main~2"}},
		{three, "HEAD~2^~1", []string{"no ancestor 4 back"}},
		{three, "HEAD^2", []string{"no commit by that name"}}, // a second parent, not the history's length
		{three, "nosuch~1", []string{"no commit by that name"}},
	} {
		_, err := tt.repo.SelectRange(t.Context(), tt.spec)
		if !errors.Is(err, ErrUnknownRevision) {
			t.Fatalf("SelectRange(%q) = %v, want ErrUnknownRevision", tt.spec, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("SelectRange(%q): %q lacks %q", tt.spec, err, w)
			}
		}
	}
}

func TestSelectRangeUnknownRevision(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "1\n")
	r.Commit("first")
	repo := r.open()

	tests := []struct{ spec, names string }{
		{"nosuch", "nosuch"},
		{"nosuch..HEAD", "nosuch"},
		{"HEAD..nosuch", "nosuch"},
		{"main...nosuch", "nosuch"},
		{"HEAD~5", "HEAD~5"},
		{"--output=x.txt", "--output=x.txt"},
		{"HEAD..-x", "-x"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			c, err := repo.SelectRange(context.Background(), tt.spec)
			if !errors.Is(err, ErrUnknownRevision) {
				t.Fatalf("SelectRange(%q) = %v, %v; want an error wrapping ErrUnknownRevision", tt.spec, c, err)
			}
			if errors.Is(err, ErrShallow) {
				t.Errorf("SelectRange(%q): %v also wraps ErrShallow in a full clone", tt.spec, err)
			}
			if !strings.Contains(err.Error(), tt.names) {
				t.Errorf("SelectRange(%q) error %q does not name %q", tt.spec, err, tt.names)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "x.txt")); !os.IsNotExist(err) {
		t.Errorf("a revision like an option created x.txt (stat: %v)", err)
	}
}

// TestSelectRangeShallow checks that history missing from a shallow clone
// is reported as ErrShallow, with advice on fetching more.
func TestSelectRangeShallow(t *testing.T) {
	src := newTestRepo(t)
	for i, content := range []string{"1\n", "2\n", "3\n"} {
		src.Write("a.txt", content)
		src.Commit("commit " + string(rune('1'+i)))
	}
	dst := filepath.Join(t.TempDir(), "shallow")
	src.Git("clone", "-q", "--depth", "1", "file://"+src.Dir, dst)
	repo := openRepo(t, dst)
	if !repo.Shallow {
		t.Fatalf("Open(%s).Shallow = false, want true", dst)
	}

	for _, spec := range []string{"HEAD~2..HEAD", "HEAD", "HEAD~1...HEAD"} {
		t.Run(spec, func(t *testing.T) {
			c, err := repo.SelectRange(context.Background(), spec)
			if !errors.Is(err, ErrShallow) {
				t.Fatalf("SelectRange(%q) = %+v, %v; want an error wrapping ErrShallow", spec, c, err)
			}
			if msg := err.Error(); !strings.Contains(msg, "fetch-depth") && !strings.Contains(msg, "--deepen") {
				t.Errorf("SelectRange(%q) error %q gives no advice (fetch-depth or --deepen)", spec, msg)
			}
		})
	}

	// What the clone does hold can still be selected: HEAD against itself.
	c, err := repo.SelectRange(context.Background(), "HEAD..HEAD")
	if err != nil {
		t.Fatalf("SelectRange(HEAD..HEAD) in a shallow clone: %v", err)
	}
	if !c.Source.Shallow || len(c.Files) != 0 {
		t.Errorf("SelectRange(HEAD..HEAD) = Source %+v, %d files; want Shallow and no files", c.Source, len(c.Files))
	}
}

func TestOpen(t *testing.T) {
	r := newTestRepo(t)
	r.Write("sub/dir/a.txt", "1\n")
	r.Commit("first")

	repo := openRepo(t, filepath.Join(r.Dir, "sub", "dir"))
	root, err := filepath.EvalSymlinks(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	got := [3]string{repo.Root, repo.GitDir, filepath.Clean(repo.CommonDir)}
	checkEqual(t, "Open from a subdirectory", got, [3]string{root, filepath.Join(root, ".git"), filepath.Join(root, ".git")})

	_, err = Open(context.Background(), t.TempDir())
	if !errors.Is(err, ErrNotRepository) {
		t.Errorf("Open(empty directory) = %v, want an error wrapping ErrNotRepository", err)
	}
}
