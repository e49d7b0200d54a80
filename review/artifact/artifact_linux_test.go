package artifact

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A character device is written through, never replaced by a file: as
// root, -o /dev/null once turned /dev/null into a regular file. The test
// makes its own null device (1, 3) in a temporary directory; it needs
// root, and a file system that allows devices.
func TestSaveFileWritesThroughDevice(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a device needs root")
	}
	dir := t.TempDir()
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("mknod: %v", err)
	}
	if f, err := os.OpenFile(null, os.O_WRONLY, 0); err != nil {
		t.Skipf("the file system does not open devices: %v", err)
	} else {
		f.Close()
	}
	if err := SaveFile(context.Background(), null, []byte("the pack")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(null)
	if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("after the save: %v, %v; want the device kept", fi, err)
	}
	if got := names(t, dir); len(got) != 1 {
		t.Errorf("files %v, want the device alone", got)
	}
}
