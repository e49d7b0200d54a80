package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/pack/explain"
)

// explainOptions are the settings of `gitctx explain`.
type explainOptions struct {
	path     string // the record; "" for .gitctx/record.json, "-" for stdin
	markdown bool
	color    string
}

func newExplainCommand(a *app) *cobra.Command {
	o := &explainOptions{}
	cmd := &cobra.Command{
		Use:   "explain [record.json | DIR]",
		Short: "Show what a pack holds, what was left out and why, from its record",
		Long: `Show a transparency record as a person reads it: the pack's type and its
tokens against the budget; the files it holds, largest first, each with a
bar of its share of the pack; the files left out, grouped by reason; the
credentials redacted, by rule; the neighbours and why each was chosen;
and the warnings.

The record is .gitctx/record.json at the repository root (what the last
gitctx pack or gitctx review wrote there), the file named, the record.json
of a directory named (a pack's --out), or stdin with -.
--markdown renders the same view as markdown, for a job summary or a pull
request comment. Colours are used on a terminal only, and never when
NO_COLOR is set (--color always overrides both).` + helpFooter,
		Example: `  gitctx explain
  gitctx explain out/record.json --markdown >> "$GITHUB_STEP_SUMMARY"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef(cmd, fmt.Errorf("explain takes at most one record, got %d", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.path = args[0]
			}
			switch o.color {
			case "auto", "always", "never":
			default:
				return usagef(cmd, fmt.Errorf("--color %q: want auto, always or never", o.color))
			}
			return runExplain(cmd, a, o)
		},
	}
	cmd.Flags().BoolVar(&o.markdown, "markdown", false, "render markdown, for a job summary or a pull request comment")
	cmd.Flags().StringVar(&o.color, "color", "auto", "colours: auto (on a terminal, unless NO_COLOR is set), always or never")
	return cmd
}

func runExplain(cmd *cobra.Command, a *app, o *explainOptions) error {
	rec, err := readRecord(cmd, a, o.path)
	if err != nil {
		return err
	}
	var out string
	if o.markdown {
		out = explain.Markdown(rec, explain.Options{}) + "\n"
	} else {
		out = explain.Text(rec, explain.Options{Color: useColor(o.color, isTerminal(a.stdout), a.getenv)})
	}
	if _, err := io.WriteString(a.stdout, out); err != nil {
		return fmt.Errorf("write the explanation: %w", err)
	}
	return nil
}

// readRecord reads and decodes a transparency record.
func readRecord(cmd *cobra.Command, a *app, path string) (*pack.Record, error) {
	var data []byte
	var err error
	switch path {
	case "-":
		data, err = io.ReadAll(a.stdin)
		path = "stdin"
	case "":
		path = filepath.Join(a.repoRoot(cmd.Context()), ".gitctx", "record.json")
		data, err = os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no record at %s: run gitctx pack first, or name a record.json", path)
		}
	default:
		if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
			path = filepath.Join(path, "record.json") // the --out directory of a pack
		}
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("read the record: %w", err)
	}
	var rec pack.Record
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("%s: not a gitctx record: %w", path, err)
	}
	if rec.Schema != pack.SchemaVersion {
		return nil, fmt.Errorf("%s: not a gitctx record: schema %q, want %q", path, rec.Schema, pack.SchemaVersion)
	}
	return &rec, nil
}

// useColor decides on colours: always, never, or auto: on a terminal
// that does not opt out (NO_COLOR set to anything, TERM=dumb).
func useColor(mode string, tty bool, getenv func(string) string) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	return tty && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}
