package neighbours

import (
	"slices"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// TestLockOfManifest checks that a changed manifest's lock file (its own,
// or its workspace's above it) is its first neighbour, with the package
// names of the manifest's changed lines, and that a lock file is never a
// neighbour otherwise, nor when the change changes it too.
func TestLockOfManifest(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{
		"go.mod":                "module example.com/app\n\ngo 1.22\n\nrequire example.com/a v1.0.0\n",
		"go.sum":                "example.com/a v1.0.0 h1:x=\n",
		"main.go":               "package main\n",
		"Cargo.toml":            "[workspace]\nmembers = [\"crates/x\"]\n",
		"Cargo.lock":            "version = 3\n",
		"crates/x/Cargo.toml":   "[package]\nname = \"xtool\"\n\n[dependencies]\nserde = \"1.0.1\"\n",
		"crates/x/src/lib.rs":   "pub fn f() {}\n",
		"web/package.json":      "{\"dependencies\": {\"lodash\": \"4.17.20\"}}\n",
		"web/package-lock.json": "{}\n",
		"ui/package.json":       "{\"dependencies\": {\"vitest\": \"catalog:\"}}\n",
		"pnpm-workspace.yaml":   "packages:\n  - ui\ncatalog:\n  vitest: ^2.0.0\n",
		"pnpm-lock.yaml":        "lockfileVersion: '9.0'\n",
	})
	r.Commit("base")
	r.commitEach(map[string]string{"main.go": "package main\n\nfunc main() {}\n", "go.sum": "example.com/a v1.0.0 h1:x=\n\n"})

	for _, tc := range []struct {
		name   string
		files  map[string]string
		lock   string
		focus  []string
		absent []string
	}{
		{"go.mod", map[string]string{"go.mod": "module example.com/app\n\ngo 1.22\n\nrequire example.com/a v1.1.0 // indirect\n"},
			"go.sum", []string{"example.com/a"}, nil},
		{"a workspace member's Cargo.toml", map[string]string{"crates/x/Cargo.toml": "[package]\nname = \"xtool\"\n\n[dependencies]\nserde = { version = \"1.0.2\", features = [\"derive\"] }\n"},
			"Cargo.lock", []string{"xtool", "serde", "derive"}, nil},
		{"a crate's version bump: its own entry", map[string]string{"crates/x/Cargo.toml": "[package]\nname = \"xtool\"\nversion = \"0.2.0\"\n\n[dependencies]\nserde = \"1.0.1\"\n"},
			"Cargo.lock", []string{"xtool"}, nil},
		{"package.json", map[string]string{"web/package.json": "{\"dependencies\": {\"lodash\": \"4.17.21\", \"@babel/core\": \"^7\"}}\n"},
			"web/package-lock.json", []string{"lodash", "@babel/core"}, nil},
		{"pnpm-workspace.yaml's catalog", map[string]string{"pnpm-workspace.yaml": "packages:\n  - ui\ncatalog:\n  vitest: ^3.0.0\n"},
			"pnpm-lock.yaml", []string{"vitest"}, nil},
		{"code beside go.mod: no lock", map[string]string{"main.go": "package main\n\nfunc main() { println() }\n"},
			"", nil, []string{"go.sum"}},
		{"go.mod and go.sum both changed: go.sum is in the diff", map[string]string{
			"go.mod": "module example.com/app\n\ngo 1.23\n\nrequire example.com/a v1.0.0\n", "go.sum": "example.com/a v1.0.0 h1:y=\n"},
			"", nil, []string{"go.sum"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.WriteAll(tc.files)
			r.Git("add", "-A")
			r.Commit(tc.name)
			defer r.Git("reset", "-q", "--hard", "HEAD~1")
			ch := r.selectRange("HEAD~1..HEAD")
			ns, _ := find(t, ch, Options{})
			absent(t, ns, tc.absent...)
			if tc.lock == "" {
				for _, n := range ns {
					if n.Lock {
						t.Errorf("%s is offered as a lock file:\n%s", n.Path, describe(ns))
					}
				}
				return
			}
			if len(ns) == 0 || ns[0].Path != tc.lock || !ns[0].Lock {
				t.Fatalf("neighbours:\n%s\nwant %s first, as a lock file", describe(ns), tc.lock)
			}
			if !slices.Equal(ns[0].Focus, tc.focus) {
				t.Errorf("focus %q, want %q", ns[0].Focus, tc.focus)
			}
		})
	}
}

func TestNamesPackage(t *testing.T) {
	for line, want := range map[string]bool{
		`name = "ripgrep"`: true, `  "name": "app",`: true, `name="x"`: true,
		`names = ["a"]`: false, `"named": "x"`: false, `version = "1"`: false, `# name = "x"`: false,
	} {
		if got := namesPackage(line); got != want {
			t.Errorf("namesPackage(%q) = %t, want %t", line, got, want)
		}
	}
}

func TestFocusNames(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  []string
	}{
		{[]string{"\tgithub.com/a/b v1.2.3 // indirect", "require golang.org/x/net v0.1.0", "go 1.22", "toolchain go1.22.1"},
			[]string{"github.com/a/b", "golang.org/x/net", "go1.22.1"}}, // no harm: no lock names it
		{[]string{`serde = { version = "1.0", features = ["derive"] } # why`, `[dependencies.tokio]`},
			[]string{"serde", "derive", "tokio"}},
		{[]string{`    "@types/node": "^20.1.0",`, `    "lodash": "4.17.21"`, `  "devDependencies": {`},
			[]string{"@types/node", "lodash"}},
		{[]string{`    "requests>=2.31",`, `"rich[jupyter]==13.0",`}, []string{"requests", "rich", "jupyter"}},
		{[]string{"1.2.3", "v2", "=", "@"}, nil},
	} {
		if got := focusNames(tc.lines); !slices.Equal(got, tc.want) {
			t.Errorf("focusNames(%q) = %q, want %q", tc.lines, got, tc.want)
		}
	}
}

// TestLocksWaitNotForPatches: the lock step chooses a manifest's lock
// without the patches, so that the signals after it do not wait for the
// diff; focusLocks, after them, reads the patches for the lock's focus.
func TestLocksWaitNotForPatches(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{"go.mod": "module example.com/app\n\nrequire example.com/a v1.0.0\n", "go.sum": "x\n"})
	r.Commit("base")
	r.WriteAll(map[string]string{"go.mod": "module example.com/app\n\nrequire example.com/a v1.1.0\n"})
	r.Commit("bump")
	ch := r.selectRange("HEAD~1..HEAD")
	patches := allPatches(t, ch)
	waited := 0
	opts := Options{Skip: func(string) bool { return false }, WaitPatches: func() (map[*gitctx.File]*gitctx.Patch, error) {
		waited++
		return patches, nil
	}}
	f := &finder{ch: ch, opts: opts, cands: map[string]*candidate{}, files: map[string]gitctx.TreeEntry{}, changed: map[string]bool{"go.mod": true}, skipped: map[string]bool{}}
	tree, err := ch.Tree(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range tree {
		f.files[e.Path] = e
	}
	if err := f.locks(t.Context()); err != nil {
		t.Fatal(err)
	}
	c := f.cands["go.sum"]
	if c == nil || !c.lock || waited != 0 {
		t.Fatalf("after locks: go.sum %+v, patches waited for %d times; want the lock chosen without them", c, waited)
	}
	if err := f.focusLocks(t.Context()); err != nil {
		t.Fatal(err)
	}
	if waited != 1 || !slices.Equal(c.focus, []string{"example.com/a"}) {
		t.Errorf("after focusLocks: focus %q, patches waited for %d times; want example.com/a, once", c.focus, waited)
	}
}
