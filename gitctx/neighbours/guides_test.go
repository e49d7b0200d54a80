package neighbours

import "testing"

// TestGuideLimits checks MaxGuides and MaxGuidesPerKind on a repository
// with guide files of every kind at its root, and a readme and a manifest
// beside the changed file: the root's come first, in the order of
// guideNames, and each limit keeps the first found.
func TestGuideLimits(t *testing.T) {
	r := newTestRepo(t)
	files := map[string]string{"sub/x.go": "package sub\n", "sub/README.md": "# sub\n", "sub/go.mod": "module example.com/sub\n"}
	for _, n := range guideNames {
		files[n] = n + "\n"
	}
	r.WriteAll(files)
	r.Commit("guides")
	r.WriteAll(map[string]string{"sub/x.go": "package sub\n\nvar X = 1\n"})
	r.Commit("change")
	ch := r.selectRange("HEAD~1..HEAD")

	for _, tc := range []struct {
		name               string
		maxGuides, perKind int
		want               []string
	}{
		{"defaults: 25 in all, 5 of each kind", 0, 0, []string{
			"AGENTS.md", "CLAUDE.md", "README.md", "README", "README.rst", "CONTRIBUTING.md",
			"go.mod", "package.json", "pyproject.toml", "Cargo.toml", "pom.xml", "sub/README.md"}},
		{"3 in all", 3, 0, []string{"AGENTS.md", "CLAUDE.md", "README.md"}},
		{"1 of each kind", 0, 1, []string{"AGENTS.md", "README.md", "CONTRIBUTING.md", "go.mod"}},
		{"2 of each kind, 5 in all", 5, 2, []string{"AGENTS.md", "CLAUDE.md", "README.md", "README", "CONTRIBUTING.md"}},
		{"6 in all, as before the limits were options", 6, 100, []string{
			"AGENTS.md", "CLAUDE.md", "README.md", "README", "README.rst", "CONTRIBUTING.md"}},
		{"no effective limit", 100, 100, []string{
			"AGENTS.md", "CLAUDE.md", "README.md", "README", "README.rst", "CONTRIBUTING.md",
			"go.mod", "package.json", "pyproject.toml", "Cargo.toml", "pom.xml", "build.gradle", "Gemfile", "setup.py",
			"sub/README.md", "sub/go.mod"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, guides := find(t, ch, Options{GuidesOnly: true, MaxGuides: tc.maxGuides, MaxGuidesPerKind: tc.perKind})
			checkEqual(t, "guides", guidePaths(guides), tc.want)
		})
	}
}
