package gitctx

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// TestDecodeIndex holds decodeIndex to go-git's decoder on indexes git
// wrote: versions 2, 3 and 4, extended flags (intent to add, skip
// worktree), unmerged entries, a name longer than the flags can hold, a
// valid and an invalid cache-tree, and optional extensions.
func TestDecodeIndex(t *testing.T) {
	long := strings.Repeat("d/", 2100) + "long.txt" // over 0xfff bytes
	blob := strings.Repeat("1", 40)
	for _, tc := range []struct {
		name  string
		setup func(r *testRepo)
	}{
		{"committed", func(r *testRepo) {}},
		{"intent to add, skip worktree", func(r *testRepo) {
			r.Write("new.txt", "new\n")
			r.Git("add", "-N", "new.txt")
			r.Git("update-index", "--skip-worktree", "a.txt")
		}},
		{"staged, the root invalid", func(r *testRepo) {
			r.Write("a.txt", "changed\n")
			r.Git("add", "a.txt")
		}},
		{"unmerged", func(r *testRepo) {
			r.GitInput("100644 "+blob+" 1\tc.txt\n100644 "+blob+" 2\tc.txt\n100644 "+blob+" 3\tc.txt\n", "update-index", "--index-info")
		}},
		{"a long name", func(r *testRepo) {
			r.Git("update-index", "--add", "--cacheinfo", "100644,"+blob+","+long)
		}},
		{"untracked cache", func(r *testRepo) {
			r.Git("config", "core.untrackedCache", "true")
			r.Git("update-index", "--untracked-cache")
			r.Git("status", "--porcelain")
		}},
	} {
		for _, version := range []string{"2", "3", "4"} {
			t.Run(tc.name+", version "+version, func(t *testing.T) {
				r := newTestRepo(t)
				r.WriteAll(map[string]string{"a.txt": "a\n", "b/c.txt": "c\n", "b/d/e.txt": "e\n", "ü.txt": "u\n"})
				r.Commit("one")
				tc.setup(r)
				r.Git("update-index", "--index-version", version)
				data, err := os.ReadFile(filepath.Join(r.Dir, ".git", "index"))
				if err != nil {
					t.Fatal(err)
				}
				got, err := decodeIndex(data)
				if err != nil {
					t.Fatalf("decodeIndex: %v", err)
				}
				var want index.Index
				if err := index.NewDecoder(bytes.NewReader(data)).Decode(&want); err != nil {
					t.Fatalf("go-git: %v", err)
				}
				checkSameIndex(t, got, &want)
			})
		}
	}
}

func checkSameIndex(t *testing.T, got, want *index.Index) {
	t.Helper()
	if got.Version != want.Version || len(got.Entries) != len(want.Entries) {
		t.Fatalf("version %d, %d entries; go-git: %d, %d", got.Version, len(got.Entries), want.Version, len(want.Entries))
	}
	for i := range want.Entries {
		if !reflect.DeepEqual(*got.Entries[i], *want.Entries[i]) {
			t.Errorf("entry %d:\n%+v\ngo-git:\n%+v", i, *got.Entries[i], *want.Entries[i])
		}
	}
	var wantRoot []index.TreeEntry
	if want.Cache != nil && len(want.Cache.Entries) > 0 && want.Cache.Entries[0].Path == "" {
		wantRoot = want.Cache.Entries[:1]
	}
	var gotRoot []index.TreeEntry
	if got.Cache != nil {
		gotRoot = got.Cache.Entries
	}
	if !reflect.DeepEqual(gotRoot, wantRoot) {
		t.Errorf("cache-tree root %+v; go-git %+v", gotRoot, wantRoot)
	}
}

// TestDecodeIndexRefuses: a bad checksum, an extension readers must know,
// a truncated file and an unknown version are refused, and readIndex then
// answers as go-git does.
func TestDecodeIndexRefuses(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	r.Commit("one")
	path := filepath.Join(r.Dir, ".git", "index")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body := data[:len(data)-sha1.Size]
	resum := func(body []byte) []byte {
		sum := sha1.Sum(body)
		return append(append([]byte{}, body...), sum[:]...)
	}
	ext := binary.BigEndian.AppendUint32([]byte("sdir"), 0)
	version5 := append([]byte{}, body...)
	binary.BigEndian.PutUint32(version5[4:], 5)
	for name, bad := range map[string][]byte{
		"checksum":             append(append([]byte{}, body...), make([]byte, sha1.Size)...),
		"a required extension": resum(append(append([]byte{}, body...), ext...)),
		"truncated":            resum(body[:len(body)-30]),
		"version 5":            resum(version5),
	} {
		if _, err := decodeIndex(bad); err == nil {
			t.Errorf("%s: decoded", name)
		}
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := readIndex(path)
		var idx index.Index
		goErr := index.NewDecoder(bytes.NewReader(bad)).Decode(&idx)
		if (err == nil) != (goErr == nil) {
			t.Errorf("%s: readIndex says %v, go-git %v", name, err, goErr)
		}
	}
}

// BenchmarkDecodeIndex decodes an index of 5,000 entries (terraform's
// has 5,457), and, beside it, go-git's decoder.
func BenchmarkDecodeIndex(b *testing.B) {
	r := newTestRepo(b)
	var lines strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&lines, "100644 %040x 0\tinternal/pkg%03d/file%04d.go\n", i+1, i/50, i)
	}
	if _, err := r.GitInput(lines.String(), "update-index", "--index-info"); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(r.Dir, ".git", "index"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decodeIndex", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeIndex(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("go-git", func(b *testing.B) {
		for b.Loop() {
			var idx index.Index
			if err := index.NewDecoder(bytes.NewReader(data)).Decode(&idx); err != nil {
				b.Fatal(err)
			}
		}
	})
}
