package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/pack/explain"
)

// explainOptions are the settings of `gitctx explain`.
type explainOptions struct {
	path     string // the record; "" for the one pack writes, "-" for stdin
	out      string // --out: the directory a pack was written to
	config   string // --config: the configuration file that may name it
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

The record is the file named, the record.json of a directory named (a
pack's --out), or stdin with -. Without one it is the record the last
gitctx pack or gitctx review wrote: in --out DIR, GITCTX_OUT or the
configuration file's out, read as pack reads them, else .gitctx/ at the
repository root.
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
			// GITCTX_MARKDOWN, GITCTX_COLOR; GITCTX_OUT and GITCTX_CONFIG are
			// read as pack reads them (see packOutDir)
			colorFlag := cmd.Flags().Changed("color")
			if err := applyEnv(cmd, a.getenv, "out", "config"); err != nil {
				return err
			}
			if len(args) == 1 {
				if o.out != "" {
					return usagef(cmd, fmt.Errorf("explain takes a record or --out, not both: %s and --out %s", args[0], o.out))
				}
				o.path = args[0]
			}
			switch o.color {
			case "auto", "always", "never":
			default:
				name := "--color"
				if !colorFlag {
					name = "GITCTX_COLOR" // a bad value is named where it was given
				}
				return usagef(cmd, fmt.Errorf("%s %q: want auto, always or never", name, o.color))
			}
			return runExplain(cmd, a, o)
		},
	}
	cmd.Flags().StringVar(&o.out, "out", "", "read the record a pack wrote into `DIR` (pack's --out)")
	cmd.Flags().StringVar(&o.config, "config", "", "read the out setting from `FILE` instead of .gitctx.yml at the repository root")
	cmd.Flags().BoolVar(&o.markdown, "markdown", false, "render markdown, for a job summary or a pull request comment")
	cmd.Flags().StringVar(&o.color, "color", "auto", "colours: auto (on a terminal, unless NO_COLOR is set), always or never")
	completeValues(cmd, map[string][]string{"color": {"auto", "always", "never"}})
	return cmd
}

func runExplain(cmd *cobra.Command, a *app, o *explainOptions) error {
	rec, err := readRecord(cmd, a, o)
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

// readRecord reads and decodes the transparency record the options name.
func readRecord(cmd *cobra.Command, a *app, o *explainOptions) (*pack.Record, error) {
	var data []byte
	var err error
	path := o.path
	switch path {
	case "-":
		data, err = io.ReadAll(a.stdin)
		path = "stdin"
	case "":
		dir, from, derr := packOutDir(cmd, a, o)
		if derr != nil {
			return nil, derr
		}
		path = filepath.Join(dir, "record.json")
		data, err = os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no record at %s%s: run gitctx pack first, or name a record.json", path, from)
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
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%s: a record cut short (%d bytes, the JSON unfinished): pack again to write a whole one", path, len(data))
		}
		return nil, fmt.Errorf("%s: not a gitctx record: %w", path, err)
	}
	switch {
	case rec.Schema == pack.SchemaVersion:
	case strings.HasPrefix(rec.Schema, "gitctx.record/"):
		return nil, fmt.Errorf("%s: a record of schema %q, which this gitctx (%q) does not read: use the gitctx that wrote it, or a newer one", path, rec.Schema, pack.SchemaVersion)
	default:
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

// packOutDir is the directory gitctx pack writes its record into, read as
// pack reads it: --out, GITCTX_OUT, the configuration file's out (which,
// from a repository's file, must be trusted as pack requires), else
// .gitctx/ at the repository root. from says where a setting came from,
// for a record not found there.
func packOutDir(cmd *cobra.Command, a *app, o *explainOptions) (dir, from string, err error) {
	pc := packCommandFor(cmd, a)
	if o.out != "" {
		if err := pc.Flags().Set("out", o.out); err != nil {
			return "", "", usagef(cmd, err)
		}
	}
	s, err := configure(cmd.Context(), pc, a, o.config)
	if err == nil {
		err = s.checkTrust(pc, a, "out") // explain runs nothing and sends nothing: out alone matters
	}
	var uerr *usageError
	if errors.As(err, &uerr) {
		uerr.cmd = cmd // the help to read is explain's, not the pack command's it borrowed
	}
	if err != nil {
		return "", "", err
	}
	if out := pc.Flags().Lookup("out").Value.String(); out != "" {
		return out, " (out from " + s.source("out") + ")", nil
	}
	return filepath.Join(a.repoRoot(cmd.Context()), ".gitctx"), "", nil
}
