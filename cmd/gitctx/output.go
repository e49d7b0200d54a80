package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/review/artifact"
)

// packNames are the pack files any earlier run may have left in a
// directory; a new run replaces or removes them so that record.json always
// describes what is there.
func packNames(keep string) []string {
	var names []string
	for _, ext := range []string{"md", "xml", "json"} {
		if n := "pack." + ext; n != keep {
			names = append(names, n)
		}
	}
	return names
}

func saveOutputs(ctx context.Context, a *app, o *packOptions, format pack.Format, res *pack.Result, outDir string, defaultDir bool) error {
	packName := "pack." + format.Ext()
	var files []artifact.File
	rec := res.Record
	switch o.output {
	case "":
		rec.Pack.Path = packName
		files = append(files, artifact.File{Name: packName, Data: []byte(res.Text)})
	default:
		rec.Pack.Path = o.output
	}
	data, err := recordJSON(rec)
	if err != nil {
		return err
	}
	files = append(files, artifact.File{Name: "record.json", Data: data})
	if defaultDir {
		files = append(files, artifact.File{Name: ".gitignore", Data: []byte("# written by gitctx: keep its outputs out of git\n*\n")})
	}
	var stale []string
	if o.output == "" {
		stale = packNames(packName)
	}
	switch o.output {
	case "":
	case "-":
		if _, err := io.WriteString(a.stdout, res.Text); err != nil {
			return fmt.Errorf("write the pack to stdout: %w", err)
		}
	default:
		if err := artifact.SaveFile(ctx, o.output, []byte(res.Text)); err != nil {
			return err
		}
	}
	return artifact.Save(ctx, outDir, files, stale)
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
	if err := artifact.Save(ctx, outDir, files, packNames("")); err != nil {
		return err
	}
	if !o.quiet {
		fmt.Fprintf(a.stderr, "gitctx: nothing to pack: %s has no changes (record: %s)\n",
			terminalSafe(describeSource(rec.Source)), terminalSafe(filepath.Join(outDir, "record.json")))
	}
	return nil
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
