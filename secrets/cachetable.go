package secrets

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"time"
)

// The table of clean verdicts.
const (
	tableName  = "clean-1"
	tableSlots = 1 << 20 // 32 MiB: a million verdicts, some hundreds of runs' worth
	slotBytes  = 32
)

// table keeps the verdicts "the rules find nothing in this text" in slots
// of a file of fixed size, read and written in place. A slot is
// key[:20] | text length | hour written | CRC-32 of the rest; each key has
// two slots it may take, side by side, and a new verdict takes the one
// that is empty, else the older. A slot whose CRC does not check out (a
// write cut short, a zeroed page) is empty.
type table struct {
	f     *os.File
	slots int64
}

func openTable(path string, slots int64) (*table, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && info.Size() < slots*slotBytes {
		err = f.Truncate(slots * slotBytes) // sparse where the file system allows
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &table{f: f, slots: slots}, nil
}

func (t *table) close() error { return t.f.Close() }

// offset is where the two slots a key may take start.
func (t *table) offset(k cacheKey) int64 {
	return int64(binary.LittleEndian.Uint64(k[24:])%uint64(t.slots/2)) * 2 * slotBytes
}

// pair reads the two slots a key may take.
func (t *table) pair(k cacheKey) ([2 * slotBytes]byte, bool) {
	var buf [2 * slotBytes]byte
	_, err := t.f.ReadAt(buf[:], t.offset(k))
	return buf, err == nil
}

// slot is one slot's fields, and whether it checks out.
func slot(b []byte) (key []byte, n uint32, hour uint32, ok bool) {
	ok = crc32.ChecksumIEEE(b[:28]) == binary.LittleEndian.Uint32(b[28:])
	return b[:20], binary.LittleEndian.Uint32(b[20:]), binary.LittleEndian.Uint32(b[24:]), ok
}

// clean reports whether the table holds the clean verdict of a key, for a
// text of n bytes. A verdict found a day after it was written is written
// again, so that the verdicts a full table loses are the least used.
func (t *table) clean(k cacheKey, n int, now time.Time) bool {
	buf, ok := t.pair(k)
	if !ok {
		return false
	}
	for i := range 2 {
		key, size, hour, ok := slot(buf[i*slotBytes : (i+1)*slotBytes])
		if ok && string(key) == string(k[:20]) && int(size) == n {
			if int64(hour) < now.Unix()/3600-24 {
				t.write(k, n, now, i)
			}
			return true
		}
	}
	return false
}

// setClean keeps the clean verdict of a key.
func (t *table) setClean(k cacheKey, n int, now time.Time) {
	buf, ok := t.pair(k)
	if !ok || n < 0 || int64(n) > 1<<32-1 {
		return
	}
	var (
		valid [2]bool
		hours [2]uint32
	)
	for i := range 2 {
		key, size, h, ok := slot(buf[i*slotBytes : (i+1)*slotBytes])
		if ok && string(key) == string(k[:20]) {
			if int(size) != n {
				t.write(k, n, now, i) // the key's own slot, for another length: replace it
			}
			return
		}
		valid[i], hours[i] = ok, h
	}
	pick := 0 // the first empty slot, else the older
	switch {
	case !valid[0]:
	case !valid[1] || hours[1] < hours[0]:
		pick = 1
	}
	t.write(k, n, now, pick)
}

// write puts a verdict in slot pick (0 or 1) of the key's pair.
func (t *table) write(k cacheKey, n int, now time.Time, pick int) {
	var s [slotBytes]byte
	copy(s[:20], k[:20])
	binary.LittleEndian.PutUint32(s[20:], uint32(n))
	binary.LittleEndian.PutUint32(s[24:], uint32(now.Unix()/3600))
	binary.LittleEndian.PutUint32(s[28:], crc32.ChecksumIEEE(s[:28]))
	_, _ = t.f.WriteAt(s[:], t.offset(k)+int64(pick*slotBytes)) // a cache that cannot be written is only slower
}
