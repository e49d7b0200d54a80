package neighbours

import (
	"bytes"
	"encoding/json"
	"path"
	"slices"
	"strings"
)

// TypeScript's path aliases: `import { db } from "@/lib/db"` names
// src/lib/db.ts when the nearest tsconfig.json (or jsconfig.json) maps
// "@/*" to "./src/*" in compilerOptions.paths, and `from "lib/db"` names it
// when compilerOptions.baseUrl is "src". A config's "extends" is not
// followed: a config that inherits its paths resolves no alias.

// tsConfig is what one tsconfig.json or jsconfig.json says about
// resolving imports.
type tsConfig struct {
	dir     string // the config's directory
	baseURL string // compilerOptions.baseUrl from the repository's root ("" if unset)
	aliases []tsAlias
}

// tsAlias is one key of compilerOptions.paths, split at its "*".
type tsAlias struct {
	prefix, suffix string
	star           bool
	targets        []string // from the repository's root, each with at most one "*"
}

// isTSConfig reports whether a file is a TypeScript or JavaScript project
// configuration whose paths resolve imports.
func isTSConfig(p string) bool {
	base := path.Base(p)
	return base == "tsconfig.json" || base == "jsconfig.json"
}

// addTSConfig notes a tsconfig.json or jsconfig.json. One that does not
// parse, or says nothing of baseUrl and paths, is left out.
func (r *resolver) addTSConfig(name string, data []byte) {
	var doc struct {
		CompilerOptions struct {
			BaseURL string              `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(standardJSON(data), &doc) != nil {
		return
	}
	opts := doc.CompilerOptions
	if opts.BaseURL == "" && len(opts.Paths) == 0 {
		return
	}
	c := tsConfig{dir: path.Dir(name)}
	root := c.dir // paths' targets are relative to baseUrl, or to the config without one
	if opts.BaseURL != "" {
		c.baseURL = path.Join(c.dir, opts.BaseURL)
		root = c.baseURL
	}
	for _, key := range sortedKeys(opts.Paths) {
		a := tsAlias{prefix: key}
		if i := strings.IndexByte(key, '*'); i >= 0 {
			a.prefix, a.suffix, a.star = key[:i], key[i+1:], true
		}
		for _, t := range opts.Paths[key] {
			a.targets = append(a.targets, path.Join(root, t))
		}
		c.aliases = append(c.aliases, a)
	}
	// TypeScript takes the matching key with the longest prefix
	slices.SortStableFunc(c.aliases, func(a, b tsAlias) int { return len(b.prefix) - len(a.prefix) })
	r.tsConfigs = append(r.tsConfigs, c)
}

// tsConfigOf returns the config nearest above a file: the one in its
// directory or the closest parent that has one.
func (r *resolver) tsConfigOf(file string) *tsConfig {
	var best *tsConfig
	for i := range r.tsConfigs {
		c := &r.tsConfigs[i]
		if (c.dir == "." || file == c.dir || strings.HasPrefix(file, c.dir+"/")) && (best == nil || len(c.dir) > len(best.dir)) {
			best = c
		}
	}
	return best
}

// tsAliased resolves a non-relative import spec through the paths and
// baseUrl of the file's nearest config.
func (r *resolver) tsAliased(file, spec string) []string {
	c := r.tsConfigOf(file)
	if c == nil {
		return nil
	}
	for _, a := range c.aliases {
		var star string
		switch {
		case !a.star && spec == a.prefix:
		case a.star && len(spec) >= len(a.prefix)+len(a.suffix) && strings.HasPrefix(spec, a.prefix) && strings.HasSuffix(spec, a.suffix):
			star = spec[len(a.prefix) : len(spec)-len(a.suffix)]
		default:
			continue
		}
		for _, t := range a.targets {
			if got := r.jsFile(strings.Replace(t, "*", star, 1)); got != nil {
				return got
			}
		}
		return nil // the matching key's targets are all TypeScript tries
	}
	if c.baseURL != "" {
		return r.jsFile(path.Join(c.baseURL, spec))
	}
	return nil
}

// standardJSON turns JSON with comments and trailing commas (as tsconfig
// files are written) into JSON: comments become spaces, and a comma
// before a closing bracket or brace goes.
func standardJSON(b []byte) []byte {
	out := make([]byte, 0, len(b))
	comma := -1 // index in out of a comma that may trail
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(b)-1)
			out = append(out, b[i:j+1]...)
			i, comma = j, -1
			continue
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
			continue
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			i += end + 3
			out = append(out, ' ')
			continue
		case c == ',':
			comma = len(out)
		case c == '}' || c == ']':
			if comma >= 0 {
				out[comma] = ' '
			}
			comma = -1
		case c != ' ' && c != '\t' && c != '\n' && c != '\r':
			comma = -1
		}
		out = append(out, c)
	}
	return out
}
