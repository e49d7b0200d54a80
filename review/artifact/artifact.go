// Package artifact saves a run's outputs (the pack, its record, a review)
// into a directory so that a reader never sees a half-written set: every
// file is written beside its destination under a temporary name and renamed
// into place only when all are complete, under a lock that keeps two runs
// from interleaving their renames.
package artifact

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// File is one output: a name inside the directory and its bytes.
type File struct {
	Name string
	Data []byte
}

// tempPrefix marks temporary files; a run that is killed (not interrupted,
// which is handled) can leave one, and the next run removes it.
const tempPrefix = ".gitctx-tmp-"

// Save writes files into dir, creating dir if needed, and removes the
// files named in remove (stale outputs of an earlier run). Either all files
// are in place when Save returns nil, or none of dir's files has changed:
// a failure or a cancelled ctx before the renames leaves dir as it was, and
// no temporary file behind.
func Save(ctx context.Context, dir string, files []File, remove []string) (err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output directory %s: %w", dir, err)
	}
	temps := make([]string, len(files))
	defer func() {
		for _, t := range temps {
			if t != "" {
				_ = os.Remove(t)
			}
		}
	}()
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if f.Name == "" || strings.ContainsRune(f.Name, os.PathSeparator) || f.Name == "." || f.Name == ".." {
			return fmt.Errorf("save %q: not a plain file name", f.Name)
		}
		t, err := writeTemp(dir, f.Data)
		if err != nil {
			return err
		}
		temps[i] = t
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	unlock, err := lock(dir)
	if err != nil {
		return err
	}
	defer unlock()
	// From here on the set is committed; an interruption no longer stops it
	// halfway.
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(dir, f.Name)); err != nil {
			return fmt.Errorf("save %s: %w", filepath.Join(dir, f.Name), err)
		}
		temps[i] = ""
	}
	for _, name := range remove {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove stale %s: %w", filepath.Join(dir, name), err)
		}
	}
	removeStaleTemps(dir)
	return nil
}

// SaveFile writes one file atomically: the previous content stays until the
// new one is complete.
func SaveFile(ctx context.Context, path string, data []byte) error {
	return Save(ctx, filepath.Dir(path), []File{{Name: filepath.Base(path), Data: data}}, nil)
}

func writeTemp(dir string, data []byte) (string, error) {
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return "", fmt.Errorf("write in %s: %w", dir, err)
	}
	name := f.Name()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		_ = os.Remove(name)
		return "", fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(name)
		return "", fmt.Errorf("write %s: %w", name, err)
	}
	if err := os.Chmod(name, 0o644); err != nil {
		_ = os.Remove(name)
		return "", fmt.Errorf("write %s: %w", name, err)
	}
	return name, nil
}

// removeStaleTemps removes temporary files a killed run left behind. Only
// files older than a minute go, so that the temporary files of a run still
// writing are never touched.
func removeStaleTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && stale(info) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
