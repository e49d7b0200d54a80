package main

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/gitctx/gitctx/pack"
)

// codeDirNames are the directory names the default exclusions leave out
// that projects also give packages of their own code: a Go package logs,
// an env package, build scripts. vendor, node_modules and the caches are
// left out of the hint: code under them is someone else's.
func codeDirNames() []string { return []string{"logs", "env", "build", "out", "target", "coverage"} }

// sourceExts are the extensions of source code, for the hint: a .log
// under logs/ is what the exclusion is for.
func sourceExts() []string {
	return []string{".go", ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".svelte", ".vue",
		".rs", ".java", ".kt", ".scala", ".rb", ".php", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".swift",
		".ex", ".exs", ".dart", ".sh", ".lua", ".zig"}
}

// packedHint counts, by directory name, the changed source files the
// default exclusions left out by a name that projects also use for their
// own code, and says how to pack them; "" when there are none, or when
// the names are the user's own excluded_directories.
func packedHint(rec *pack.Record, rules pack.Rules, userDirs []string) string {
	counts := map[string]int{}
	for _, f := range rec.Files {
		dirReason := f.ExclusionReason == pack.ReasonPatternMatch || f.ExclusionReason == pack.ReasonBuildOutput || f.ExclusionReason == pack.ReasonDependencyDir
		if f.Role != pack.RoleChanged || f.Included || !dirReason ||
			!slices.Contains(sourceExts(), strings.ToLower(path.Ext(f.Path))) {
			continue
		}
		d := strings.ToLower(rules.ExcludingDir(f.Path))
		if slices.Contains(codeDirNames(), d) && !slices.ContainsFunc(userDirs, func(u string) bool { return strings.EqualFold(strings.Trim(u, "/"), d) }) {
			counts[d]++
		}
	}
	if len(counts) == 0 {
		return ""
	}
	var names, parts []string
	for _, d := range codeDirNames() {
		if n := counts[d]; n > 0 {
			names = append(names, d)
			parts = append(parts, fmt.Sprintf("%d under %s/", n, d))
		}
	}
	return fmt.Sprintf("gitctx: note: changed source files left out by a default directory name (%s); if that is your own code, packed_directories: [%s] in .gitctx.yml packs it",
		strings.Join(parts, ", "), strings.Join(names, ", "))
}
