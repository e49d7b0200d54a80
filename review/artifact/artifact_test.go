package artifact

import (
	"context"
	"os"
	"path/filepath"
	"sort"
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
