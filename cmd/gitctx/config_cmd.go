package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/review/artifact"
)

// configOptions are the settings of `gitctx config`.
type configOptions struct {
	config string
	force  bool
}

func newConfigCommand(a *app) *cobra.Command {
	o := &configOptions{}
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Print the effective configuration and where each value comes from",
		Long: `Print every setting of gitctx pack and gitctx review with its value and
where it comes from: a GITCTX_* environment variable, the configuration file
(.gitctx.yml or .gitctx.yaml at the repository root, or --config FILE) with
its line, or the built-in default.` + helpFooter,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runConfig(cmd, a, o)
		},
	}
	cmd.Flags().StringVar(&o.config, "config", "", "read `FILE` instead of .gitctx.yml at the repository root")
	initCmd := &cobra.Command{
		Use:   "init",
		Short: "Write a commented starter .gitctx.yml at the repository root",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runConfigInit(cmd, a, o)
		},
	}
	initCmd.Flags().BoolVar(&o.force, "force", false, "replace an existing file")
	trustCmd := &cobra.Command{
		Use:   "trust",
		Short: "Trust the repository's .gitctx.yml as it is now: let it run commands and choose endpoints",
		Long: `A .gitctx.yml at the repository root comes with the repository. Its settings
that run a command (context_cmd, command), choose where the prompt and the API
key go (base_url) or name a file outside the repository (out, post_file,
sarif, rdjson, instructions) are refused until you trust the file as it is:
read it, then run this. A change to the file needs trusting again. A file
named with --config or GITCTX_CONFIG is yours and needs no trust.` + helpFooter,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runConfigTrust(cmd, a)
		},
	}
	cmd.AddCommand(initCmd, trustCmd)
	return cmd
}

// runConfig resolves the settings as `gitctx review` would and prints
// them; a value pack or review would refuse is then an error (exit 2),
// named where it was given.
func runConfig(cmd *cobra.Command, a *app, o *configOptions) error {
	ro := &reviewOptions{}
	rc, _ := borrowedWith(cmd, a, ro)
	s, err := configure(cmd.Context(), rc, a, o.config)
	var uerr *usageError
	if errors.As(err, &uerr) {
		uerr.cmd = cmd // the help to read is config's, not the review command's it borrowed
	}
	if err != nil {
		return err
	}
	w := a.stdout
	if s.file != nil {
		fmt.Fprintf(w, "# configuration file: %s\n", terminalSafe(s.file.path))
		for _, r := range s.untrusted(rc, a) {
			fmt.Fprintf(w, "# refused until `gitctx config trust`: %s\n", terminalSafe(r))
		}
	} else {
		fmt.Fprintln(w, "# no configuration file (gitctx config init writes one)")
	}
	rc.Flags().VisitAll(func(f *pflag.Flag) {
		if slices.Contains(notInFile, f.Name) {
			return
		}
		fmt.Fprintf(w, "%s: %s  # %s\n", configKey(f.Name), yamlValue(f), terminalSafe(s.source(f.Name)))
	})
	if err := writeExtra(w, s); err != nil {
		return err
	}
	ro.settings = s
	err = ro.validate(rc)
	if errors.As(err, &uerr) {
		uerr.cmd = cmd
	}
	return err
}

// reviewCommandFor is a fresh review command under cmd's root, whose
// flags are the superset of every command's settings.
func reviewCommandFor(cmd *cobra.Command, a *app) *cobra.Command {
	rc, _ := borrowedCommands(cmd, a)
	return rc
}

// packCommandFor is reviewCommandFor's pack command.
func packCommandFor(cmd *cobra.Command, a *app) *cobra.Command {
	_, pc := borrowedCommands(cmd, a)
	return pc
}

// borrowedCommands are a fresh review and pack command, siblings as they
// are under gitctx, for a command that reads their settings.
func borrowedCommands(cmd *cobra.Command, a *app) (review, pack *cobra.Command) {
	return borrowedWith(cmd, a, &reviewOptions{})
}

// borrowedWith is borrowedCommands with the review command's options in
// ro, for a command that validates them as review would.
func borrowedWith(cmd *cobra.Command, a *app, ro *reviewOptions) (review, pack *cobra.Command) {
	review, pack = reviewCommand(a, ro), newPackCommand(a)
	review.SetContext(cmd.Context())
	pack.SetContext(cmd.Context())
	root := &cobra.Command{Use: "gitctx"}
	root.AddCommand(review, pack)
	return review, pack
}

func writeExtra(w io.Writer, s *settings) error {
	src := "default"
	if s.file != nil {
		src = s.file.path
	}
	data, err := yaml.Marshal(s.extra())
	if err != nil {
		return fmt.Errorf("encode settings: %w", err)
	}
	fmt.Fprintf(w, "# nested settings (%s)\n%s", terminalSafe(src), terminalSafe(string(data)))
	return nil
}

// yamlValue is a flag's value as YAML.
func yamlValue(f *pflag.Flag) string {
	if strings.HasSuffix(f.Value.Type(), "Slice") {
		v := strings.Trim(f.Value.String(), "[]")
		if v == "" {
			return "[]"
		}
		return "[" + v + "]"
	}
	if f.Value.Type() == "string" {
		data, _ := yaml.Marshal(f.Value.String())
		return strings.TrimSpace(string(data))
	}
	return f.Value.String()
}

// runConfigInit writes a starter file listing every key with its default.
func runConfigInit(cmd *cobra.Command, a *app, o *configOptions) error {
	path := o.config
	if path == "" {
		repo, err := a.openRepo(cmd.Context())
		if errors.Is(err, gitctx.ErrNotRepository) {
			wd, _ := os.Getwd()
			return fmt.Errorf("%s: %w: gitctx config init writes .gitctx.yml at a repository's root; run it inside one, or name the file with --config FILE", wd, gitctx.ErrNotRepository)
		}
		if err != nil {
			return err
		}
		path = filepath.Join(repo.Top(), configNames[0])
	}
	if _, err := os.Stat(path); err == nil && !o.force {
		return usagef(cmd, fmt.Errorf("%s exists: pass --force to replace it", path))
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := artifact.SaveFile(cmd.Context(), path, []byte(starterConfig(reviewCommandFor(cmd, a)))); err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "gitctx: wrote %s; every key is commented out at its default\n", terminalSafe(path))
	return nil
}

// starterConfig is a commented .gitctx.yml with every key at its default.
func starterConfig(rc *cobra.Command) string {
	var b strings.Builder
	b.WriteString("# gitctx configuration. Settings: flag > GITCTX_* environment > this file > default.\n")
	b.WriteString("# Every key is shown at its default; uncomment a line to change it.\n\n")
	rc.Flags().VisitAll(func(f *pflag.Flag) {
		if slices.Contains(notInFile, f.Name) {
			return
		}
		usage := strings.ReplaceAll(f.Usage, "`", "")
		fmt.Fprintf(&b, "# %s\n# %s: %s\n\n", usage, configKey(f.Name), yamlValue(f))
	})
	data, _ := yaml.Marshal(defaultExtra())
	b.WriteString("# Nested settings: guide files (key_files), how large files are cut (truncation),\n")
	b.WriteString("# token limits per provider/model (provider_limits: {openai/gpt-4.1: 200000}),\n")
	b.WriteString("# exclusions added to the defaults, and the review instruction.\n")
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		b.WriteString("# " + line + "\n")
	}
	return b.String()
}
