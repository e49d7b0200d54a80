package neighbours

import (
	"path"
	"slices"
	"strings"
)

// withoutNeighbours drops the guides that were chosen as neighbours: a
// manifest that keeps changing with the change's files (a release's
// package.json beside its changelog) is offered as a neighbour, ranked and
// with its reasons, not twice.
func withoutNeighbours(guides []Guide, ns []Neighbour) []Guide {
	chosen := make(map[string]bool, len(ns))
	for _, n := range ns {
		chosen[n.Path] = true
	}
	return slices.DeleteFunc(guides, func(g Guide) bool { return chosen[g.Path] })
}

// guideNames are the files that say how a project works, in the order
// they are offered.
var guideNames = []string{"AGENTS.md", "CLAUDE.md", "README.md", "README", "README.rst", "CONTRIBUTING.md",
	"go.mod", "package.json", "pyproject.toml", "Cargo.toml", "pom.xml", "build.gradle", "Gemfile", "setup.py"}

// guides lists the guide and manifest files at the repository root (and,
// for the nearest module, beside the changed files), unless changed: at
// most MaxGuidesPerKind of each kind and MaxGuides in all, the root's
// first.
func (f *finder) guides() []Guide {
	var out []Guide
	seen := map[string]bool{}
	perKind := map[string]int{}
	addGuide := func(p, kind, reason string) {
		if len(out) >= f.opts.MaxGuides || perKind[kind] >= f.opts.MaxGuidesPerKind {
			return
		}
		if _, ok := f.files[p]; ok && !seen[p] && !f.changed[p] && !f.skip(p) {
			seen[p] = true
			perKind[kind]++
			out = append(out, Guide{Path: p, Reason: reason})
		}
	}
	for _, n := range guideNames {
		addGuide(n, guideKind(n), "the project's "+guideKind(n))
	}
	for _, s := range f.seeds() {
		for d := path.Dir(s); d != "." && d != "/"; d = path.Dir(d) {
			for _, n := range []string{"README.md", "go.mod", "package.json", "pyproject.toml", "Cargo.toml"} {
				addGuide(d+"/"+n, guideKind(n), "the "+guideKind(n)+" of "+d)
			}
		}
	}
	return out
}

func guideKind(name string) string {
	switch strings.ToLower(name) {
	case "agents.md", "claude.md":
		return "instructions for agents"
	case "contributing.md":
		return "contribution guide"
	case "readme.md", "readme", "readme.rst":
		return "readme"
	}
	return "manifest"
}
