package artifact

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestSave(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	ctx := context.Background()
	if err := Save(ctx, dir, []File{{"pack.md", []byte("one")}, {"record.json", []byte("{}")}}, nil); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); len(got) != 2 || got[0] != "pack.md" || got[1] != "record.json" {
		t.Fatalf("files %v", got)
	}
	// a new set replaces the old one and removes a stale file
	if err := Save(ctx, dir, []File{{"pack.xml", []byte("two")}, {"record.json", []byte("{2}")}}, []string{"pack.md", "gone.md"}); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); len(got) != 2 || got[0] != "pack.xml" {
		t.Fatalf("files %v", got)
	}
	if got := read(t, filepath.Join(dir, "record.json")); got != "{2}" {
		t.Errorf("record.json = %q", got)
	}
}

// A failed or cancelled save leaves the directory's files as they were,
// and no temporary file.
func TestSaveLeavesNothingOnFailure(t *testing.T) {
	dir := t.TempDir()
	if err := Save(context.Background(), dir, []File{{"pack.md", []byte("old")}}, nil); err != nil {
		t.Fatal(err)
	}
	before := names(t, dir)
	err := Save(context.Background(), dir, []File{{"pack.md", []byte("new")}, {"../escape", []byte("x")}}, nil)
	if err == nil {
		t.Fatal("a name with a path in it was accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Save(ctx, dir, []File{{"pack.md", []byte("new")}}, nil); err == nil {
		t.Fatal("a cancelled save succeeded")
	}
	if got := names(t, dir); len(got) != len(before) || got[0] != before[0] {
		t.Errorf("files after failures: %v, want %v", got, before)
	}
	if got := read(t, filepath.Join(dir, "pack.md")); got != "old" {
		t.Errorf("pack.md = %q, want the old content", got)
	}
}

// Concurrent saves into one directory leave a matching pair. (Without
// the lock, renames interleave in a few rounds of the 50.)
func TestSaveConcurrent(t *testing.T) {
	for range 50 {
		saveConcurrently(t)
	}
}

func saveConcurrently(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := []byte{byte('a' + i)}
			if err := Save(context.Background(), dir, []File{{"pack.md", v}, {"record.json", v}}, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if a, b := read(t, filepath.Join(dir, "pack.md")), read(t, filepath.Join(dir, "record.json")); a != b {
		t.Errorf("pack.md %q and record.json %q come from different runs", a, b)
	}
	if got := names(t, dir); len(got) != 2 {
		t.Errorf("files %v, want only the pair", got)
	}
}

// SaveFile follows a symbolic link the user named: the file it leads to
// gets the new content, and the link stays a link.
func TestSaveFileFollowsLinks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string // name → content of regular files
		links map[string]string // name → link text
		save  string            // what SaveFile is given
		want  string            // the file that must hold the new content
	}{
		{name: "a link beside its file", files: map[string]string{"real.md": "old"}, links: map[string]string{"out.md": "real.md"}, save: "out.md", want: "real.md"},
		{name: "a link into another directory", files: map[string]string{"sub/real.md": "old"}, links: map[string]string{"out.md": "sub/real.md"}, save: "out.md", want: "sub/real.md"},
		{name: "a link to a file not there yet", links: map[string]string{"out.md": "new.md"}, save: "out.md", want: "new.md"},
		{name: "a chain of links", files: map[string]string{"sub/real.md": "old"}, links: map[string]string{"out.md": "sub/mid.md", "sub/mid.md": "real.md"}, save: "out.md", want: "sub/real.md"},
		{name: "a link with .. under a linked directory", files: map[string]string{"a/real.md": "old", "a/b/keep": ""}, links: map[string]string{"d": "a/b", "out.md": "d/../real.md"}, save: "out.md", want: "a/real.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for name, to := range tc.links {
				if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
			if err := SaveFile(context.Background(), filepath.Join(dir, tc.save), []byte("new")); err != nil {
				t.Fatal(err)
			}
			if got := read(t, filepath.Join(dir, tc.want)); got != "new" {
				t.Errorf("%s = %q, want the new content", tc.want, got)
			}
			for name, to := range tc.links {
				if got, err := os.Readlink(filepath.Join(dir, name)); err != nil || got != to {
					t.Errorf("link %s: %q, %v; want it kept, leading to %s", name, got, err, to)
				}
			}
		})
	}
}

// Save replaces a symbolic link among the files it names in its
// directory rather than follow it: the directory may have come with a
// repository, and its link lead anywhere.
func TestSaveReplacesLinkInDirectory(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../victim", filepath.Join(out, "pack.md")); err != nil {
		t.Fatal(err)
	}
	if err := Save(context.Background(), out, []File{{"pack.md", []byte("new")}}, nil); err != nil {
		t.Fatal(err)
	}
	if got := read(t, victim); got != "keep" {
		t.Errorf("the link's file = %q, want it untouched", got)
	}
	if fi, err := os.Lstat(filepath.Join(out, "pack.md")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("pack.md: %v, %v; want a regular file", fi, err)
	}
}

// A directory, or a link to one, is refused with its name, and left as
// it was.
func TestSaveFileRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{sub, "is a directory"},
		{filepath.Join(dir, "link"), "leads to " + sub + ", a directory"},
	} {
		err := SaveFile(context.Background(), tc.path, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SaveFile(%s) = %v, want an error saying %q", tc.path, err, tc.want)
		}
	}
	if got := names(t, dir); len(got) != 2 {
		t.Errorf("files %v, want sub and link alone", got)
	}
}
