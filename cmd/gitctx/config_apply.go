package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// settings are a command's effective settings and where each came from.
type settings struct {
	file     *configFile // nil: no configuration file
	repoFile bool        // the file was found at the repository root (see trust.go)
	sources  map[string]string
}

// configure applies the environment and the configuration file to the
// flags the command line left alone: flag > GITCTX_* env > .gitctx.yml >
// default. explicit is --config; without it the file is looked for at
// the repository root.
func configure(ctx context.Context, cmd *cobra.Command, a *app, explicit string) (*settings, error) {
	if explicit == "" {
		explicit = a.getenv("GITCTX_CONFIG")
	}
	s, err := configureWith(ctx, cmd, a, func(ctx context.Context) (string, []byte, error) {
		path, err := findConfig(explicit, a.repoRoot(ctx))
		if err != nil || path == "" {
			return "", nil, err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return "", nil, fmt.Errorf("read configuration: %w", err)
		}
		return path, data, nil
	})
	if s != nil {
		s.repoFile = explicit == ""
	}
	return s, err
}

// configLoader finds and reads the configuration file; an empty path
// means there is none.
type configLoader func(ctx context.Context) (path string, data []byte, err error)

// configureWith is configure with the file read by load.
func configureWith(ctx context.Context, cmd *cobra.Command, a *app, load configLoader) (*settings, error) {
	s := &settings{sources: map[string]string{}}
	cmd.Flags().Visit(func(f *pflag.Flag) { s.sources[f.Name] = "flag --" + f.Name })
	if err := applyEnv(cmd, a.getenv); err != nil {
		return nil, err
	}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if _, ok := s.sources[f.Name]; !ok {
			s.sources[f.Name] = "env " + envName(f.Name)
		}
	})
	path, data, err := load(ctx)
	if err != nil {
		return nil, usagef(cmd, err)
	}
	if path == "" {
		return s, nil
	}
	cf, err := parseConfig(path, data, fileKeys(cmd))
	if err != nil {
		return nil, usagef(cmd, err)
	}
	cf.digest = fileDigest(path, data)
	s.file = cf
	return s, s.applyFile(cmd)
}

// applyFile sets each flag that neither the command line nor the
// environment set from the file.
func (s *settings) applyFile(cmd *cobra.Command) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		v, ok := s.file.values[configKey(f.Name)]
		if err != nil || f.Changed || !ok {
			return
		}
		str, serr := scalarOf(v, f)
		if serr == nil {
			serr = cmd.Flags().Set(f.Name, str)
		}
		if serr != nil {
			err = usagef(cmd, fmt.Errorf("%s:%d: key %s: %w", s.file.path, v.Line, configKey(f.Name), serr))
			return
		}
		s.sources[f.Name] = fmt.Sprintf("%s:%d", s.file.path, v.Line)
	})
	return err
}

// extra is the file's nested settings, or their defaults.
func (s *settings) extra() extraConfig {
	if s == nil || s.file == nil {
		return defaultExtra()
	}
	return s.file.extra
}

// source says where a flag's value came from.
func (s *settings) source(flag string) string {
	if s == nil {
		return "default"
	}
	if src, ok := s.sources[flag]; ok {
		return src
	}
	return "default"
}

// repoRoot is the top of the repository the working directory is in, or
// "." outside one.
func (a *app) repoRoot(ctx context.Context) string {
	r, err := a.openRepo(ctx)
	if err != nil {
		return "."
	}
	return r.Root
}
