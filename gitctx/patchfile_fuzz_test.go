package gitctx

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// FuzzReadPatch feeds any text to ReadPatch, as `gitctx pack --patch`
// does with a file or stdin, and checks its invariants:
//
//   - it never panics, and an error wraps ErrBadPatch or ErrUnsafePath
//     and names the patch;
//   - every file it returns has a safe path (checkPath), a rename or copy
//     has a safe old path, an added file has no old side and a deleted one
//     no new side, and no blob id survives without a repository;
//   - each file's patch and, where the patch rebuilds one, its new
//     version can be read without a panic, and a rebuilt version has
//     no more than the patch adds.
func FuzzReadPatch(f *testing.F) {
	f.Add(gitPatch)
	f.Add(plainPatch)
	f.Add("diff --git a/../x b/../x\nnew file mode 100644\n--- /dev/null\n+++ b/../x\n@@ -0,0 +1 @@\n+x\n")
	f.Add("diff --git \"a/q\\\"b\\tc\" \"b/q\\\"b\\tc\"\nnew file mode 100644\n--- /dev/null\n+++ \"b/q\\\"b\\tc\"\n@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file\n")
	f.Add("diff --git a/bin b/bin\nnew file mode 100644\nindex 0000000..e3a1d6c\nGIT binary patch\nliteral 5\nMcmZ?wbYNfr0021J8~^|S\n\nliteral 0\nHcmV?d00001\n")
	f.Add("diff --git a/link b/link\nold mode 100644\nnew mode 120000\n")
	f.Add("diff --git a/sub b/sub\nindex 1111111..2222222 160000\n--- a/sub\n+++ b/sub\n@@ -1 +1 @@\n-Subproject commit 1111111111111111111111111111111111111111\n+Subproject commit 2222222222222222222222222222222222222222\n")
	f.Add("--- a/C:/x\n+++ b/C:/x\n@@ -1 +1 @@\n-a\n+b\n")
	f.Add("garbage\n@@ -1 +1 @@\n-a\n+b\n")
	// a series: two mails that change one file in turn, then delete it
	mail := "From " + strings.Repeat("a", 40) + " Mon Sep 17 00:00:00 2001\nFrom: A <a@b.c>\nSubject: [PATCH 1/2] x\n\nwhy\n---\n"
	f.Add(mail + "diff --git a/n b/n\nnew file mode 100644\n--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+a\n" +
		strings.Replace(mail, "aaaa", "bbbb", 1) + "diff --git a/n b/m\nrename from n\nrename to m\n--- a/n\n+++ b/m\n@@ -1 +1,2 @@\n a\n+b\n" +
		strings.Replace(mail, "aaaa", "cccc", 1) + "diff --git a/m b/m\ndeleted file mode 100644\n--- a/m\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n")
	f.Add("diff --git x/y.txt x/y.txt\nindex 1111111..2222222 100644\n--- x/y.txt\n+++ x/y.txt\n@@ -1 +1 @@\n-a\n+b\n" +
		"diff --git \"t\\tb\" \"t\\tb\"\nnew file mode 100644\n--- /dev/null\n+++ \"t\\tb\"\n@@ -0,0 +1 @@\n+c\n")
	f.Add("commit " + strings.Repeat("d", 40) + "\nAuthor: A <a@b.c>\nDate:   Mon Jan 1 00:00:00 2024 +0000\n\n    y\n\n" + gitPatch +
		"commit " + strings.Repeat("e", 40) + "\n\n    z\n\n" + gitPatch)
	f.Fuzz(func(t *testing.T, text string) {
		ctx := context.Background()
		c, err := ReadPatch(ctx, nil, "fuzz.patch", strings.NewReader(text))
		if err != nil {
			if !errors.Is(err, ErrBadPatch) && !errors.Is(err, ErrUnsafePath) {
				t.Fatalf("error %v wraps neither ErrBadPatch nor ErrUnsafePath", err)
			}
			if !strings.Contains(err.Error(), "fuzz.patch") {
				t.Fatalf("error %v does not name the patch", err)
			}
			return
		}
		for _, file := range c.Files {
			if err := checkPath(file.Path); err != nil {
				t.Fatalf("unsafe path accepted: %v", err)
			}
			if file.OldPath != "" {
				if err := checkPath(file.OldPath); err != nil {
					t.Fatalf("unsafe old path accepted: %v", err)
				}
			}
			switch {
			case (file.Status == Renamed || file.Status == Copied) && file.OldPath == "":
				t.Fatalf("a %s file with no old path: %+v", file.Status, *file)
			case file.Status == Added && file.OldMode != 0:
				t.Fatalf("an added file with an old mode: %+v", *file)
			case file.Status == Deleted && file.NewMode != 0:
				t.Fatalf("a deleted file with a new mode: %+v", *file)
			case file.Status != Deleted && file.NewMode == 0:
				t.Fatalf("a %s file with no new mode: %+v", file.Status, *file)
			case file.OldID != "" || file.NewID != "":
				t.Fatalf("blob ids without a repository: %+v", *file)
			}
		}
		addedBytes := map[*File]int{}
		err = c.Patches(ctx, func(*File) bool { return true }, 0, func(file *File, p *Patch) error {
			if p == nil {
				t.Fatalf("nil patch for %s", file.Path)
			}
			for _, h := range p.Hunks {
				for _, l := range h.Lines {
					if l.Op == '+' {
						addedBytes[file] += len(l.Text) + 1
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("Patches: %v", err)
		}
		for _, file := range c.Files {
			if file.Status != Added || file.NewMode == ModeSubmodule {
				continue
			}
			_, data, err := c.Read(ctx, file, New, 1<<20)
			if err == nil && !file.applyTo.IsBinary && len(data) > addedBytes[file] {
				t.Fatalf("%s rebuilt as %d bytes, its patch adds %d", file.Path, len(data), addedBytes[file])
			}
		}
	})
}
