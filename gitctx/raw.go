package gitctx

import (
	"bytes"
	"fmt"
	"strconv"
)

// parseRaw parses `git diff --raw -z --no-abbrev` output:
//
//	:<old mode> <new mode> <old id> <new id> <status>[score] NUL <path> NUL [<new path> NUL]
//
// Renames and copies carry two paths. Unmerged entries are skipped (see
// parseRawListing).
func parseRaw(out []byte) ([]*File, error) {
	files, _, err := parseRawListing(out)
	return files, err
}

// parseRawListing is parseRaw that also returns the paths of the unmerged
// entries (status U, one per path): a conflict git lists by name alone,
// with no blob id of what the index will hold.
func parseRawListing(out []byte) (files []*File, unmerged []string, err error) {
	fields := bytes.Split(out, []byte{0})
	for i := 0; i < len(fields); i++ {
		head := fields[i]
		if len(head) == 0 {
			continue
		}
		if head[0] != ':' {
			return nil, nil, fmt.Errorf("parse git diff --raw: unexpected %q", head)
		}
		meta := bytes.Fields(head[1:])
		if len(meta) != 5 {
			return nil, nil, fmt.Errorf("parse git diff --raw: bad header %q", head)
		}
		oldMode, err1 := strconv.ParseUint(string(meta[0]), 8, 32)
		newMode, err2 := strconv.ParseUint(string(meta[1]), 8, 32)
		if err1 != nil || err2 != nil {
			return nil, nil, fmt.Errorf("parse git diff --raw: bad modes in %q", head)
		}
		letter, score := meta[4][0], 0
		if len(meta[4]) > 1 {
			score, _ = strconv.Atoi(string(meta[4][1:]))
		}
		npaths := 1
		if letter == 'R' || letter == 'C' {
			npaths = 2
		}
		if i+npaths >= len(fields) {
			return nil, nil, fmt.Errorf("parse git diff --raw: missing path after %q", head)
		}
		paths := fields[i+1 : i+1+npaths]
		i += npaths
		for _, p := range paths {
			if len(p) == 0 {
				return nil, nil, fmt.Errorf("parse git diff --raw: empty path after %q", head)
			}
		}
		if letter == 'U' {
			unmerged = append(unmerged, string(paths[0]))
			continue
		}
		if letter == 'X' {
			continue
		}
		f := &File{
			Path:    string(paths[len(paths)-1]),
			OldMode: uint32(oldMode),
			NewMode: uint32(newMode),
			OldID:   string(meta[2]),
			NewID:   string(meta[3]),
			Score:   score,
		}
		if npaths == 2 {
			f.OldPath = string(paths[0])
		}
		f.Status = rawStatus(letter, f)
		if f.OldMode == 0 {
			f.OldID = ""
		}
		if f.NewMode == 0 {
			f.NewID = ""
		}
		files = append(files, f)
	}
	return files, unmerged, nil
}

func rawStatus(letter byte, f *File) Status {
	switch letter {
	case 'A':
		return Added
	case 'D':
		return Deleted
	case 'R':
		return Renamed
	case 'C':
		return Copied
	case 'T':
		return TypeChanged
	}
	if f.OldID == f.NewID && f.OldMode != f.NewMode && !isZeroID(f.NewID) {
		return ModeChanged
	}
	return Modified
}
