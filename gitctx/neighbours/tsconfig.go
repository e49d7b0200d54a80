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
// when compilerOptions.baseUrl is "src". Both may come from a config the
// project's extends (a monorepo's tsconfig.base.json), by a relative path;
// an extends of a package (@tsconfig/node20) is not followed.

// tsConfig is what a project's tsconfig.json or jsconfig.json, with the
// configs it extends, says about resolving imports.
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

// tsConfigFile is one config file as written: its own baseUrl and paths
// (nil: unset), and the config it extends ("" if none or not in the
// repository).
type tsConfigFile struct {
	baseURL  string
	aliases  []tsAlias
	hasPaths bool
	extends  string
}

// maxExtends bounds a chain of extends (a cycle ends there too).
const maxExtends = 8

// isTSConfig reports whether a file is a TypeScript or JavaScript
// configuration (tsconfig.json, tsconfig.base.json, jsconfig.json…).
func isTSConfig(p string) bool {
	base := path.Base(p)
	return (strings.HasPrefix(base, "tsconfig") || strings.HasPrefix(base, "jsconfig")) && strings.HasSuffix(base, ".json")
}

// isTSProject reports whether a config is a project's own, the one its
// directory's files are compiled with.
func isTSProject(p string) bool {
	base := path.Base(p)
	return base == "tsconfig.json" || base == "jsconfig.json"
}

// addTSConfig notes a config file (see isTSConfig); one that does not
// parse is left out. linkTSConfigs puts them to use.
func (r *resolver) addTSConfig(name string, data []byte) {
	var doc struct {
		Extends         any `json:"extends"` // a string, or (TypeScript 5) a list
		CompilerOptions struct {
			BaseURL string              `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(standardJSON(data), &doc) != nil {
		return
	}
	dir, opts := path.Dir(name), doc.CompilerOptions
	c := tsConfigFile{hasPaths: opts.Paths != nil}
	if ext, ok := doc.Extends.(string); ok && strings.HasPrefix(ext, ".") {
		c.extends = path.Join(dir, ext)
		if !strings.HasSuffix(c.extends, ".json") {
			c.extends += ".json"
		}
	}
	root := dir // paths' targets are relative to baseUrl, or to the config without one
	if opts.BaseURL != "" {
		c.baseURL = path.Join(dir, opts.BaseURL)
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
	if r.tsFiles == nil {
		r.tsFiles = map[string]tsConfigFile{}
	}
	r.tsFiles[name] = c
}

// linkTSConfigs makes each project's config (isTSProject) whole: its own
// baseUrl and paths, or those of the nearest config up its extends chain
// that sets them. A project that ends up with neither is left out.
func (r *resolver) linkTSConfigs() {
	r.tsConfigs = nil
	for _, name := range sortedKeys(r.tsFiles) {
		if !isTSProject(name) {
			continue
		}
		c := tsConfig{dir: path.Dir(name)}
		var gotBase, gotPaths bool
		for i, f := 0, name; i < maxExtends && f != ""; i++ {
			file, ok := r.tsFiles[f]
			if !ok {
				break
			}
			if !gotBase && file.baseURL != "" {
				c.baseURL, gotBase = file.baseURL, true
			}
			if !gotPaths && file.hasPaths {
				c.aliases, gotPaths = file.aliases, true
			}
			f = file.extends
		}
		if c.baseURL != "" || len(c.aliases) > 0 {
			r.tsConfigs = append(r.tsConfigs, c)
		}
	}
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
