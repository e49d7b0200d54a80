package gitctx

import (
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// statSettles: this system's stat data has what statMatches compares.
const statSettles = true

// statMatches reports whether a file's stat data is what the index entry
// recorded: its type and owner's executable bit, size, modification and
// change times to the nanosecond, inode, owner and group (what git's
// ce_match_stat_basic compares, device aside, as git does by default).
// It returns the file's modification time.
func statMatches(path string, e *index.Entry) (time.Time, bool) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		return time.Time{}, false
	}
	switch e.Mode {
	case filemode.Regular, filemode.Executable:
		if st.Mode&syscall.S_IFMT != syscall.S_IFREG || (st.Mode&0o100 != 0) != (e.Mode == filemode.Executable) {
			return time.Time{}, false
		}
	case filemode.Symlink:
		if st.Mode&syscall.S_IFMT != syscall.S_IFLNK {
			return time.Time{}, false
		}
	default:
		return time.Time{}, false
	}
	mtime := time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)) //nolint:unconvert // int32 on 32-bit systems
	same := uint32(st.Size) == e.Size && uint32(st.Ino) == e.Inode && st.Uid == e.UID && st.Gid == e.GID &&
		sameTime(e.ModifiedAt, st.Mtim) && sameTime(e.CreatedAt, st.Ctim)
	return mtime, same
}

// sameTime compares a time the index recorded (seconds as 32 bits, zero
// when both parts were) with the file's.
func sameTime(recorded time.Time, ts syscall.Timespec) bool {
	var sec, nsec uint32
	if !recorded.IsZero() {
		sec, nsec = uint32(recorded.Unix()), uint32(recorded.Nanosecond())
	}
	return sec == uint32(ts.Sec) && nsec == uint32(ts.Nsec)
}
