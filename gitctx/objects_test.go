package gitctx

import (
	"bytes"
	"errors"
	"testing"
)

// TestBlobSizes reads blobs below and above largeBlob, loose and packed:
// a large one comes through git whole, and one over the limit is not read
// but has its size named.
func TestBlobSizes(t *testing.T) {
	r := newTestRepo(t)
	small := "small\n"
	large := string(bytes.Repeat([]byte("0123456789abcdef\n"), largeBlob/17+100))
	r.Write("small.txt", small)
	r.Write("large.txt", large)
	r.Commit("blobs")
	for _, packed := range []bool{false, true} {
		if packed {
			r.Git("gc", "-q")
		}
		repo := r.open()
		store, err := repo.objectStore()
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ path, want string }{{"small.txt", small}, {"large.txt", large}} {
			id := r.Rev("HEAD:" + tc.path)
			size, data, err := store.blob(t.Context(), id, -1)
			if err != nil || size != int64(len(tc.want)) || string(data) != tc.want {
				t.Errorf("packed %v, %s: size %d, %d bytes, %v; want %d bytes", packed, tc.path, size, len(data), err, len(tc.want))
			}
			size, data, err = store.blob(t.Context(), id, 3)
			if !errors.Is(err, ErrTooLarge) || size != int64(len(tc.want)) || data != nil {
				t.Errorf("packed %v, %s, limit 3: size %d, %d bytes, %v; want the size and ErrTooLarge", packed, tc.path, size, len(data), err)
			}
		}
		repo.Close()
	}
}
