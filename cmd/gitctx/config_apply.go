package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// settings are a command's effective settings and where each came from.
type settings struct {
	file     *configFile // nil: no configuration file
	repoFile bool        // the file was found at the repository root (see trust.go)
	sources  map[string]string
	given    map[string]given  // the flags the environment or the file set
	written  map[string]string // relative paths the repository's file gave, as written (see rootPaths)
}

// given is a setting the environment or the configuration file gave: how
// to name it to the user (GITCTX_MAX_TOKENS; max_tokens), where the file
// gave it (".gitctx.yml:3"; empty for the environment) and its value.
type given struct{ name, where, value string }

// configure applies the environment and the configuration file to the
// flags the command line left alone: flag > GITCTX_* env > .gitctx.yml >
// default. explicit is --config; without it the file is looked for at
// the repository root.
func configure(ctx context.Context, cmd *cobra.Command, a *app, explicit string) (*settings, error) {
	named := "--config"
	if explicit == "" && a.getenv("GITCTX_CONFIG") != "" {
		explicit, named = a.getenv("GITCTX_CONFIG"), "GITCTX_CONFIG"
	}
	s, err := configureWith(ctx, cmd, a, func(ctx context.Context) (string, []byte, error) {
		path, err := findConfig(explicit, named, a.repoRoot(ctx))
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
		a.settings = s
		if s.repoFile && err == nil {
			err = s.rootPaths(cmd, a.repoRoot(ctx))
		}
	}
	return s, err
}

// rootPaths makes the relative paths the repository's file gives (out,
// post-file, sarif, rdjson, instructions) relative to the repository root,
// where the file is, rather than to the directory gitctx runs in; the
// paths as the file wrote them stay in s.written for the trust check.
func (s *settings) rootPaths(cmd *cobra.Command, root string) error {
	if s.file == nil {
		return nil
	}
	for _, name := range pathKeys {
		f := cmd.Flags().Lookup(name)
		if f == nil || !strings.HasPrefix(s.source(name), s.file.path+":") {
			continue
		}
		v := f.Value.String()
		if v == "" || v == "-" || filepath.IsAbs(v) || strings.HasPrefix(v, "~") {
			continue
		}
		if s.written == nil {
			s.written = map[string]string{}
		}
		s.written[name] = v
		if err := f.Value.Set(filepath.Join(root, v)); err != nil {
			return fmt.Errorf("%s: %w", configKey(name), err)
		}
	}
	return nil
}

// configLoader finds and reads the configuration file; an empty path
// means there is none.
type configLoader func(ctx context.Context) (path string, data []byte, err error)

// configureWith is configure with the file read by load.
func configureWith(ctx context.Context, cmd *cobra.Command, a *app, load configLoader) (*settings, error) {
	s := &settings{sources: map[string]string{}, given: map[string]given{}}
	cmd.Flags().Visit(func(f *pflag.Flag) { s.sources[f.Name] = "flag --" + f.Name })
	if err := applyEnv(cmd, a.getenv); err != nil {
		return nil, err
	}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if _, ok := s.sources[f.Name]; !ok {
			s.sources[f.Name] = "env " + envName(f.Name)
			s.given[f.Name] = given{envName(f.Name), "", f.Value.String()}
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
		s.given[f.Name] = given{configKey(f.Name), fmt.Sprintf("%s:%d", s.file.path, v.Line), f.Value.String()}
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
	return r.Top()
}

// nameSources rewrites a usage error's message so that a setting the
// environment or the configuration file gave is named the way it was
// given: "--max-tokens cannot be negative" reads ".gitctx.yml:1:
// max_tokens cannot be negative" when the file set it and
// "GITCTX_MAX_TOKENS cannot be negative" when the environment did, and a
// message that quotes such a setting's value without naming the setting
// (`unknown format "yaml"`) says where the value came from.
func (s *settings) nameSources(msg string) string {
	if s == nil || len(s.given) == 0 {
		return msg
	}
	flags := slices.Sorted(maps.Keys(s.given))
	for _, flag := range flags {
		if i := flagIndex(msg, "--"+flag); i >= 0 {
			g := s.given[flag]
			return g.at(msg[:i] + g.name + msg[i+2+len(flag):])
		}
	}
	for _, flag := range flags {
		g := s.given[flag]
		for _, v := range listed(g.value) {
			if v == "" || !strings.Contains(msg, strconv.Quote(v)) {
				continue
			}
			if g.where == "" {
				return fmt.Sprintf("%s (from %s)", msg, g.name)
			}
			return fmt.Sprintf("%s: key %s: %s", g.where, g.name, msg)
		}
	}
	return msg
}

// at puts where the file gave a setting before a message about it.
func (g given) at(msg string) string {
	if g.where == "" {
		return msg
	}
	return g.where + ": " + msg
}

// flagIndex is where msg names flag as a whole (not --max-tokens in
// --max-tokens-x), or -1.
func flagIndex(msg, flag string) int {
	for from := 0; ; {
		i := strings.Index(msg[from:], flag)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(flag)
		if end == len(msg) || !isFlagByte(msg[end]) {
			return i
		}
		from = end
	}
}

// listed splits a list flag's value as pflag prints it ("[a,b]") into its
// items; any other value is its only item.
func listed(v string) []string {
	if inner, ok := strings.CutPrefix(v, "["); ok {
		if inner, ok = strings.CutSuffix(inner, "]"); ok {
			return strings.Split(inner, ",")
		}
	}
	return []string{v}
}

func isFlagByte(c byte) bool {
	return c == '-' || c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
