package pack

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// Exclusion reasons, as the record names them.
const (
	ReasonCredentials   = "credentials"
	ReasonBinary        = "binary"
	ReasonSizeLimit     = "size_limit"
	ReasonPatternMatch  = "pattern_match"
	ReasonDependencyDir = "dependency_dir"
	ReasonBuildOutput   = "build_output"
	ReasonCache         = "cache"
	ReasonGitignored    = "gitignored"
	ReasonBudget        = "budget"
	ReasonDirLimit      = "dir_limit"
	ReasonSymlink       = "symlink"
	ReasonUnreadable    = "unreadable"
	ReasonEncoding      = "encoding"
	ReasonOwnOutput     = "gitctx_output"
)

// Rules are the default exclusions of a pack (design §5). Name patterns
// match a file's base name, directory names match any directory of its
// path; both ignore case.
type Rules struct {
	Credentials []string          // file-name globs of credential files
	Dirs        map[string]string // directory name → reason
	Names       []namePattern     // file-name globs with their reason
	Include     []string          // if set, only paths matching one of these are packed
	Exclude     []string          // paths matching one of these are not packed
	Outputs     Outputs           // gitctx's own outputs, never packed
}

// Outputs name where a run of gitctx writes inside the repository, by
// repository paths: what gitctx wrote is never part of the change it
// packs (the reason gitctx_output), whether git ignores it or not, and
// whatever the path rules say.
type Outputs struct {
	Dirs  []string // output directories ("." for the root): their files of gitctx's names (OutputName)
	Files []string // files written by name (-o FILE)
}

// has reports whether p is one of the outputs. It is asked of every path
// a search meets, so the directory is compared before the name is matched.
func (o *Outputs) has(p string) bool {
	if slices.Contains(o.Files, p) {
		return true
	}
	dir, base := ".", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, base = p[:i], p[i+1:]
	}
	return slices.Contains(o.Dirs, dir) && OutputName(base)
}

type namePattern struct {
	glob, reason string
}

// DefaultRules returns the built-in exclusions.
func DefaultRules() Rules {
	r := Rules{
		Credentials: []string{"*.pem", "*.key", "*.crt", "*.p12", "*.pfx", ".env*", "credentials*", "secrets*",
			"*_secret*", "*_token*", "*.keystore", "*.jks", "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*", ".netrc", ".pgpass", ".npmrc", ".pypirc"},
		Dirs: map[string]string{},
	}
	for _, d := range []string{"node_modules", "vendor", ".venv", "venv", "env", "__pypackages__", "bower_components"} {
		r.Dirs[d] = ReasonDependencyDir
	}
	for _, d := range []string{"dist", "build", "out", "target", ".next", ".nuxt", "coverage"} {
		r.Dirs[d] = ReasonBuildOutput
	}
	for _, d := range []string{".cache", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"} {
		r.Dirs[d] = ReasonCache
	}
	for _, d := range []string{".git", ".svn", ".hg", "logs"} {
		r.Dirs[d] = ReasonPatternMatch
	}
	for _, g := range []string{"*.pyc", "*.pyo", ".eslintcache", "*.tsbuildinfo"} {
		r.Names = append(r.Names, namePattern{g, ReasonCache})
	}
	for _, g := range []string{"*.sql", "*.db", "*.sqlite*", "*.log"} {
		r.Names = append(r.Names, namePattern{g, ReasonPatternMatch})
	}
	for _, g := range []string{"*.exe", "*.dll", "*.so", "*.dylib", "*.wasm", "*.a", "*.o", "*.class", "*.jar",
		"*.png", "*.jpg", "*.jpeg", "*.gif", "*.bmp", "*.ico", "*.webp", "*.svg", "*.mp4", "*.mov", "*.mp3", "*.wav",
		"*.pdf", "*.zip", "*.tar*", "*.gz", "*.tgz", "*.bz2", "*.xz", "*.7z", "*.woff", "*.woff2", "*.ttf", "*.otf"} {
		r.Names = append(r.Names, namePattern{g, ReasonBinary})
	}
	return r
}

// Validate checks the include and exclude globs.
func (r *Rules) Validate() error {
	for _, g := range append(append([]string{}, r.Include...), r.Exclude...) {
		if !doublestar.ValidatePattern(g) {
			return fmt.Errorf("bad glob %q (see https://github.com/bmatcuk/doublestar#patterns)", g)
		}
	}
	return nil
}

// IsCredential reports whether a path names a credential file, which is
// never packed, whatever else asks for it.
func (r *Rules) IsCredential(p string) bool {
	base := strings.ToLower(path.Base(p))
	utf := utf8.ValidString(base)
	for _, g := range r.Credentials {
		if matchName(g, base, utf) {
			return true
		}
	}
	return false
}

// ExcludeReason returns the reason a path is not packed, or "" when it may be.
// userGlobs says whether the include and exclude globs apply (they do not
// to files the user named explicitly).
func (r *Rules) ExcludeReason(p string, userGlobs bool) string {
	if r.Outputs.has(p) {
		return ReasonOwnOutput
	}
	if r.IsCredential(p) {
		return ReasonCredentials
	}
	base := p
	for {
		dir, rest, ok := strings.Cut(base, "/")
		if !ok {
			break
		}
		if reason := r.dirReason(dir); reason != "" {
			return reason
		}
		base = rest
	}
	if reason := r.nameReason(base); reason != "" {
		return reason
	}
	if !userGlobs {
		return ""
	}
	for _, g := range r.Exclude {
		if matchGlob(g, p) {
			return ReasonPatternMatch
		}
	}
	if len(r.Include) == 0 {
		return ""
	}
	for _, g := range r.Include {
		if matchGlob(g, p) {
			return ""
		}
	}
	return ReasonPatternMatch
}

// dirReason returns the reason a directory of this name is excluded, or
// "".
func (r *Rules) dirReason(name string) string { return r.Dirs[strings.ToLower(name)] }

// nameReason returns the reason a file of this base name is excluded by
// name (credentials aside), or "".
func (r *Rules) nameReason(base string) string {
	base = strings.ToLower(base)
	utf := utf8.ValidString(base)
	for _, n := range r.Names {
		if matchName(n.glob, base, utf) {
			return n.reason
		}
	}
	return ""
}

// dirNames lists the names of the directories whose files are left out,
// at any depth, in lower case (a name holding a slash never matches).
func (r *Rules) dirNames() []string {
	var out []string
	for _, d := range slices.Sorted(maps.Keys(r.Dirs)) {
		if !strings.Contains(d, "/") {
			out = append(out, d)
		}
	}
	return out
}

// ExcludeDirs adds directory names to the default exclusions (the
// excluded_directories setting); a directory of that name, at any depth,
// is left out with the reason pattern_match.
func (r *Rules) ExcludeDirs(names ...string) {
	if r.Dirs == nil {
		r.Dirs = map[string]string{}
	}
	for _, d := range names {
		d = strings.ToLower(strings.Trim(d, "/"))
		if _, ok := r.Dirs[d]; !ok && d != "" {
			r.Dirs[d] = ReasonPatternMatch
		}
	}
}

// ExcludingDir returns the name of the directory of p that leaves it out
// (its first, outermost), or "" when no directory does.
func (r *Rules) ExcludingDir(p string) string {
	for {
		dir, rest, ok := strings.Cut(p, "/")
		if !ok {
			return ""
		}
		if r.dirReason(dir) != "" {
			return dir
		}
		p = rest
	}
}

// PackDirs takes directory names out of the default exclusions (the
// packed_directories setting): a repository whose own code lives in a
// `logs/`, `env/` or `build/` package has it packed like any other.
// Credentials, binaries and the other name rules still apply. A name the
// exclusions do not hold, or one of version control's, is refused: it
// would pack nothing more, and say so only by its silence.
func (r *Rules) PackDirs(names ...string) error {
	vcs := []string{".git", ".svn", ".hg"}
	for _, d := range names {
		key := strings.ToLower(strings.Trim(d, "/"))
		if slices.Contains(vcs, key) {
			return fmt.Errorf("%q is version control's, never packed", d)
		}
		if _, ok := r.Dirs[key]; !ok {
			known := slices.DeleteFunc(r.dirNames(), func(n string) bool { return slices.Contains(vcs, n) })
			return fmt.Errorf("%q is not a directory name the exclusions leave out (those are: %s)", d, strings.Join(known, " "))
		}
		delete(r.Dirs, key)
	}
	return nil
}

// ExcludeExtensions adds file extensions ("bin" or ".bin") to the default
// exclusions (the excluded_extensions setting), with the reason
// pattern_match.
func (r *Rules) ExcludeExtensions(exts ...string) {
	// escape what a glob gives a meaning to
	globMeta := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`, "]", `\]`, "{", `\{`, "}", `\}`)
	for _, x := range exts {
		x = strings.ToLower(strings.TrimPrefix(x, "."))
		if x != "" {
			r.Names = append(r.Names, namePattern{"*." + globMeta.Replace(x), ReasonPatternMatch})
		}
	}
}

// matchGlob matches a user glob against a path; a glob without a slash
// also matches the base name, as in .gitignore ("*.go" matches "a/b.go").
func matchGlob(g, p string) bool {
	if ok, _ := doublestar.Match(g, p); ok {
		return true
	}
	if !strings.Contains(g, "/") {
		ok, _ := doublestar.Match(g, path.Base(p))
		return ok
	}
	// "dir/" or "dir/**" style: also match everything below a directory.
	ok, _ := doublestar.Match(strings.TrimSuffix(g, "/")+"/**", p)
	return ok
}

// matchName matches a glob against a base name, as doublestar.Match does.
// Most name globs are a word with a star before or after it ("*.pem",
// ".env*", "*_secret*"): those are matched as such, 45 of them per path
// for every file a run looks at, many times faster than doublestar.
// (doublestar compares runes: a text that is not UTF-8 goes to it.)
// nameUTF8 says whether name is UTF-8, which the caller knows once for
// all the globs.
func matchName(glob, name string, nameUTF8 bool) bool {
	word, lead := strings.CutPrefix(glob, "*")
	word, trail := strings.CutSuffix(word, "*")
	if !nameUTF8 || strings.ContainsAny(word, `*?[]{}\/`) || strings.Contains(name, "/") || !utf8.ValidString(word) {
		ok, _ := doublestar.Match(glob, name)
		return ok
	}
	switch {
	case lead && trail:
		return strings.Contains(name, word)
	case lead:
		return strings.HasSuffix(name, word)
	case trail:
		return strings.HasPrefix(name, word)
	}
	return name == word
}

// key states the rules in full, the same for the same rules.
func (r *Rules) key() string {
	var b strings.Builder
	list := func(what string, globs []string) {
		for _, g := range globs {
			fmt.Fprintf(&b, "%s %q\n", what, g)
		}
	}
	list("credentials", r.Credentials)
	for _, d := range slices.Sorted(maps.Keys(r.Dirs)) {
		fmt.Fprintf(&b, "dir %q %q\n", d, r.Dirs[d])
	}
	for _, n := range r.Names {
		fmt.Fprintf(&b, "name %q %q\n", n.glob, n.reason)
	}
	list("include", r.Include)
	list("exclude", r.Exclude)
	list("output-dir", r.Outputs.Dirs)
	list("output-file", r.Outputs.Files)
	return b.String()
}
