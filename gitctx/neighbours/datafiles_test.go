package neighbours

import (
	"fmt"
	"path"
	"testing"
)

func TestIsDataFile(t *testing.T) {
	for p, want := range map[string]bool{
		"pkg/cmd/run/view/fixtures/run_log.zip": true,
		"testdata/config/simple.toml":           true,
		"internal/x/testdata/a/b/main.tf":       true,
		"src/__snapshots__/app.test.ts.snap":    true,
		"test/Fixtures/list.jade":               true,
		"pkg/cmd/run/view/view.go":              false,
		"fixtures.go":                           false,
		"docs/testdata.md":                      false,
		"internal/golden_test.go":               false,
	} {
		if got := isDataFile(p); got != want {
			t.Errorf("isDataFile(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestDataFileNamers: the files that name a changed fixture by its file
// name are its neighbours, a test as its paired test; a name that many
// files use says nothing, and a file that is not test data is not
// searched for.
func TestDataFileNamers(t *testing.T) {
	r := newTestRepo(t)
	files := map[string]string{
		"view/view.go":               "package view\n\nfunc Show() {}\n",
		"view/view_test.go":          "package view\n\nvar log = \"fixtures/run_log.json\"\n",
		"view/fixtures/run_log.json": "{\"steps\": 1}\n",
		"docs/usage.md":              "See view/fixtures/run_log.json for a sample.\n",
		"view/fixtures/common.json":  "{}\n",
		"settings.toml":              "name = 1\n",
		"tools/read_settings.py":     "open('settings.toml')\n",
	}
	for i := range maxNamers + 1 {
		files[fmt.Sprintf("use/use%02d.go", i)] = "package use\n\nconst f = \"common.json\"\n"
	}
	r.commitEach(files)

	for _, tc := range []struct {
		name, changed string
		want          []string // neighbours with a reason that names the changed file, in order
	}{
		{"a fixture", "view/fixtures/run_log.json", []string{"view/view_test.go", "docs/usage.md"}},
		{"a fixture named in too many files", "view/fixtures/common.json", nil},
		{"not test data", "settings.toml", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.Write(tc.changed, files[tc.changed]+"\n")
			t.Cleanup(func() { r.Write(tc.changed, files[tc.changed]) })
			ns, _ := find(t, r.selectWorktree(), Options{Max: 50})
			var got []string
			for _, n := range ns {
				if hasReason(n, "names the changed file "+tc.changed) {
					got = append(got, n.Path)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("files naming %s: got %q, want %q\n%s", tc.changed, got, tc.want, describe(ns))
			}
			if len(tc.want) > 0 {
				if n := neighbour(t, ns, tc.want[0]); !hasReason(n, "a test that names the changed file "+tc.changed) || n.Score < tierTest {
					t.Errorf("%s: want it ranked as the fixture's test\n%s", tc.want[0], describe(ns))
				}
			}
		})
	}
}

// TestQuietSeeds: a changed file that is never shown (a binary fixture)
// still leads to the files that change with it and the test that names
// it, when Options.Quiet says so; and to nothing when it does not.
func TestQuietSeeds(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"view/view.go":              "package view\n\nfunc Show() {}\n",
		"view/view_test.go":         "package view\n\nvar log = \"fixtures/run_log.zip\"\n",
		"view/fixtures/run_log.zip": "PK\x03\x04\x00",
		"other/other.go":            "package other\n",
	})
	for i := range 2 {
		r.WriteAll(map[string]string{
			"view/view.go":              fmt.Sprintf("package view\n\nfunc Show() { _ = %d }\n", i),
			"view/fixtures/run_log.zip": fmt.Sprintf("PK\x03\x04\x00%d", i),
		})
		r.Commit("new log format")
	}
	r.Write("view/fixtures/run_log.zip", "PK\x03\x04\x00\x09")
	zip := func(p string) bool { return path.Ext(p) == ".zip" }

	ns, _ := find(t, r.selectWorktree(), Options{Max: 50, Skip: zip})
	if len(ns) != 0 {
		t.Errorf("without Quiet: got neighbours of a skipped file\n%s", describe(ns))
	}
	ns, _ = find(t, r.selectWorktree(), Options{Max: 50, Skip: zip, Quiet: zip})
	if n := neighbour(t, ns, "view/view_test.go"); !hasReason(n, "a test that names the changed file view/fixtures/run_log.zip") {
		t.Errorf("view_test.go: want the reason that it names the fixture\n%s", describe(ns))
	}
	if n := neighbour(t, ns, "view/view.go"); !hasReasonMatching(n, "changed together .* in 2 earlier commits") {
		t.Errorf("view.go: want its history with the fixture\n%s", describe(ns))
	}
	if rank(ns, "other/other.go") >= 0 {
		t.Errorf("other/other.go is unrelated\n%s", describe(ns))
	}
}

// TestDataFileNamersManyFiles: a change of more data files than
// maxDataSeeds searches for none of their names.
func TestDataFileNamersManyFiles(t *testing.T) {
	r := newTestRepo(t)
	files := map[string]string{}
	var names string
	for i := range maxDataSeeds + 1 {
		name := fmt.Sprintf("case%02d.json", i)
		files["testdata/"+name] = "{}\n"
		names += "\"" + name + "\"\n"
	}
	files["cases_test.go"] = "package cases\n\nvar cases = []string{\n" + names + "}\n"
	r.commitEach(files)
	for p, c := range files {
		if path.Dir(p) == "testdata" {
			r.Write(p, c+"\n")
		}
	}
	ns, _ := find(t, r.selectWorktree(), Options{Max: 50})
	for _, n := range ns {
		if hasReason(n, "names the changed file") {
			t.Errorf("%s: a change of %d data files should search for none of them\n%s", n.Path, maxDataSeeds+1, describe(ns))
		}
	}
	// One file fewer, and the test is found.
	r.Write("testdata/case00.json", files["testdata/case00.json"])
	ns, _ = find(t, r.selectWorktree(), Options{Max: 50})
	if n := neighbour(t, ns, "cases_test.go"); !hasReason(n, "a test that names the changed file testdata/case01.json") {
		t.Errorf("cases_test.go: want it found by the data files' names\n%s", describe(ns))
	}
}

// TestSnapshotNeighbour: a changed snapshot's first neighbour is the test
// that writes it, though the test never names it.
func TestSnapshotNeighbour(t *testing.T) {
	r := newTestRepo(t)
	snap := "web/__snapshots__/cart.test.ts.snap"
	r.commitEach(map[string]string{
		"web/cart.ts":      "export function total() { return 1 }\n",
		"web/cart.test.ts": "import { total } from './cart'\ntest('total', () => expect(total()).toMatchSnapshot())\n",
		"web/other.ts":     "export const x = 1\n",
		snap:               "exports[`total 1`] = `1`;\n",
	})
	r.Write(snap, "exports[`total 1`] = `2`;\n")
	ns, _ := find(t, r.selectWorktree(), Options{Max: 50})
	if len(ns) == 0 || ns[0].Path != "web/cart.test.ts" || !hasReason(ns[0], "the test whose snapshot "+snap+" changed") {
		t.Errorf("want web/cart.test.ts first, as the test whose snapshot changed\n%s", describe(ns))
	}
}

// TestDataFileNamersLargeChange: a change of more than maxDataChange files
// does not search for its data files' names (a search of every file).
func TestDataFileNamersLargeChange(t *testing.T) {
	r := newTestRepo(t)
	files := map[string]string{
		"testdata/case.json": "{}\n",
		"case_test.go":       "package cases\n\nvar c = \"case.json\"\n",
	}
	for i := range maxDataChange {
		files[fmt.Sprintf("src/f%02d.go", i)] = "package src\n"
	}
	r.commitEach(files)
	r.Write("testdata/case.json", "{\"x\": 1}\n")
	for i := range maxDataChange - 1 {
		r.Write(fmt.Sprintf("src/f%02d.go", i), "package src\n\n// changed\n")
	}
	ns, _ := find(t, r.selectWorktree(), Options{Max: 100})
	if n := neighbour(t, ns, "case_test.go"); !hasReason(n, "a test that names the changed file testdata/case.json") {
		t.Fatalf("a change of %d files: want the fixture's test found by its name\n%s", maxDataChange, describe(ns))
	}
	r.Write(fmt.Sprintf("src/f%02d.go", maxDataChange-1), "package src\n\n// changed\n")
	ns, _ = find(t, r.selectWorktree(), Options{Max: 100})
	for _, n := range ns {
		if hasReason(n, "names the changed file") {
			t.Errorf("%s: a change of %d files should not search for its data files' names\n%s", n.Path, maxDataChange+1, describe(ns))
		}
	}
}
