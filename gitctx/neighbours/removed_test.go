package neighbours

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

func TestRemovedLines(t *testing.T) {
	line := func(op byte, text string) gitctx.Line { return gitctx.Line{Op: op, Text: text} }
	seed, other := &gitctx.File{Path: "a.go"}, &gitctx.File{Path: "b.go"}
	patches := map[*gitctx.File]*gitctx.Patch{
		seed: {Hunks: []gitctx.Hunk{{Lines: []gitctx.Line{
			line(' ', "\tcontext lines are not removed()"),
			line('-', "\tcfg.LegacyMode = true // old"),
			line('-', "\treturn nil"), // too short
			line('-', "\tmoved := computeTheTotal(x)"),
			line('+', "        moved := computeTheTotal(x)"), // added back, indented anew
			line('-', "\tkey := \"xtF8Rz4WqP2mN9vLk3Jd\" // a token"),
			line('-', "\tpassword = \"Kestrel-2291\""), // sets a credential
			line('-', "\t12345678901234567890"),        // no word
			line('-', "\tcfg.LegacyMode = true // old"),
		}}}},
		other: {Hunks: []gitctx.Hunk{{Lines: []gitctx.Line{line('-', "\tanother file's removed line")}}}},
	}
	got := removedLines([]string{"a.go"}, []*gitctx.File{seed, other}, patches)
	checkEqual(t, "removedLines", got, []string{"cfg.LegacyMode = true // old"})

	dropped := droppedNames([]string{"a.go"}, []*gitctx.File{seed, other}, patches)
	for w, want := range map[string]bool{"LegacyMode": true, "return": true, "computeTheTotal": false, "moved": false, "context": false, "another": false} {
		if dropped[w] != want {
			t.Errorf("droppedNames: %q dropped = %v, want %v (all: %q)", w, dropped[w], want, slices.Sorted(maps.Keys(dropped)))
		}
	}
}

func TestQuotePerl(t *testing.T) {
	for in, want := range map[string]string{
		"cfg.Mode = f(x) // ok": `cfg\.Mode\ \=\ f\(x\)\ \/\/\ ok`,
		`a\b|c[d]`:              `a\\b\|c\[d\]`,
		"naïve_name":            "naïve_name",
	} {
		if got := quotePerl(in); got != want {
			t.Errorf("quotePerl(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFindRemovedText: the files that still hold a line the change
// removes, or still use a name its changed lines stop using, are
// neighbours when few files do, with or without PCRE in git.
func TestFindRemovedText(t *testing.T) {
	r := newTestRepo(t)
	files := map[string]string{
		"app/config.go":    "package app\n\nfunc setup(cfg *Config) {\n\tcfg.EnableLegacyRetries(3)\n\tlegacyDialer()\n\tcfg.Name = \"app\"\n}\n",
		"cli/setup.go":     "package cli\n\nfunc init() {\n\tcfg.EnableLegacyRetries(3)\n}\n",
		"web/server.go":    "package web\n\nfunc start() {\n\tcfg.EnableLegacyRetries(3)\n}\n",
		"lib/helper.go":    "package lib\n\nfunc run() { legacyDialer() }\n",
		"lib/unrelated.go": "package lib\n\nfunc other() {}\n",
	}
	for i := range maxRemovedUsers + 1 {
		files[fmt.Sprintf("many/m%02d.go", i)] = "package many\n\nfunc f() {\n\tcfg.Name = \"app\"\n}\n"
	}
	r.commitEach(files)
	r.Write("app/config.go", "package app\n\nfunc setup(cfg *Config) {\n\tcfg.Retries = 3\n}\n")
	ch := r.selectWorktree()
	for _, noPerl := range []bool{false, true} {
		t.Run(fmt.Sprintf("noPerl=%v", noPerl), func(t *testing.T) {
			ns, _ := find(t, ch, Options{Max: 50, noPerl: noPerl})
			var holds, uses []string
			for _, n := range ns {
				if hasReason(n, "still holds 1 line that the change removes") {
					holds = append(holds, n.Path)
				}
				if hasReason(n, "uses a name that the changed lines stop using") {
					uses = append(uses, n.Path)
				}
				if hasReason(n, "that the change removes") && strings.HasPrefix(n.Path, "many/") {
					t.Errorf("%s holds a removed line that %d files hold", n.Path, maxRemovedUsers+1)
				}
			}
			slices.Sort(holds)
			checkEqual(t, "files holding a removed line", holds, []string{"cli/setup.go", "web/server.go"})
			slices.Sort(uses)
			checkEqual(t, "files using a dropped name", uses, []string{"cli/setup.go", "lib/helper.go", "web/server.go"})
			ranksAbove(t, ns, "lib/helper.go", "lib/unrelated.go")
		})
	}
}

// TestFindKeepsChangeOffCommandLine: the neighbour search of a change that
// replaces a password (the audit's example: the pack redacts both) and
// removes a line gives git neither password, nor any other text of the
// change, on its command line, which any user of the machine can read; the
// file that still holds the removed line is found all the same. GIT_TRACE
// logs each git command's arguments.
func TestFindKeepsChangeOffCommandLine(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"app/db.py":    "def connect():\n    password = \"Kestrel-2291\"\n    policy = legacy_vault_retries(3)\n    return db(password)\n",
		"app/other.py": "x = 1\n",
		"app/twin.py":  "def reconnect():\n    policy = legacy_vault_retries(3)\n",
	})
	r.Write("app/db.py", "def connect():\n    password = \"Marigold!84zz\"\n    return db(password)\n")
	r.Git("commit", "-qam", "rotate")
	ch := r.selectRange("HEAD~1..HEAD")
	trace := filepath.Join(t.TempDir(), "trace")
	t.Setenv("GIT_TRACE", trace)
	for _, noPerl := range []bool{false, true} {
		ns, _ := find(t, ch, Options{Max: 50, noPerl: noPerl})
		if n := neighbour(t, ns, "app/twin.py"); !hasReason(n, "still holds 1 line that the change removes") {
			t.Errorf("noPerl=%v: app/twin.py: %s", noPerl, describe(ns))
		}
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), " grep ") {
		t.Fatalf("GIT_TRACE logged no git grep:\n%s", data)
	}
	for line := range strings.Lines(string(data)) {
		for _, text := range []string{"Kestrel", "Marigold", "legacy_vault_retries"} {
			if strings.Contains(line, text) {
				t.Errorf("a git command line holds %q: %s", text, line)
			}
		}
	}
}
