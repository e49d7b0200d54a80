package gitctx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadVerified: a range's new sides come from the work tree exactly
// where its bytes are the blobs' (an edited file, one converted at
// checkout, a link are read from git), and ReadEach reads the same bytes
// either way.
func TestReadVerified(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "crlf.txt": "one\ntwo\n", "same.txt": "same\n", ".gitattributes": "crlf.txt text eol=crlf\n"})
	r.Commit("one")
	r.WriteAll(map[string]string{"a.txt": "alpha 2\n", "b.txt": "beta 2\n", "crlf.txt": "one\ntwo\nthree\n", "new.txt": "new\n"})
	r.symlink("a.txt", "link")
	r.Commit("two")
	r.Git("rm", "-q", "--cached", "crlf.txt") // checked out again with CRLF line ends
	os.Remove(filepath.Join(r.Dir, "crlf.txt"))
	r.Git("checkout", "--", ".")
	r.Git("reset", "-q")
	r.Git("checkout", "-q", "HEAD", "--", "crlf.txt")
	if data, _ := os.ReadFile(filepath.Join(r.Dir, "crlf.txt")); !strings.Contains(string(data), "\r\n") {
		t.Fatalf("crlf.txt was checked out as %q", data)
	}
	r.Write("b.txt", "beta, edited\n") // not committed

	c, err := r.open().SelectRange(context.Background(), "HEAD~1..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var fromDisk []string
	disk, _ := c.readVerified(c.Files, -1)
	for f := range disk {
		fromDisk = append(fromDisk, f.Path)
	}
	slices.Sort(fromDisk)
	if want := []string{"a.txt", "new.txt"}; !slices.Equal(fromDisk, want) {
		t.Errorf("read from the work tree: %q, want %q", fromDisk, want)
	}
	read := func(c *Change) map[string]string {
		got := map[string]string{}
		err := c.ReadEach(context.Background(), c.Files, New, -1, func(f *File, size int64, data []byte, err error) error {
			if err != nil {
				return err
			}
			if size != int64(len(data)) {
				t.Errorf("%s: size %d, %d bytes", f.Path, size, len(data))
			}
			got[f.Path] = string(data)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	withDisk := read(c)
	c.diskFirst = false
	if fromGit := read(c); fmt.Sprint(withDisk) != fmt.Sprint(fromGit) {
		t.Errorf("with the work tree: %q\nfrom git alone: %q", withDisk, fromGit)
	}
}

// TestReadVerifiedGivesUp: after maxDiskMisses files unlike their blobs
// and none alike (a work tree on another commit), no file is read from
// the work tree; one alike first keeps it reading.
func TestReadVerifiedGivesUp(t *testing.T) {
	r := newTestRepo(t)
	for i := range 10 {
		r.Write(fmt.Sprintf("f%d.txt", i), "one\n")
	}
	r.Commit("one")
	for i := range 10 {
		r.Write(fmt.Sprintf("f%d.txt", i), "two\n")
	}
	r.Commit("two")
	c, err := r.open().SelectRange(context.Background(), "HEAD~1..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range maxDiskMisses {
		r.Write(fmt.Sprintf("f%d.txt", i+1), "edited\n")
	}
	if disk, _ := c.readVerified(c.Files, -1); len(disk) != 10-maxDiskMisses {
		got := len(disk)
		t.Errorf("f0 alike, then %d unlike: %d files read from the work tree, want %d", maxDiskMisses, got, 10-maxDiskMisses)
	}
	r.Write("f0.txt", "edited\n")
	if disk, later := c.readVerified(c.Files, -1); len(disk)+len(later) != 0 {
		got := len(disk) + len(later)
		t.Errorf("the first %d unlike: %d files read from the work tree, want none", maxDiskMisses, got)
	}
}

// TestReadVerifiedLater: past maxDiskBytes, files are read from the work
// tree when their turn comes, proven again then: one edited in between
// comes from git.
func TestReadVerifiedLater(t *testing.T) {
	r := newTestRepo(t)
	big := func(c byte) string { return strings.Repeat(string(c)+"23456789\n", maxDiskBytes/20+1) }
	for _, name := range []string{"a.txt", "b.txt", "c.txt", "d.txt"} {
		r.Write(name, "one\n")
	}
	r.Commit("one")
	contents := map[string]string{"a.txt": big('a'), "b.txt": big('b'), "c.txt": big('c'), "d.txt": big('d')}
	r.WriteAll(contents)
	r.Commit("two")
	ctx := context.Background()
	c, err := r.open().SelectRange(ctx, "HEAD~1..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	disk, later := c.readVerified(c.Files, -1)
	var held, left []string
	for f := range disk {
		held = append(held, f.Path)
	}
	for f := range later {
		left = append(left, f.Path)
	}
	slices.Sort(held)
	slices.Sort(left)
	if !slices.Equal(held, []string{"a.txt", "b.txt"}) || !slices.Equal(left, []string{"c.txt", "d.txt"}) {
		t.Fatalf("held %q, left for later %q", held, left)
	}
	r.Write("d.txt", "edited since\n")
	err = c.readEach(ctx, c.Files, New, -1, disk, later, func(f *File, size int64, data []byte, err error) error {
		if err != nil {
			return err
		}
		if string(data) != contents[f.Path] || size != int64(len(data)) {
			t.Errorf("%s: %d bytes (size %d), not the commit's", f.Path, len(data), size)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
