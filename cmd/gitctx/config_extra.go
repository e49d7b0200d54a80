package main

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gitctx/gitctx/pack"
)

// extraConfig holds the keys of .gitctx.yml that are not flags: nested
// settings and lists that would be awkward on a command line.
type extraConfig struct {
	KeyFiles            keyFilesConfig   `yaml:"key_files"`
	Truncation          truncationConfig `yaml:"truncation"`
	ProviderLimits      map[string]int   `yaml:"provider_limits"`
	ExcludedDirectories []string         `yaml:"excluded_directories"`
	PackedDirectories   []string         `yaml:"packed_directories"`
	ExcludedExtensions  []string         `yaml:"excluded_extensions"`
	PreferSummary       bool             `yaml:"prefer_summary"`
	ReviewInstructions  string           `yaml:"review_instructions"`
}

// keyFilesConfig bounds the guide and manifest files (README, AGENTS.md,
// go.mod …) a pack adds.
type keyFilesConfig struct {
	MaxPerCategory         int `yaml:"max_per_category"`
	MaxTotal               int `yaml:"max_total"`
	MaxContentPerFileBytes int `yaml:"max_content_per_file_bytes"`
}

// truncationConfig says how a file too large to show whole is cut.
type truncationConfig struct {
	MaxFileBytes      int `yaml:"max_file_bytes"`
	PreserveHeadLines int `yaml:"preserve_head_lines"`
	PreserveTailLines int `yaml:"preserve_tail_lines"`
}

// Defaults of the nested keys (design §5).
func defaultExtra() extraConfig {
	return extraConfig{
		KeyFiles:   keyFilesConfig{MaxPerCategory: 5, MaxTotal: 25, MaxContentPerFileBytes: 50000},
		Truncation: truncationConfig{MaxFileBytes: 51200, PreserveHeadLines: 100, PreserveTailLines: 50},
	}
}

var extraKeys = []string{"key_files", "truncation", "provider_limits", "excluded_directories", "packed_directories", "excluded_extensions", "prefer_summary", "review_instructions"}

var extraFields = map[string][]string{
	"key_files":  {"max_per_category", "max_total", "max_content_per_file_bytes"},
	"truncation": {"max_file_bytes", "preserve_head_lines", "preserve_tail_lines"},
}

func isExtraKey(k string) bool { return slices.Contains(extraKeys, k) }

// decode reads one nested key into x, refusing unknown fields and
// negative numbers.
func (x *extraConfig) decode(key string, v *yaml.Node) error {
	if fields, ok := extraFields[key]; ok {
		if v.Kind != yaml.MappingNode {
			return fmt.Errorf("want a mapping of %s", strings.Join(fields, ", "))
		}
		for i := 0; i < len(v.Content); i += 2 {
			if f := v.Content[i]; !slices.Contains(fields, f.Value) {
				return fmt.Errorf("line %d: unknown field %s (known: %s)", f.Line, f.Value, strings.Join(fields, ", "))
			}
		}
	}
	var err error
	switch key {
	case "key_files":
		err = v.Decode(&x.KeyFiles)
	case "truncation":
		err = v.Decode(&x.Truncation)
	case "provider_limits":
		err = v.Decode(&x.ProviderLimits)
	case "excluded_directories":
		err = v.Decode(&x.ExcludedDirectories)
	case "packed_directories":
		err = v.Decode(&x.PackedDirectories)
	case "excluded_extensions":
		err = v.Decode(&x.ExcludedExtensions)
	case "prefer_summary":
		err = v.Decode(&x.PreferSummary)
	case "review_instructions":
		err = v.Decode(&x.ReviewInstructions)
	}
	if err != nil {
		return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n  "))
	}
	return x.check()
}

func (x *extraConfig) check() error {
	for _, n := range []int{x.KeyFiles.MaxPerCategory, x.KeyFiles.MaxTotal, x.KeyFiles.MaxContentPerFileBytes,
		x.Truncation.MaxFileBytes, x.Truncation.PreserveHeadLines, x.Truncation.PreserveTailLines} {
		if n < 0 {
			return fmt.Errorf("numbers cannot be negative, got %d", n)
		}
	}
	defaults := pack.DefaultRules()
	if err := defaults.PackDirs(x.PackedDirectories...); err != nil {
		return err
	}
	for _, d := range x.PackedDirectories {
		if slices.ContainsFunc(x.ExcludedDirectories, func(e string) bool { return strings.EqualFold(strings.Trim(e, "/"), strings.Trim(d, "/")) }) {
			return fmt.Errorf("%s is in both excluded_directories and packed_directories", d)
		}
	}
	for k, n := range x.ProviderLimits {
		if n <= 0 || !strings.Contains(k, "/") {
			return fmt.Errorf("provider_limits: want provider/model: tokens (a positive number), got %s: %d", k, n)
		}
	}
	return nil
}
