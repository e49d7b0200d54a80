package gitctx

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

// gitPatch is what `git diff` prints for a modification, an addition, a
// deletion and a rename with an edit.
const gitPatch = `diff --git a/mod.txt b/mod.txt
index 5626abf..f719efd 100644
--- a/mod.txt
+++ b/mod.txt
@@ -1,2 +1,2 @@
 one
-two
+three
diff --git a/new.txt b/new.txt
new file mode 100755
index 0000000..e3a1d6c
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+fresh
+content
diff --git a/old.txt b/old.txt
deleted file mode 100644
index 8baef1b..0000000
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-abc
diff --git a/from.txt b/to.txt
similarity index 80%
rename from from.txt
rename to to.txt
index 1111111..2222222 100644
--- a/from.txt
+++ b/to.txt
@@ -1,3 +1,3 @@
 a
-b
+B
 c
`

// plainPatch is what `diff -u` prints: no "diff --git" line, no modes, no ids.
const plainPatch = `--- hello.txt.orig	2024-01-01 00:00:00.000000000 +0000
+++ hello.txt	2024-01-01 00:00:01.000000000 +0000
@@ -1,2 +1,2 @@
 hello
-world
+there
--- /dev/null	1970-01-01 00:00:00.000000000 +0000
+++ added.txt	2024-01-01 00:00:01.000000000 +0000
@@ -0,0 +1 @@
+fresh
`

func readPatch(t *testing.T, repo *Repo, text string) *Change {
	t.Helper()
	c, err := ReadPatch(context.Background(), repo, "test.patch", strings.NewReader(text))
	if err != nil {
		t.Fatalf("ReadPatch: %v", err)
	}
	return c
}

func TestReadPatchWithoutRepo(t *testing.T) {
	tests := []struct {
		name  string
		patch string
		files []fileSum
		lines map[string][]string
		added map[string]string // post-images rebuilt from the patch alone
	}{
		{"git", gitPatch,
			[]fileSum{
				{"mod.txt", "", Modified, ModeRegular, ModeRegular},
				{"new.txt", "", Added, 0, ModeExecutable},
				{"old.txt", "", Deleted, ModeRegular, 0},
				{"to.txt", "from.txt", Renamed, ModeRegular, ModeRegular},
			},
			map[string][]string{
				"mod.txt": {" one", "-two", "+three"}, "new.txt": {"+fresh", "+content"},
				"old.txt": {"-abc"}, "to.txt": {" a", "-b", "+B", " c"},
			},
			map[string]string{"new.txt": "fresh\ncontent\n"}},
		{"plain", plainPatch,
			[]fileSum{
				{"hello.txt", "", Modified, ModeRegular, ModeRegular},
				{"added.txt", "", Added, 0, ModeRegular},
			},
			map[string][]string{"hello.txt": {" hello", "-world", "+there"}, "added.txt": {"+fresh"}},
			map[string]string{"added.txt": "fresh\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := readPatch(t, nil, tt.patch)
			checkEqual(t, "Source", c.Source, Source{Kind: KindPatch, Spec: "test.patch"})
			checkEqual(t, "Files", summarize(c.Files), tt.files)
			for _, f := range c.Files {
				if f.OldID != "" || f.NewID != "" {
					t.Errorf("%s: ids %q, %q without a repository, want none", f.Path, f.OldID, f.NewID)
				}
			}
			got := map[string][]string{}
			for path, p := range allPatches(t, c, 0) {
				got[path] = lineTexts(p)
			}
			checkEqual(t, "patches", got, tt.lines)
			for _, f := range c.Files {
				_, data, err := c.Read(context.Background(), f, New, -1)
				want, ok := tt.added[f.Path]
				switch {
				case ok && (err != nil || string(data) != want):
					t.Errorf("Read(%s, New) = %q, %v; want %q rebuilt from the patch", f.Path, data, err, want)
				case !ok && err == nil:
					t.Errorf("Read(%s, New) = %q without the pre-image, want an error", f.Path, data)
				}
			}
			if tree, err := c.Tree(context.Background()); err != nil || len(tree) != 0 {
				t.Errorf("Tree without a repository = %v, %v; want empty", tree, err)
			}
		})
	}
}

func TestReadPatchRefusesUnsafePaths(t *testing.T) {
	safe := "diff --git a/ok.txt b/ok.txt\nnew file mode 100644\nindex 0000000..e3a1d6c\n--- /dev/null\n+++ b/ok.txt\n@@ -0,0 +1 @@\n+ok\n"
	tests := map[string]string{
		"absolute, plain":  "--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-root\n+toor\n",
		"absolute, added":  "--- /dev/null\n+++ /tmp/planted.txt\n@@ -0,0 +1 @@\n+x\n",
		"dot-dot":          "diff --git a/../outside.txt b/../outside.txt\nnew file mode 100644\n--- /dev/null\n+++ b/../outside.txt\n@@ -0,0 +1 @@\n+x\n",
		"dot-dot inside":   "diff --git a/dir/../../x b/dir/../../x\nnew file mode 100644\n--- /dev/null\n+++ b/dir/../../x\n@@ -0,0 +1 @@\n+x\n",
		".git":             "diff --git a/.git/hooks/pre-commit b/.git/hooks/pre-commit\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/pre-commit\n@@ -0,0 +1 @@\n+evil\n",
		".GIT nested":      "diff --git a/sub/.GIT/config b/sub/.GIT/config\nnew file mode 100644\n--- /dev/null\n+++ b/sub/.GIT/config\n@@ -0,0 +1 @@\n+x\n",
		"rename from .git": "diff --git a/.git/config b/stolen.txt\nsimilarity index 100%\nrename from .git/config\nrename to stolen.txt\n",
		"after safe file":  safe + "diff --git a/../x b/../x\nnew file mode 100644\n--- /dev/null\n+++ b/../x\n@@ -0,0 +1 @@\n+x\n",
		"before safe file": "diff --git a/.git/config b/.git/config\n--- a/.git/config\n+++ b/.git/config\n@@ -1 +1 @@\n-a\n+b\n" + safe,
	}
	for name, patch := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := ReadPatch(context.Background(), nil, "evil.patch", strings.NewReader(patch))
			if !errors.Is(err, ErrUnsafePath) || c != nil {
				t.Errorf("ReadPatch = %+v, %v; want nil and an error wrapping ErrUnsafePath", c, err)
			}
		})
	}
}

func TestReadPatchBad(t *testing.T) {
	tests := []struct{ name, text, says string }{
		{"a hunk with no file header", "@@ -1 +1 @@\n-a\n+b\n", "without file header"},
		{"text with no file header", "notes\n", "no file header"},
		{"a merge's combined diff", "commit " + strings.Repeat("a", 40) + "\nMerge: 1111111 2222222\n\n    Merge\n\n" +
			"diff --cc f.txt\nindex 1111111,2222222..3333333\n--- a/f.txt\n+++ b/f.txt\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n -b\n++c\n", "MERGE^1..MERGE"},
	}
	for _, tt := range tests {
		_, err := ReadPatch(context.Background(), nil, "bad.patch", strings.NewReader(tt.text))
		if !errors.Is(err, ErrBadPatch) || !strings.Contains(err.Error(), "bad.patch") || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("ReadPatch(%s) = %v, want ErrBadPatch naming the patch and saying %q", tt.name, err, tt.says)
		}
	}
}

// TestReadPatchWithRepo reads a patch of an uncommitted change after the
// work tree was reset: its post-image is in no blob, and is rebuilt by
// applying the patch to the pre-image from the repository.
func TestReadPatchWithRepo(t *testing.T) {
	r := newTestRepo(t)
	r.Write("mod.txt", numbered(10, nil))
	r.Write("del.txt", "to be deleted\n")
	base := r.Commit("first")
	r.Write("mod.txt", numbered(10, map[int]string{3: "three\n", 9: "nine\n"}))
	r.remove("del.txt")
	r.Write("new.txt", "brand new\n")
	r.Git("add", "-N", "new.txt")
	patch := r.Git("diff")
	r.Git("reset", "-q", "--hard")
	if err := os.Remove(r.Dir + "/new.txt"); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}

	c := readPatch(t, r.open(), patch)
	checkEqual(t, "Files", summarize(c.Files), []fileSum{
		{"del.txt", "", Deleted, ModeRegular, 0},
		{"mod.txt", "", Modified, ModeRegular, ModeRegular},
		{"new.txt", "", Added, 0, ModeRegular},
	})
	mod := byPath(t, c, "mod.txt")
	if mod.OldID != r.Rev(base+":mod.txt") || mod.NewID != "" {
		t.Errorf("mod.txt ids = %q, %q; want the full pre-image id and no post-image id", mod.OldID, mod.NewID)
	}
	want := map[string][2]string{
		"mod.txt": {numbered(10, nil), numbered(10, map[int]string{3: "three\n", 9: "nine\n"})},
		"del.txt": {"to be deleted\n", ""},
		"new.txt": {"", "brand new\n"},
	}
	for _, f := range c.Files {
		for i, side := range []Side{Old, New} {
			_, data, err := c.Read(context.Background(), f, side, -1)
			if w := want[f.Path][i]; (w == "") != (err != nil) || string(data) != w {
				t.Errorf("Read(%s, %s) = %q, %v; want %q", f.Path, sideName(side), data, err, w)
			}
		}
	}
	size, data, err := c.Read(context.Background(), mod, New, 10)
	if !errors.Is(err, ErrTooLarge) || size != int64(len(want["mod.txt"][1])) || data != nil {
		t.Errorf("Read(mod.txt, New, limit 10) = %d, %q, %v; want the size and ErrTooLarge", size, data, err)
	}
	checkEqual(t, "ReadEach against Read", eachResults(t, c, c.Files, New, -1), readResults(t, c, c.Files, New, -1))
	checkEqual(t, "mod.txt patch", lineTexts(allPatches(t, c, 0)["mod.txt"]), []string{
		" line 1", " line 2", "-line 3", "+three", " line 4", " line 5", " line 6",
		" line 7", " line 8", "-line 9", "+nine", " line 10",
	})
}
