package pack

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
)

// CountCache keeps, on disk, the token counts of the texts a pack was
// counted in before, so that a pack of text seen before is not counted
// again, and its tokenizer's vocabulary (about 14 ms of CPU to build) is
// not even built. Only the segments of a pack are counted through it: text
// the secrets gate has made (see segment), so what it keys is never text
// the gate has not seen. It holds counts, lengths and digests, no text.
//
// The counts take slots of 32 bytes in a file of fixed size, read and
// written in place: key[:20] | text length | count | CRC-32 of the rest. A
// key may take any of countWays slots side by side; a slot whose CRC does
// not check out (a write cut short, a zeroed page) is empty. A CountCache is
// safe for concurrent use, by goroutines and processes.
type CountCache struct {
	f       *os.File
	slots   int64
	fresh   bool   // the table was made by this open
	version string // the tokenizer module's version, part of every key
}

// The table of counts.
const (
	countTableName  = "counts-1"
	countTableSlots = 1 << 18 // 8 MiB: a quarter of a million segments
	countSlotBytes  = 32
)

// OpenCountCache opens (creating it if needed) the table of counts in dir.
func OpenCountCache(dir string) (*CountCache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open the token count cache: %w", err)
	}
	path := filepath.Join(dir, countTableName)
	fresh := false
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		fresh = true
		f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	}
	if err != nil {
		return nil, fmt.Errorf("open the token count cache: %w", err)
	}
	info, err := f.Stat()
	if err == nil && info.Size() < countTableSlots*countSlotBytes {
		err = f.Truncate(countTableSlots * countSlotBytes) // sparse where the file system allows
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open the token count cache: %w", err)
	}
	return &CountCache{f: f, slots: countTableSlots, fresh: fresh, version: tokenizerVersion()}, nil
}

// Close closes the table. Counts are written as they come.
func (c *CountCache) Close() error {
	if c == nil {
		return nil
	}
	return c.f.Close()
}

// Fresh reports whether the table was made by this open: no count is in
// it yet, and every count of the run will be made.
func (c *CountCache) Fresh() bool { return c != nil && c.fresh }

// tokenizerVersion names the build of the tokenizer: counts made by
// another are not taken.
func tokenizerVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "github.com/tiktoken-go/tokenizer" {
				return m.Version
			}
		}
	}
	return "unknown"
}

// countVariant names how Counter.Count counts (collapsing white space,
// piece by piece): change it whenever that changes.
const countVariant = "gitctx-count-1"

type countKey [32]byte

func (c *CountCache) key(counter, text string) countKey {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", countVariant, c.version, counter)
	h.Write([]byte(text))
	var k countKey
	copy(k[:], h.Sum(nil))
	return k
}

// countWays is how many slots a key may take, side by side: a new count
// takes an empty one, else one the key picks. (With one slot a key, two of
// the hundreds of segments of one pack often took the same slot, and each
// run counted both again.)
const countWays = 4

// bucket is where the slots a key may take start.
func (c *CountCache) bucket(k countKey) int64 {
	return int64(binary.LittleEndian.Uint64(k[24:])%uint64(c.slots/countWays)) * countWays * countSlotBytes
}

// countSlot is one slot's fields, and whether it checks out.
func countSlot(b []byte) (key []byte, n, count uint32, ok bool) {
	ok = crc32.ChecksumIEEE(b[:28]) == binary.LittleEndian.Uint32(b[28:])
	return b[:20], binary.LittleEndian.Uint32(b[20:]), binary.LittleEndian.Uint32(b[24:]), ok
}

// get returns the count of a text of n bytes kept under k.
func (c *CountCache) get(k countKey, n int) (int, bool) {
	var b [countWays * countSlotBytes]byte
	if _, err := c.f.ReadAt(b[:], c.bucket(k)); err != nil {
		return 0, false
	}
	for i := range countWays {
		key, size, count, ok := countSlot(b[i*countSlotBytes : (i+1)*countSlotBytes])
		if ok && string(key) == string(k[:20]) && size == uint32(n) {
			return int(count), true
		}
	}
	return 0, false
}

// put keeps the count of a text of n bytes under k: in the key's own slot,
// else an empty one, else the one the key picks.
func (c *CountCache) put(k countKey, n, count int) {
	if n < 0 || int64(n) > 1<<32-1 || count < 0 || int64(count) > 1<<32-1 {
		return
	}
	var b [countWays * countSlotBytes]byte
	if _, err := c.f.ReadAt(b[:], c.bucket(k)); err != nil {
		return
	}
	pick, empty := int(k[0]%countWays), -1
	for i := range countWays {
		key, _, _, ok := countSlot(b[i*countSlotBytes : (i+1)*countSlotBytes])
		if ok && string(key) == string(k[:20]) {
			pick, empty = i, -1
			break
		}
		if !ok && empty < 0 {
			empty = i
		}
	}
	if empty >= 0 {
		pick = empty
	}
	var s [countSlotBytes]byte
	copy(s[:20], k[:20])
	binary.LittleEndian.PutUint32(s[20:], uint32(n))
	binary.LittleEndian.PutUint32(s[24:], uint32(count))
	binary.LittleEndian.PutUint32(s[28:], crc32.ChecksumIEEE(s[:28]))
	_, _ = c.f.WriteAt(s[:], c.bucket(k)+int64(pick*countSlotBytes)) // a cache that cannot be written is only slower
}

// Count counts text with counter, from the cache when it holds the count.
// A nil cache counts.
func (c *CountCache) Count(counter Counter, text string) int {
	if c == nil {
		return counter.Count(text)
	}
	k := c.key(counter.Name(), text)
	if n, ok := c.get(k, len(text)); ok {
		return n
	}
	n := counter.Count(text)
	c.put(k, len(text), n)
	return n
}
