package gitctx

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

const (
	idA = "1111111111111111111111111111111111111111"
	idB = "2222222222222222222222222222222222222222"
	id0 = "0000000000000000000000000000000000000000"
)

func TestParseRaw(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []File
	}{
		{"empty", "", nil},
		{"modified", ":100644 100644 " + idA + " " + idB + " M\x00a.txt\x00",
			[]File{{Path: "a.txt", Status: Modified, OldMode: ModeRegular, NewMode: ModeRegular, OldID: idA, NewID: idB}}},
		{"added", ":000000 100755 " + id0 + " " + idB + " A\x00bin/run\x00",
			[]File{{Path: "bin/run", Status: Added, NewMode: ModeExecutable, NewID: idB}}},
		{"deleted", ":120000 000000 " + idA + " " + id0 + " D\x00link\x00",
			[]File{{Path: "link", Status: Deleted, OldMode: ModeSymlink, OldID: idA}}},
		{"renamed", ":100644 100644 " + idA + " " + idA + " R100\x00old name\x00new name\x00",
			[]File{{Path: "new name", OldPath: "old name", Status: Renamed, OldMode: ModeRegular, NewMode: ModeRegular, OldID: idA, NewID: idA, Score: 100}}},
		{"copied", ":100644 100755 " + idA + " " + idB + " C75\x00src.go\x00dst.go\x00",
			[]File{{Path: "dst.go", OldPath: "src.go", Status: Copied, OldMode: ModeRegular, NewMode: ModeExecutable, OldID: idA, NewID: idB, Score: 75}}},
		{"mode changed", ":100644 100755 " + idA + " " + idA + " M\x00run.sh\x00",
			[]File{{Path: "run.sh", Status: ModeChanged, OldMode: ModeRegular, NewMode: ModeExecutable, OldID: idA, NewID: idA}}},
		{"mode and content changed", ":100644 100755 " + idA + " " + idB + " M\x00run.sh\x00",
			[]File{{Path: "run.sh", Status: Modified, OldMode: ModeRegular, NewMode: ModeExecutable, OldID: idA, NewID: idB}}},
		{"work-tree mode change is not known to be only that", ":100644 100755 " + id0 + " " + id0 + " M\x00run.sh\x00",
			[]File{{Path: "run.sh", Status: Modified, OldMode: ModeRegular, NewMode: ModeExecutable, OldID: id0, NewID: id0}}},
		{"type changed", ":100644 120000 " + idA + " " + idB + " T\x00kind\x00",
			[]File{{Path: "kind", Status: TypeChanged, OldMode: ModeRegular, NewMode: ModeSymlink, OldID: idA, NewID: idB}}},
		{"submodule", ":160000 160000 " + idA + " " + idB + " M\x00vendor/lib\x00",
			[]File{{Path: "vendor/lib", Status: Modified, OldMode: ModeSubmodule, NewMode: ModeSubmodule, OldID: idA, NewID: idB}}},
		{"unmerged is skipped", ":000000 000000 " + id0 + " " + id0 + " U\x00conflict.txt\x00:100644 100644 " + idA + " " + idB + " M\x00after.txt\x00",
			[]File{{Path: "after.txt", Status: Modified, OldMode: ModeRegular, NewMode: ModeRegular, OldID: idA, NewID: idB}}},
		{"awkward names", ":100644 100644 " + idA + " " + idB + " R090\x00tab\there\x00new\nline \"q\"\x00:000000 100644 " + id0 + " " + idB + " A\x00-- ü\x00",
			[]File{
				{Path: "new\nline \"q\"", OldPath: "tab\there", Status: Renamed, OldMode: ModeRegular, NewMode: ModeRegular, OldID: idA, NewID: idB, Score: 90},
				{Path: "-- ü", Status: Added, NewMode: ModeRegular, NewID: idB},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := parseRaw([]byte(tt.in))
			if err != nil {
				t.Fatalf("parseRaw: %v", err)
			}
			var got []File
			for _, f := range files {
				got = append(got, *f)
			}
			checkEqual(t, "parseRaw", got, tt.want)
		})
	}
}

// TestParseRawListingUnmerged: the unmerged paths of a listing are
// returned by name, once each, apart from the files.
func TestParseRawListingUnmerged(t *testing.T) {
	in := ":100644 000000 " + idA + " " + id0 + " U\x00conflict.txt\x00" +
		":100644 100644 " + idA + " " + idB + " M\x00after.txt\x00" +
		":000000 000000 " + id0 + " " + id0 + " U\x00both added\tü\x00"
	files, unmerged, err := parseRawListing([]byte(in))
	if err != nil {
		t.Fatalf("parseRawListing: %v", err)
	}
	checkEqual(t, "files", summarize(files), []fileSum{{"after.txt", "", Modified, ModeRegular, ModeRegular}})
	checkEqual(t, "unmerged", unmerged, []string{"conflict.txt", "both added\tü"})
}

func TestParseRawErrors(t *testing.T) {
	for _, in := range []string{
		"garbage",
		":100644 100644 " + idA + " M\x00a.txt\x00",               // four fields
		":100644 1006x4 " + idA + " " + idB + " M\x00a.txt\x00",   // bad mode
		":100644 100644 " + idA + " " + idB + " M",                // no path
		":100644 100644 " + idA + " " + idB + " R100\x00only-one", // a rename with one path
	} {
		if files, err := parseRaw([]byte(in)); err == nil {
			t.Errorf("parseRaw(%q) = %+v, want an error", in, files)
		}
	}
}

// FuzzParseRaw checks parseRaw's invariants on any input: no panic, and
// every file it returns has a path.
func FuzzParseRaw(f *testing.F) {
	f.Add([]byte(":100644 100644 " + idA + " " + idB + " M\x00a.txt\x00"))
	f.Add([]byte(":100644 100644 " + idA + " " + idA + " R100\x00old\x00new\x00"))
	f.Add([]byte(":000000 100644 " + id0 + " " + idB + " C75\x00a\x00b\x00:160000 000000 " + idA + " " + id0 + " D\x00sub\x00"))
	f.Add([]byte(":000000 000000 " + id0 + " " + id0 + " U\x00u\x00"))
	f.Fuzz(func(t *testing.T, in []byte) {
		files, err := parseRaw(in)
		if err != nil {
			return
		}
		for _, file := range files {
			if file.Path == "" {
				t.Errorf("parseRaw(%q) returned a file with no path: %+v", in, *file)
			}
			if file.Status == Renamed || file.Status == Copied {
				if file.OldPath == "" {
					t.Errorf("parseRaw(%q): a %s file with no old path: %+v", in, file.Status, *file)
				}
			}
		}
	})
}

// FuzzSplitPatches feeds any bytes to splitPatches as git's output and
// checks that it does not panic and calls fn only for the files it was
// given, each at most once.
func FuzzSplitPatches(f *testing.F) {
	f.Add([]byte("diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n"))
	f.Add([]byte("diff --git \"a/q\\\"b\" \"b/q\\\"b\"\n--- \"a/q\\\"b\"\n+++ \"b/q\\\"b\"\n@@ -1 +1 @@\n-x\n+y\ndiff --git a/a.txt b/a.txt\n"))
	f.Add([]byte("diff --git a/old b/new\nsimilarity index 100%\nrename from old\nrename to new\n"))
	f.Add([]byte("diff --git a/bin b/bin\nBinary files a/bin and b/bin differ\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		files := []*File{
			{Path: "a.txt", Status: Modified, OldMode: ModeRegular, NewMode: ModeRegular},
			{Path: `q"b`, Status: Modified, OldMode: ModeRegular, NewMode: ModeRegular},
			{Path: "new", OldPath: "old", Status: Renamed, OldMode: ModeRegular, NewMode: ModeRegular},
			{Path: "bin", Status: Modified, OldMode: ModeRegular, NewMode: ModeRegular},
		}
		known := map[*File]bool{}
		for _, file := range files {
			known[file] = true
		}
		for _, maxBytes := range []int64{0, 64} {
			seen := map[*File]bool{}
			_ = splitPatches(context.Background(), bytes.NewReader(out), files, func(*File) bool { return true }, maxBytes,
				func(file *File, p *Patch) error {
					if !known[file] {
						t.Fatalf("fn called with a file not in the list: %+v", file)
					}
					if seen[file] {
						t.Errorf("fn called twice for %s", file.Path)
					}
					seen[file] = true
					if p == nil {
						t.Errorf("fn called with a nil patch for %s", file.Path)
					}
					return nil
				})
		}
	})
}

// TestSplitPatchesSkipsUnknown checks that a chunk naming no listed file
// is read past, and the files after it still get their patches.
func TestSplitPatchesSkipsUnknown(t *testing.T) {
	out := strings.Join([]string{
		"diff --git a/stranger b/stranger", "--- a/stranger", "+++ b/stranger", "@@ -1 +1 @@", "-s", "+t",
		"diff --git a/a.txt b/a.txt", "--- a/a.txt", "+++ b/a.txt", "@@ -1 +1 @@", "-a", "+b", "",
	}, "\n")
	files := []*File{{Path: "a.txt", Status: Modified, OldMode: ModeRegular, NewMode: ModeRegular}}
	var got []string
	err := splitPatches(context.Background(), strings.NewReader(out), files, func(*File) bool { return true }, 0,
		func(f *File, p *Patch) error {
			got = append(got, f.Path+":"+strings.Join(lineTexts(p), ","))
			return nil
		})
	if err != nil {
		t.Fatalf("splitPatches: %v", err)
	}
	checkEqual(t, "patches", got, []string{"a.txt:-a,+b"})
}
