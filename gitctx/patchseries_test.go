package gitctx

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// seriesRepo commits a base and three commits on it, which between them
// change one file twice, rename a file and change it again, add a file and
// delete it again, and leave a file changed and changed back.
func seriesRepo(t *testing.T) (r *testRepo, base, head string) {
	r = newTestRepo(t)
	r.Write("twice.txt", numbered(30, nil))
	r.Write("old.go", "package a\n\n// A is a function\n// of many comments\n// that stay.\nfunc A() {}\n")
	r.Write("back.txt", "as it was\n")
	base = r.Commit("base")
	r.Write("twice.txt", numbered(30, map[int]string{3: "three\n"}))
	r.Write("temp.txt", "short-lived\n")
	r.Write("back.txt", "changed\n")
	r.Commit("first: three\n\nWhy line 3 changed.")
	r.Write("twice.txt", numbered(30, map[int]string{3: "three\n", 25: "twenty-five\n"}))
	r.Git("mv", "old.go", "new.go")
	r.Write("back.txt", "as it was\n")
	r.Commit("second: twenty-five, and a rename")
	r.Write("new.go", "package a\n\n// A is a function\n// of many comments\n// that stay.\nfunc A() { B() }\n")
	r.remove("temp.txt")
	head = r.Commit("third: A calls B")
	return r, base, head
}

// TestReadPatchSeries reads one series in the three forms git prints it:
// each gives the range's commits and files, with the range's contents and
// one diff per file.
func TestReadPatchSeries(t *testing.T) {
	r, base, head := seriesRepo(t)
	forms := map[string]string{
		"format-patch":     r.Git("format-patch", "--stdout", base+".."+head),
		"log -p":           r.Git("log", "-p", "--decorate", base+".."+head),
		"log -p --reverse": r.Git("log", "-p", "--reverse", base+".."+head),
	}
	repo := r.open()
	rng, err := repo.SelectRange(context.Background(), base+".."+head)
	if err != nil {
		t.Fatal(err)
	}
	if err := rng.WaitCommits(); err != nil {
		t.Fatal(err)
	}
	for name, text := range forms {
		t.Run(name, func(t *testing.T) {
			c := readPatch(t, repo, text)
			checkEqual(t, "commits", c.Commits, rng.Commits)
			checkEqual(t, "files", summarize(c.Files), summarize(rng.Files))
			for _, f := range c.Files {
				_, got, err := c.Read(context.Background(), f, New, -1)
				if err != nil && f.Status != Deleted {
					t.Errorf("Read(%s, New): %v", f.Path, err)
				}
				if want := r.Git("show", head+":"+f.Path); f.Status != Deleted && string(got) != want {
					t.Errorf("Read(%s, New) = %q; want the head's %q", f.Path, got, want)
				}
			}
			checkEqual(t, "twice.txt's diff", lineTexts(allPatches(t, c, 0)["twice.txt"]), []string{
				" line 1", " line 2", "-line 3", "+three", " line 4", " line 5", " line 6",
				" line 22", " line 23", " line 24", "-line 25", "+twenty-five", " line 26", " line 27", " line 28",
			})
			checkEqual(t, "new.go's diff", lineTexts(allPatches(t, c, 0)["new.go"]), []string{
				" // A is a function", " // of many comments", " // that stay.", "-func A() {}", "+func A() { B() }",
			})
		})
	}
}

// TestReadPatchSeriesWithoutBase reads a series outside any repository: a
// file it adds is composed all the same; a file it changes twice shows
// each patch's hunks in turn, and reading its new version says why not.
func TestReadPatchSeriesWithoutBase(t *testing.T) {
	r, base, head := seriesRepo(t)
	r.Write("added.txt", "one\n")
	r.Commit("add")
	r.Write("added.txt", "one\ntwo\n")
	head2 := r.Commit("grow")
	text := r.Git("format-patch", "--stdout", base+".."+head) + r.Git("format-patch", "--stdout", head+".."+head2)

	c := readPatch(t, nil, text)
	if len(c.Commits) != 5 || c.Commits[0].Subject != "grow" || c.Commits[4].Subject != "first: three" {
		t.Errorf("commits = %+v; want the five, newest first", c.Commits)
	}
	added := byPath(t, c, "added.txt")
	if _, data, err := c.Read(context.Background(), added, New, -1); err != nil || string(data) != "one\ntwo\n" {
		t.Errorf("Read(added.txt, New) = %q, %v; want both lines", data, err)
	}
	twice := byPath(t, c, "twice.txt")
	if n := len(allPatches(t, c, 0)["twice.txt"].Hunks); n != 2 {
		t.Errorf("twice.txt has %d hunks; want one per patch", n)
	}
	_, _, err := c.Read(context.Background(), twice, New, -1)
	if err == nil || !strings.Contains(err.Error(), "2 patches of the series change it") {
		t.Errorf("Read(twice.txt, New) error = %v; want one that says two patches change it", err)
	}
}

// TestReadPatchSeriesMessages covers the commits a series' messages give:
// a cover letter, an id of zeros, and a plain diff, which gives none.
func TestReadPatchSeriesMessages(t *testing.T) {
	r, base, head := seriesRepo(t)
	cover := r.Git("format-patch", "--stdout", "--cover-letter", base+".."+head)
	cover = strings.Replace(cover, "*** SUBJECT HERE ***", "Make A call B", 1)
	r.Write("x.txt", "x\n")
	x := r.Commit("x")
	r.Write("y.txt", "y\n")
	y := r.Commit("y")
	tests := []struct {
		name, text string
		want       []string // "<id or -> <subject>", newest first
	}{
		// no file twice: the authors' dates tell the order
		{"log --reverse", r.Git("log", "-p", "--reverse", head+".."+y), []string{y[:8] + " y", x[:8] + " x"}},
		{"log", r.Git("log", "-p", head+".."+y), []string{y[:8] + " y", x[:8] + " x"}},
		{"cover letter", cover, []string{
			head[:8] + " third: A calls B", "........ second: twenty-five, and a rename",
			"........ first: three", "- Make A call B",
		}},
		{"mail archive", mboxFromArchive(r.Git("format-patch", "--stdout", head+"~2.."+head)), []string{"- third: A calls B", "- second: twenty-five, and a rename"}},
		{"a thread's reply", mboxFromArchive(r.Git("format-patch", "--stdout", head+"~2.."+head)) +
			"From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: B <b@example.com>\nSubject: Re: [PATCH 2/2] third: A calls B\n\n> diff --git a/new.go b/new.go\nLooks good.\n",
			[]string{"- third: A calls B", "- second: twenty-five, and a rename"}},
		{"zero ids", r.Git("format-patch", "--stdout", "--zero-commit", "-1", head), []string{"- third: A calls B"}},
		{"unedited cover letter", r.Git("format-patch", "--stdout", "--cover-letter", "-1", head), []string{head[:8] + " third: A calls B"}},
		{"plain diff", r.Git("diff", base, head), nil},
		{"git show", r.Git("show", head), []string{head[:8] + " third: A calls B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := readPatch(t, r.open(), tt.text)
			var got []string
			for i, cm := range c.Commits {
				id := "-"
				if cm.SHA != "" {
					id = cm.SHA[:8]
					if i < len(tt.want) && strings.HasPrefix(tt.want[i], "........") {
						id = "........"
					}
				}
				got = append(got, id+" "+cm.Subject)
			}
			checkEqual(t, "commits", got, tt.want)
		})
	}
}

// mboxFromArchive rewrites git format-patch's "From <id>" lines as a mail
// archive writes them (b4, public-inbox), which name no commit.
func mboxFromArchive(mbox string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(mbox, "\n") {
		if strings.HasPrefix(line, "From ") && strings.HasSuffix(line, " Mon Sep 17 00:00:00 2001\n") {
			line = "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		}
		b.WriteString(line)
	}
	return b.String()
}

func TestSplitSeries(t *testing.T) {
	mail := func(id string) string {
		return "From " + id + " Mon Sep 17 00:00:00 2001\nFrom: A <a@b.c>\nSubject: [PATCH] x\n\n---\n"
	}
	id1, id2 := strings.Repeat("a", 40), strings.Repeat("b", 40)
	tests := []struct {
		name, text string
		parts      int
		log        bool
	}{
		{"plain diff", gitPatch, 1, false},
		{"one mail", mail(id1) + gitPatch, 1, false},
		{"two mails", mail(id1) + gitPatch + mail(id2) + gitPatch, 2, false},
		{"two mails, CRLF", strings.ReplaceAll(mail(id1)+gitPatch+mail(id2)+gitPatch, "\n", "\r\n"), 2, false},
		{"leading blank lines", "\n\n" + mail(id1) + gitPatch + mail(id2) + gitPatch, 2, false},
		{"a From line that is no mbox separator is text", mail(id1) + "From " + id2 + " on Tuesday\n" + gitPatch, 1, false},
		{"a mail archive's mbox", "From mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: [PATCH 1/2] x\n\n" + gitPatch +
			"From mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: [PATCH 2/2] y\n\n" + gitPatch, 2, false},
		{"diff first: no split", gitPatch + mail(id1) + gitPatch, 1, false},
		{"log", "commit " + id1 + " (HEAD -> main)\n\n    x\n\n" + gitPatch + "commit " + id2 + "\n\n    y\n\n" + gitPatch, 2, true},
		{"short id is not a commit line", "commit abc123\n" + gitPatch + "commit abc124\n", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, log := splitSeries([]byte(tt.text))
			if len(parts) != tt.parts || log != tt.log {
				t.Errorf("splitSeries = %d parts, log %v; want %d, %v", len(parts), log, tt.parts, tt.log)
			}
			if got := string(bytes.Join(parts, nil)); got != tt.text {
				t.Errorf("the parts joined differ from the text")
			}
		})
	}
}

// TestLineDiff checks lineDiff's hunks against what git diff prints for
// the same change, and that they apply.
func TestLineDiff(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       string // the hunks as git prints them
	}{
		{"one line", "a\nb\nc\n", "a\nB\nc\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"new file", "", "x\ny\n", "@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"emptied", "x\ny\n", "", "@@ -1,2 +0,0 @@\n-x\n-y\n"},
		{"no newline at the end", "a\nb", "a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"two hunks", numbered(20, nil), numbered(20, map[int]string{2: "two\n", 18: "eighteen\n"}),
			"@@ -1,5 +1,5 @@\n line 1\n-line 2\n+two\n line 3\n line 4\n line 5\n" +
				"@@ -15,6 +15,6 @@ line 14\n line 15\n line 16\n line 17\n-line 18\n+eighteen\n line 19\n line 20\n"},
		{"joined across six lines", numbered(12, nil), numbered(12, map[int]string{2: "two\n", 9: "nine\n"}),
			"@@ -1,12 +1,12 @@\n line 1\n-line 2\n+two\n line 3\n line 4\n line 5\n line 6\n line 7\n line 8\n-line 9\n+nine\n line 10\n line 11\n line 12\n"},
		{"split across seven lines", numbered(13, nil), numbered(13, map[int]string{2: "two\n", 10: "ten\n"}),
			"@@ -1,5 +1,5 @@\n line 1\n-line 2\n+two\n line 3\n line 4\n line 5\n" +
				"@@ -7,7 +7,7 @@ line 6\n line 7\n line 8\n line 9\n-line 10\n+ten\n line 11\n line 12\n line 13\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got strings.Builder
			for _, f := range lineDiff(tt.a, tt.b) {
				got.WriteString(f.String())
			}
			if got.String() != tt.want {
				t.Errorf("lineDiff:\n%s\nwant:\n%s", got.String(), tt.want)
			}
			checkApplies(t, tt.a, tt.b)
		})
	}
}

// checkApplies fails unless lineDiff(a, b) turns a into b.
func checkApplies(t testing.TB, a, b string) {
	t.Helper()
	var out bytes.Buffer
	f := &gitdiff.File{TextFragments: lineDiff(a, b)}
	if err := gitdiff.Apply(&out, strings.NewReader(a), f); err != nil {
		t.Fatalf("lineDiff(%q, %q) does not apply: %v", a, b, err)
	}
	if out.String() != b {
		t.Fatalf("lineDiff(%q, %q) applied gives %q", a, b, out.String())
	}
}

func FuzzLineDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add(numbered(20, nil), numbered(20, map[int]string{1: "x\n", 10: "y\n", 20: "z"}))
	f.Add("", "only\n")
	f.Add("x", "")
	f.Fuzz(func(t *testing.T, a, b string) {
		checkApplies(t, a, b)
	})
}

// TestReadPatchTwoTrees reads traditional diffs: of two trees (diff -ruN,
// hg diff), whose first directory is dropped as patch -p1 would, and of
// single files, whose names are kept.
func TestReadPatchTwoTrees(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"diff -ruN", "diff -ruN old/added.txt new/added.txt\n--- old/added.txt\t1970-01-01 00:00:00.000000000 +0000\n+++ new/added.txt\t2026-11-28 00:51:28.1 +0000\n@@ -0,0 +1 @@\n+x\n" +
			"diff -ruN old/sub/f.txt new/sub/f.txt\n--- old/sub/f.txt\t2026-11-28 00:51:28.1 +0000\n+++ new/sub/f.txt\t2026-11-28 00:51:28.1 +0000\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n",
			[]string{"added.txt", "sub/f.txt"}},
		{"hg diff", "diff -r 1a2b3c4d5e6f f.txt\n--- a/f.txt\tThu Jan 01 00:00:00 1970 +0000\n+++ b/f.txt\tThu Jan 01 00:00:01 1970 +0000\n@@ -1 +1 @@\n-a\n+b\n",
			[]string{"f.txt"}},
		{"a deletion beside", "--- a/x/f.txt\n+++ b/x/f.txt\n@@ -1 +1 @@\n-a\n+b\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n",
			[]string{"gone.txt", "x/f.txt"}},
		{"diff -u of one file", plainPatch, []string{"added.txt", "hello.txt"}},
		{"diff -u in a directory", "--- sub/f.txt.orig\n+++ sub/f.txt\n@@ -1 +1 @@\n-a\n+b\n", []string{"sub/f.txt"}},
		{"names that differ beyond the first directory", "--- a/f.txt\n+++ b/g.txt\n@@ -1 +1 @@\n-a\n+b\n--- a/h.txt\n+++ b/h.txt\n@@ -1 +1 @@\n-a\n+b\n",
			[]string{"b/g.txt", "b/h.txt"}},
		{"git's own", gitPatch, []string{"from.txt", "mod.txt", "new.txt", "old.txt", "to.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := readPatch(t, nil, tt.text)
			var got []string
			for _, f := range c.Files {
				got = append(got, f.Path)
				if f.OldPath != "" {
					got = append(got, f.OldPath)
				}
			}
			slices.Sort(got)
			checkEqual(t, "paths", got, tt.want)
		})
	}
}

// TestReadPatchUnnamedBase reads traditional diffs, which name no blob: the
// base is the file in the index, else in HEAD, where the patch applies to
// it exactly, and none where it applies to neither.
func TestReadPatchUnnamedBase(t *testing.T) {
	r := newTestRepo(t)
	r.Write("f.txt", "a\nb\nc\n")
	r.Write("g.txt", "one\ntwo\n")
	r.Commit("base")
	r.Write("g.txt", "one\nTWO\n")
	r.Git("add", "g.txt") // the index moves on from HEAD
	tests := []struct {
		name, patch, path, want string // want "": no new version
	}{
		{"HEAD", "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+bee\n c\n", "f.txt", "a\nbee\nc\n"},
		{"the index", "--- g.txt.orig\n+++ g.txt\n@@ -1,2 +1,2 @@\n one\n-TWO\n+2\n", "g.txt", "one\n2\n"},
		{"HEAD, where the index does not fit", "--- g.txt.orig\n+++ g.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n", "g.txt", "one\n2\n"},
		{"neither", "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-B\n+bee\n c\n", "f.txt", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := readPatch(t, r.open(), tt.patch)
			_, data, err := c.Read(context.Background(), byPath(t, c, tt.path), New, -1)
			if tt.want == "" {
				if err == nil || !strings.Contains(err.Error(), "names no blob for its base") {
					t.Errorf("Read(New) = %q, %v; want the error that says the patch names no base", data, err)
				}
				return
			}
			if err != nil || string(data) != tt.want {
				t.Errorf("Read(New) = %q, %v; want %q", data, err, tt.want)
			}
		})
	}
}

// TestReadPatchNoPrefix reads git diff --no-prefix (diff.noprefix) as the
// same diff with git's a/ and b/: every kind of file header, nested and
// awkward names among them.
func TestReadPatchNoPrefix(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{
		".github/ci.yml": "on: push\n", "sub/dir/mod.txt": numbered(10, nil), "old name.txt": numbered(12, nil),
		"gone/x.txt": "x\n", "tab\there.txt": "t\n", "run.sh": "echo\n",
	})
	base := r.Commit("base")
	r.WriteAll(map[string]string{
		".github/ci.yml": "on: [push]\n", "sub/dir/mod.txt": numbered(10, map[int]string{5: "five\n"}),
		"new/file.txt": "fresh\n", "tab\there.txt": "T\n",
	})
	r.Git("mv", "old name.txt", "new name.txt")
	r.Write("new name.txt", numbered(12, map[int]string{1: "one\n"}))
	r.remove("gone/x.txt")
	r.Git("add", "-A")
	r.Git("update-index", "--chmod=+x", "run.sh")
	head := r.Commit("change")
	repo := r.open()
	want := summarize(readPatch(t, repo, r.Git("diff", base, head)).Files)
	for _, args := range [][]string{{"diff", "--no-prefix"}, {"-c", "diff.noprefix=true", "diff"}, {"diff", "--no-prefix", "-M"}} {
		text := r.Git(append(args, base, head)...)
		if !strings.Contains(text, "diff --git sub/dir/mod.txt sub/dir/mod.txt") {
			t.Fatalf("git %v wrote no bare names:\n%s", args, text)
		}
		c := readPatch(t, repo, text)
		checkEqual(t, strings.Join(args, " "), summarize(c.Files), want)
		for _, f := range c.Files {
			if f.Status == Deleted {
				continue
			}
			if _, data, err := c.Read(context.Background(), f, New, -1); err != nil || string(data) != r.Git("show", head+":"+f.Path) {
				t.Errorf("%v: Read(%s, New) = %q, %v", args, f.Path, data, err)
			}
		}
	}
}

func TestNoPrefix(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"git's a/ and b/", gitPatch, false},
		{"no prefix", "diff --git x/y.txt x/y.txt\nindex 1..2 100644\n--- x/y.txt\n+++ x/y.txt\n@@ -1 +1 @@\n-a\n+b\n", true},
		{"quoted, no prefix", "diff --git \"t\\tb\" \"t\\tb\"\n--- \"t\\tb\"\n+++ \"t\\tb\"\n@@ -1 +1 @@\n-a\n+b\n", true},
		{"mnemonic prefixes", "diff --git i/x w/x\n--- i/x\n+++ w/x\n@@ -1 +1 @@\n-a\n+b\n", false},
		{"a directory named a, with prefixes", "diff --git a/a/x b/a/x\n--- a/a/x\n+++ b/a/x\n@@ -1 +1 @@\n-a\n+b\n", false},
		{"traditional", plainPatch, false},
	}
	for _, tt := range tests {
		if got := noPrefix([]byte(tt.text)); got != tt.want {
			t.Errorf("noPrefix(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
	// a deleted line that looks like a file line is left alone
	in := "diff --git f f\n--- f\n+++ f\n@@ -1,2 +1 @@\n--- f\n a\n"
	if got, want := string(withPrefixes([]byte(in))), "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,2 +1 @@\n--- f\n a\n"; got != want {
		t.Errorf("withPrefixes:\n%s\nwant:\n%s", got, want)
	}
}

// TestReadPatchColoured reads a diff git painted for a terminal as the
// same diff unpainted.
func TestReadPatchColoured(t *testing.T) {
	r, base, head := seriesRepo(t)
	r.Write("new.go", "package a\n\n// A is a function \n// of many comments\n// that stay.\nfunc A() { B() }\n") // a trailing space, which git marks
	r.Commit("space")
	repo := r.open()
	for _, args := range [][]string{{"diff", base, "HEAD"}, {"log", "-p", base + "..HEAD"}, {"diff", "--stat", "-p", head + "~1", "HEAD"}} {
		plain := readPatch(t, repo, r.Git(args...))
		painted := r.Git(append([]string{"-c", "color.diff.whitespace=red reverse", args[0], "--color=always"}, args[1:]...)...)
		if !strings.Contains(painted, "\x1b[") {
			t.Fatalf("git %v --color=always wrote no colours", args)
		}
		c := readPatch(t, repo, painted)
		checkEqual(t, strings.Join(args, " ")+": files", summarize(c.Files), summarize(plain.Files))
		checkEqual(t, strings.Join(args, " ")+": commits", c.Commits, plain.Commits)
		checkEqual(t, strings.Join(args, " ")+": patches", allPatches(t, c, 0), allPatches(t, plain, 0))
	}
}

// TestReadPatchFromAnEditor reads a patch an editor or a mail program
// changed on its way (a byte order mark, every line ending "\r\n") as the
// patch git wrote, and leaves a patch whose content lines alone end in
// "\r\n" (a file of CRLF lines) as it is.
func TestReadPatchFromAnEditor(t *testing.T) {
	r, base, head := seriesRepo(t)
	r.Write("dos.txt", "one\r\n-- note\r\ntwo\r\n") // its deletion starts "--- ", as a file header does
	r.Commit("dos")
	r.Write("dos.txt", "one\r\nTWO\r\n")
	dos := r.Commit("dos changed")
	repo := r.open()
	text := r.Git("diff", base, head)
	plain := readPatch(t, repo, text)
	for name, changed := range map[string]string{
		"byte order mark": "\ufeff" + text,
		"CRLF":            strings.ReplaceAll(text, "\n", "\r\n"),
		"both":            "\ufeff" + strings.ReplaceAll(text, "\n", "\r\n"),
	} {
		c := readPatch(t, repo, changed)
		checkEqual(t, name+": files", summarize(c.Files), summarize(plain.Files))
		checkEqual(t, name+": patches", allPatches(t, c, 0), allPatches(t, plain, 0))
	}
	c := readPatch(t, repo, r.Git("diff", dos+"~1", dos))
	checkEqual(t, "dos.txt's patch", lineTexts(allPatches(t, c, 0)["dos.txt"]), []string{" one\r", "--- note\r", "-two\r", "+TWO\r"})
	if _, data, err := c.Read(context.Background(), byPath(t, c, "dos.txt"), New, -1); err != nil || string(data) != "one\r\nTWO\r\n" {
		t.Errorf("Read(dos.txt, New) = %q, %v; want its CRLF lines", data, err)
	}
}
