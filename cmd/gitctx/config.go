package main

import (
	"bytes"
	"encoding/csv"
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
)

// configNames are the files gitctx reads at the repository root, first
// found wins.
var configNames = []string{".gitctx.yml", ".gitctx.yaml"}

// configFile is a parsed .gitctx.yml: each top-level key with its value
// node (which knows its line).
type configFile struct {
	path   string
	values map[string]*yaml.Node
	extra  extraConfig
	digest string // of its path and bytes (see fileDigest)
}

// notInFile are flags a configuration file cannot set: they choose the
// change or the file itself.
var notInFile = []string{"help", "config", "patch", "staged", "worktree", "pr", "dry-run", "output", "force"}

// parseConfig parses a configuration file strictly: every key must be a
// known setting, every value of the right type; an error names the
// file, the line and the key.
func parseConfig(path string, data []byte, known map[string]*pflag.Flag) (*configFile, error) {
	var doc, more yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		line := more.Line
		if len(more.Content) > 0 {
			line = more.Content[0].Line
		}
		return nil, fmt.Errorf("%s:%d: a second YAML document (after ---): gitctx reads one; join them", path, line)
	}
	cf := &configFile{path: path, values: map[string]*yaml.Node{}, extra: defaultExtra()}
	if len(doc.Content) == 0 {
		return cf, nil // an empty file
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: the file must be a mapping of settings (key: value)", path, root.Line)
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if _, dup := cf.values[k.Value]; dup {
			return nil, fmt.Errorf("%s:%d: key %s is set twice", path, k.Line, k.Value)
		}
		if err := cf.check(k, v, known); err != nil {
			return nil, err
		}
		cf.values[k.Value] = v
	}
	return cf, nil
}

// credentialKey reports whether an unknown key names a credential: its
// last word is one (api_key, openai_api_key, github_token, apikey), not
// merely a word of a setting (max_input_tokens, token_budget, tokenizer).
// One close to a known key (max_token) is that key misspelt.
func credentialKey(key string) bool {
	words := strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	if len(words) == 0 {
		return false
	}
	switch words[len(words)-1] {
	case "key", "apikey", "token", "secret", "password", "passwd", "pat":
		return true
	}
	return false
}

// check validates one top-level key and its value.
func (cf *configFile) check(k, v *yaml.Node, known map[string]*pflag.Flag) error {
	at := fmt.Sprintf("%s:%d: key %s", cf.path, k.Line, k.Value)
	if isExtraKey(k.Value) {
		if err := cf.extra.decode(k.Value, v); err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		return nil
	}
	f, ok := known[k.Value]
	switch {
	case !ok && credentialKey(k.Value) && suggest(k.Value, known) == "":
		return fmt.Errorf("%s:%d: key %s: gitctx takes API keys and tokens only from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, GITCTX_API_KEY, GITHUB_TOKEN), never from a file that may be committed: remove it (and rotate it if it was real and the file was shared)", cf.path, k.Line, k.Value)
	case !ok:
		return fmt.Errorf("%s:%d: unknown key %q%s (gitctx config init writes a file listing every key)", cf.path, k.Line, k.Value, suggest(k.Value, known))
	}
	s, err := scalarOf(v, f)
	if err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	probe := pflag.NewFlagSet("probe", pflag.ContinueOnError)
	probe.AddFlag(cloneFlag(f))
	if err := probe.Set(f.Name, s); err != nil {
		if want, ok := valueWant(err); ok {
			return fmt.Errorf("%s: invalid value %q: %s", at, s, want)
		}
		return fmt.Errorf("%s: invalid value %q: %s", at, s, strings.TrimPrefix(err.Error(), "invalid argument "))
	}
	return nil
}

// scalarOf turns a value node into the string a flag would take: a
// scalar as it is, a list (for list flags) as comma-separated values.
func scalarOf(v *yaml.Node, f *pflag.Flag) (string, error) {
	isList := strings.HasSuffix(f.Value.Type(), "Slice")
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag != "!!null":
		return v.Value, nil
	case v.Kind == yaml.SequenceNode && isList:
		var items []string
		for _, it := range v.Content {
			if it.Kind != yaml.ScalarNode {
				return "", fmt.Errorf("line %d: list items must be plain values", it.Line)
			}
			items = append(items, it.Value)
		}
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		_ = w.Write(items)
		w.Flush()
		return strings.TrimSuffix(b.String(), "\n"), nil
	case isList:
		return "", errors.New("want a list of values")
	}
	return "", fmt.Errorf("want a single %s value", f.Value.Type())
}

// cloneFlag is a copy of f whose value is fresh, for checking a value
// without setting it.
func cloneFlag(f *pflag.Flag) *pflag.Flag {
	fs := pflag.NewFlagSet("clone", pflag.ContinueOnError)
	switch f.Value.Type() {
	case "bool":
		fs.Bool(f.Name, false, "")
	case "int":
		intFlag(fs, new(int), f.Name, 0, "")
	case "int64":
		intFlag(fs, new(int64), f.Name, 0, "")
	case "float64":
		fs.Float64(f.Name, 0, "")
	case "duration":
		fs.Duration(f.Name, 0, "")
	case "stringSlice":
		fs.StringSlice(f.Name, nil, "")
	default:
		fs.String(f.Name, "", "")
	}
	return fs.Lookup(f.Name)
}

// configKey is a flag's key in the file: max-tokens → max_tokens.
func configKey(flag string) string { return strings.ReplaceAll(flag, "-", "_") }

// configured are the commands whose flags a configuration file sets.
var configured = []string{"pack", "review", "action"}

// fileKeys maps the keys a file may set to the flags of cmd and of its
// sibling commands, so that one file serves pack and review alike.
func fileKeys(cmd *cobra.Command) map[string]*pflag.Flag {
	known := map[string]*pflag.Flag{}
	cmds := []*cobra.Command{cmd}
	if cmd.Parent() != nil {
		cmds = cmd.Parent().Commands()
	}
	for _, c := range cmds {
		if c != cmd && !slices.Contains(configured, c.Name()) {
			continue
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !slices.Contains(notInFile, f.Name) {
				known[configKey(f.Name)] = f
			}
		})
	}
	return known
}

// suggest offers the known key closest to a misspelt one.
func suggest(key string, known map[string]*pflag.Flag) string {
	best, bestD := "", 3
	for k := range known {
		if d := editDistance(key, k); d < bestD || (d == bestD && best != "" && k < best) {
			best, bestD = k, d
		}
	}
	for _, k := range extraKeys {
		if d := editDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// findConfig is --config, or the first of configNames at root; "" when
// there is none.
func findConfig(explicit, named, root string) (string, error) {
	if explicit != "" {
		if _, err := os.Stat(explicit); err != nil {
			return "", fmt.Errorf("%s: %w", named, err)
		}
		return explicit, nil
	}
	found := ""
	for _, name := range configNames {
		p := filepath.Join(root, name)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if found != "" {
			return "", fmt.Errorf("both %s and %s are at the repository root: gitctx reads one; keep one", found, p)
		}
		found = p
	}
	return found, nil
}
