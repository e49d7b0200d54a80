package secrets

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Cache keeps, on disk, what the rules found in texts the gate scanned
// before, so that a run over content seen before scans it no more. It
// holds positions and rule ids only, never a secret or a hash of one (see
// Gate.Scan and Gate.ScanObject for what is kept, and when).
//
// Most scans find nothing, and that verdict takes one 32-byte slot of a
// table of fixed size (see table), written in place: a slot checks itself,
// so a torn or foreign one is a miss, and a full table overwrites its
// oldest slots. What the rules found in an object is a small file named by
// its key, written to a temporary file and renamed into place, so that
// concurrent runs never see half of one; when those files outgrow the
// cache's size, the oldest go, at most once an hour, in the background of
// a run. A Cache is safe for concurrent use, by goroutines and processes.
type Cache struct {
	dir      string
	maxBytes int64 // for the files, beside the table
	table    *table

	sweeping sync.WaitGroup
}

// DefaultCacheBytes bounds a cache's size on disk.
const DefaultCacheBytes = 200 << 20

// cacheFormat starts every entry; a new layout of entries gets a new one,
// and so does a new way of finding (3: wrapped encoded runs, see
// wrappedIn), so that no text found clean before is taken as clean now.
const cacheFormat = "gitctx-scan 3"

// OpenCache opens (creating it if needed) the cache in dir, which keeps at
// most maxBytes (0: DefaultCacheBytes; at least the table's size).
func OpenCache(dir string, maxBytes int64) (*Cache, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open the scan cache: %w", err)
	}
	t, err := openTable(filepath.Join(dir, tableName), tableSlots)
	if err != nil {
		return nil, fmt.Errorf("open the scan cache: %w", err)
	}
	c := &Cache{dir: dir, maxBytes: max(0, maxBytes-tableSlots*slotBytes), table: t}
	c.maybeSweep()
	return c, nil
}

// Close waits for a clean-up the cache started and closes its table.
// (Entries are written as they come: a run that ends without Close loses
// none.)
func (c *Cache) Close() error {
	if c == nil {
		return nil
	}
	c.sweeping.Wait()
	return c.table.close()
}

// cacheKey names an entry: a digest of the rule set's version and of what
// was scanned (see Gate.textKey and Gate.objectKey).
type cacheKey [32]byte

func (c *Cache) path(k cacheKey) string {
	h := hex.EncodeToString(k[:])
	return filepath.Join(c.dir, h[:2], h[2:])
}

// get returns the findings kept for a key of a text of n bytes. Only an
// object's key (objects) can have a file of findings.
func (c *Cache) get(k cacheKey, n int, objects bool) ([]finding, bool) {
	if c.table.clean(k, n, time.Now()) {
		return nil, true
	}
	if !objects {
		return nil, false
	}
	p := c.path(k)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	fs, err := decodeEntry(data, n)
	if err != nil {
		return nil, false
	}
	touch(p, time.Now())
	return fs, true
}

// put keeps the findings of a text of n bytes. The write is done when put
// returns, so that a run that ends at any moment leaves whole entries.
func (c *Cache) put(k cacheKey, n int, fs []finding) {
	if len(fs) == 0 {
		c.table.setClean(k, n, time.Now())
		return
	}
	_ = c.write(c.path(k), encodeEntry(n, fs)) // a cache that cannot be written is only slower
}

// write puts data at path atomically: a temporary file beside it, then a
// rename.
func (c *Cache) write(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
	}
	return werr
}

// encodeEntry writes an entry: the format, the text's length, one line per
// finding (start, end, secret start, secret end, kind, rule), and a
// checksum of all that.
func encodeEntry(n int, fs []finding) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n%d %d\n", cacheFormat, n, len(fs))
	for _, f := range fs {
		fmt.Fprintf(&b, "%d %d %d %d %c %s\n", f.start, f.end, f.secretStart, f.secretEnd, f.kind, f.rule)
	}
	fmt.Fprintf(&b, "%08x\n", crc32.ChecksumIEEE(b.Bytes()))
	return b.Bytes()
}

var errBadEntry = errors.New("bad scan cache entry")

// decodeEntry reads an entry for a text of n bytes, checking everything
// it can: its checksum, its format, and that every position lies in the
// text.
func decodeEntry(data []byte, n int) ([]finding, error) {
	body, sum, ok := cutChecksum(data)
	if !ok || crc32.ChecksumIEEE(body) != sum {
		return nil, errBadEntry
	}
	lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	if len(lines) < 2 || lines[0] != cacheFormat {
		return nil, errBadEntry
	}
	var size, count int
	if _, err := fmt.Sscanf(lines[1], "%d %d", &size, &count); err != nil || size != n || count != len(lines)-2 {
		return nil, errBadEntry
	}
	fs := make([]finding, 0, count)
	for _, l := range lines[2:] {
		f, err := parseFinding(l, n)
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	return fs, nil
}

// cutChecksum splits an entry into its body and the checksum of its last
// line.
func cutChecksum(data []byte) ([]byte, uint32, bool) {
	data = bytes.TrimSuffix(data, []byte{'\n'})
	i := bytes.LastIndexByte(data, '\n')
	if i < 0 {
		return nil, 0, false
	}
	sum, err := strconv.ParseUint(string(data[i+1:]), 16, 32)
	return data[:i+1], uint32(sum), err == nil
}

func parseFinding(line string, n int) (finding, error) {
	var f finding
	fields := strings.SplitN(line, " ", 6)
	if len(fields) != 6 || len(fields[4]) != 1 || fields[5] == "" {
		return f, errBadEntry
	}
	nums := make([]int, 4)
	for i := range nums {
		v, err := strconv.Atoi(fields[i])
		if err != nil || v < 0 || v > n {
			return f, errBadEntry
		}
		nums[i] = v
	}
	f.start, f.end, f.secretStart, f.secretEnd = nums[0], nums[1], nums[2], nums[3]
	f.kind, f.rule = fields[4][0], fields[5]
	if f.start >= f.end || f.secretStart > f.secretEnd || (f.kind != kindLiteral && f.kind != kindEmpty) {
		return f, errBadEntry
	}
	return f, nil
}

// sweepEvery is how often the cache's size is checked.
const sweepEvery = time.Hour

// maybeSweep starts a clean-up in the background when the last one is an
// hour old: temporary files left by crashed runs go, and the oldest
// entries while the cache is over its size.
func (c *Cache) maybeSweep() {
	mark := filepath.Join(c.dir, "swept")
	if info, err := os.Stat(mark); err == nil && time.Since(info.ModTime()) < sweepEvery {
		return
	}
	if err := os.WriteFile(mark, nil, 0o600); err != nil {
		return
	}
	now := time.Now()
	_ = os.Chtimes(mark, now, now)
	c.sweeping.Add(1)
	go func() {
		defer c.sweeping.Done()
		sweep(c.dir, c.maxBytes, now)
	}()
}
