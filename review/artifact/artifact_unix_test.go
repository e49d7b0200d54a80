//go:build unix

package artifact

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// readFIFO reads a FIFO to its end in the background; the result comes
// on the channel.
func readFIFO(t *testing.T, path string) <-chan string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		defer f.Close()
		data, err := io.ReadAll(f)
		if err != nil {
			got <- "read: " + err.Error()
			return
		}
		got <- string(data)
	}()
	return got
}

// mkfifo makes a FIFO at path.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// A FIFO is written through, as the shell's > does, and stays a FIFO:
// whether the user names it (-o) or it sits in the output directory.
func TestSaveWritesThroughFIFO(t *testing.T) {
	for _, tc := range []struct {
		name string
		save func(ctx context.Context, dir string) error
		fifo string
	}{
		{"named", func(ctx context.Context, dir string) error {
			return SaveFile(ctx, filepath.Join(dir, "pack.md"), []byte("the pack"))
		}, "pack.md"},
		{"named through a link", func(ctx context.Context, dir string) error {
			if err := os.Symlink("pipe", filepath.Join(dir, "pack.md")); err != nil {
				return err
			}
			return SaveFile(ctx, filepath.Join(dir, "pack.md"), []byte("the pack"))
		}, "pipe"},
		{"in the output directory", func(ctx context.Context, dir string) error {
			return Save(ctx, dir, []File{{"pack.md", []byte("the pack")}, {"record.json", []byte("{}")}}, nil)
		}, "pack.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			fifo := filepath.Join(dir, tc.fifo)
			mkfifo(t, fifo)
			got := readFIFO(t, fifo)
			if err := tc.save(context.Background(), dir); err != nil {
				t.Fatal(err)
			}
			select {
			case s := <-got:
				if s != "the pack" {
					t.Errorf("the reader got %q", s)
				}
			case <-time.After(10 * time.Second):
				t.Error("nothing was written into the FIFO")
			}
			if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
				t.Errorf("%s after the save: %v, %v; want the FIFO kept", tc.fifo, fi, err)
			}
			for _, name := range names(t, dir) {
				if name != "pack.md" && name != "pipe" && name != "record.json" {
					t.Errorf("%s left behind", name)
				}
			}
		})
	}
}

// An interruption ends the wait for a FIFO nobody reads, and the files
// saved with it are left as they were.
func TestSaveFIFOInterrupted(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pack.md")
	mkfifo(t, fifo)
	if err := os.WriteFile(filepath.Join(dir, "record.json"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := Save(ctx, dir, []File{{"pack.md", []byte("new")}, {"record.json", []byte("new")}}, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Save = %v, want the deadline", err)
	}
	if got := read(t, filepath.Join(dir, "record.json")); got != "old" {
		t.Errorf("record.json = %q, want it as it was", got)
	}
	// let the open still waiting aside go
	if f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
		defer f.Close()
	}
	if got := names(t, dir); len(got) != 2 {
		t.Errorf("files %v, want pack.md and record.json alone", got)
	}
}

// TestSaveModes: a new output gets 0666 less the umask, as any file a
// program writes; one that replaces a file keeps that file's permissions
// (a pack the user made private stays so).
func TestSaveModes(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	private := filepath.Join(dir, "record.json")
	if err := os.WriteFile(private, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(private, 0o600); err != nil {
		t.Fatal(err)
	}
	files := []File{{Name: "record.json", Data: []byte("{}")}, {Name: "pack.md", Data: []byte("new")}}
	if err := Save(context.Background(), dir, files, nil); err != nil {
		t.Fatal(err)
	}
	syscall.Umask(0o077)
	if err := Save(context.Background(), dir, []File{{Name: "review.md", Data: []byte("a")}}, nil); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]fs.FileMode{"record.json": 0o600, "pack.md": 0o644, "review.md": 0o600} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s: mode %o, want %o", name, got, want)
		}
	}
}
