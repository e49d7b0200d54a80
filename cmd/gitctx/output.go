package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/review/artifact"
)

// staleOutputs lists the files an earlier run left in dir that belong to
// its pack and that this run does not write: pack files (pack.md,
// pack-2.xml, …) and a review's review.md and findings files. A run
// removes them as it writes its record, so that the directory holds only
// what record.json describes (an answer to an earlier pack is not left
// beside a new one). keep names the files this run writes there; file,
// the file -o writes, is never listed, wherever it is. Only a file the
// directory's record says an earlier run wrote is listed (earlierOutputs):
// a file of the user's that has one of gitctx's names is left alone.
func staleOutputs(dir, file string, keep ...string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	// read only when a file could be stale: a record of a large range is
	// a megabyte (8 ms to decode), and a run that writes the same files
	// again has none
	earlier := sync.OnceValue(func() func(string) bool { return earlierOutputs(dir) })
	var names []string
	for _, e := range entries {
		name := e.Name()
		if pack.OutputName(name) && !slices.Contains(keep, name) && !samePath(filepath.Join(dir, name), file) && earlier()(name) {
			names = append(names, name)
		}
	}
	return names
}

// earlierOutputs reads the record an earlier run left in dir and reports
// whether that run wrote a file of that name there: its pack (written into
// dir, or the file -o named), a part of a split pack, or, when it sent the
// pack for a review, the review's files. Without a record of gitctx's
// (none yet, or one it cannot read) it wrote nothing.
func earlierOutputs(dir string) func(name string) bool {
	var rec struct { // what tells the files apart, of pack.Record
		Schema string `json:"schema"`
		Pack   struct {
			Path      string          `json:"path"`
			PartFiles []pack.PartFile `json:"part_files"`
		} `json:"pack"`
		Delivery struct {
			Kind string `json:"kind"`
		} `json:"delivery"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "record.json"))
	if err != nil || json.Unmarshal(data, &rec) != nil || rec.Schema != pack.SchemaVersion {
		return func(string) bool { return false }
	}
	reviewed := rec.Delivery.Kind != "" && rec.Delivery.Kind != "none"
	return func(name string) bool {
		switch name {
		case reviewFile, sarifFile, rdjsonFile:
			return reviewed
		case rec.Pack.Path:
			return true // written into dir
		}
		return samePath(filepath.Join(dir, name), rec.Pack.Path) || // the file -o named
			slices.ContainsFunc(rec.Pack.PartFiles, func(p pack.PartFile) bool { return p.Path == name })
	}
}

// saveOutputs writes a run's outputs: the pack to the file -o names, to
// stdout, or into outDir, and the record and pr.extra (a review's answer)
// into outDir, removing in the same step what an earlier run left there
// of its own pack (staleOutputs). Saved again (a review records what
// became of it), it writes the pack outside outDir only once.
func saveOutputs(ctx context.Context, a *app, o *packOptions, pr *packRun) error {
	var files []artifact.File
	var keep []string
	format, res, outDir := pr.format, pr.res, pr.outDir
	rec := res.Record
	switch {
	case len(res.Parts) > 0:
		for i, text := range res.Parts {
			name := fmt.Sprintf("pack-%d.%s", i+1, format.Ext())
			files = append(files, artifact.File{Name: name, Data: []byte(text)})
			keep = append(keep, name)
			rec.Pack.PartFiles[i].Path = name
		}
		rec.Pack.Path = keep[0]
	case o.output == "":
		name := "pack." + format.Ext()
		files = append(files, artifact.File{Name: name, Data: []byte(res.Text)})
		keep = append(keep, name)
		rec.Pack.Path = name
	default:
		rec.Pack.Path = o.output
	}
	data, err := recordJSON(rec)
	if err != nil {
		return err
	}
	files = append(files, artifact.File{Name: "record.json", Data: data})
	keep = append(keep, "record.json")
	for _, f := range pr.extra {
		files = append(files, f)
		keep = append(keep, f.Name)
	}
	if pr.defaultDir {
		files = append(files, artifact.File{Name: ".gitignore", Data: []byte("# written by gitctx: keep its outputs out of git\n*\n")})
	}
	stale := staleOutputs(outDir, o.outputFile(), keep...)
	switch {
	case o.output == "" || pr.saved:
	case o.output == "-":
		if _, err := io.WriteString(a.stdout, res.Text); err != nil {
			return fmt.Errorf("write the pack to stdout: %w", err)
		}
	default:
		if err := artifact.SaveFile(ctx, o.output, []byte(res.Text)); err != nil {
			return err
		}
	}
	if err := artifact.Save(ctx, outDir, files, stale); err != nil {
		return err
	}
	pr.saved = true
	return nil
}

// saveEmpty records a change with nothing in it: a record with no files,
// and no pack.
func saveEmpty(ctx context.Context, a *app, o *packOptions, rec *pack.Record, outDir string, defaultDir bool) error {
	rec.Pack.Path = ""
	data, err := recordJSON(rec)
	if err != nil {
		return err
	}
	files := []artifact.File{{Name: "record.json", Data: data}}
	if defaultDir {
		files = append(files, artifact.File{Name: ".gitignore", Data: []byte("# written by gitctx: keep its outputs out of git\n*\n")})
	}
	if err := artifact.Save(ctx, outDir, files, staleOutputs(outDir, o.outputFile(), "record.json")); err != nil {
		return err
	}
	if !o.quiet {
		fmt.Fprintf(a.stderr, "gitctx: nothing to pack: %s has no changes (record: %s)%s\n",
			terminalSafe(describeSource(rec.Source)), terminalSafe(filepath.Join(outDir, "record.json")), emptyHint(rec.Source.Kind))
	}
	return nil
}

// emptyHint says what else there is to pack when a change is empty.
func emptyHint(kind string) string {
	switch kind {
	case "staged":
		return "; stage changes with git add, or pack the work tree (--worktree) or commits (gitctx pack HEAD~3..HEAD)"
	case "worktree":
		return "; to pack commits, name them: gitctx pack HEAD~3..HEAD, or main...HEAD for a branch"
	}
	return ""
}

func describeSource(s pack.SourceRecord) string {
	switch s.Kind {
	case "range":
		return "the range " + s.Spec
	case "staged":
		return "the index"
	case "worktree":
		return "the work tree"
	}
	return "the " + s.Kind + " " + s.Spec
}

func recordJSON(rec *pack.Record) ([]byte, error) {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode record: %w", err)
	}
	return append(data, '\n'), nil
}
