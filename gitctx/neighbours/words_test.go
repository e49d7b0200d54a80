package neighbours

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// wordsRepo is a repository of 30 unrelated Python modules, each committed
// on its own, so that the only link between two of them is the words they
// use: every module says `return` and `value`.
func wordsRepo(t *testing.T, extra map[string]string) *testRepo {
	t.Helper()
	r := newTestRepo(t)
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("pkg/mod%02d.py", i)] = fmt.Sprintf("def f%02d(value):\n    return value\n", i)
	}
	for p, s := range extra {
		files[p] = s
	}
	r.commitEach(files)
	return r
}

// TestFindSharedWords: a file that uses an uncommon word of the changed
// lines is a neighbour, with a reason that says so and names no word (a
// guide file too); the file that uses more uncommon words ranks higher;
// words every file uses make nobody a neighbour.
func TestFindSharedWords(t *testing.T) {
	r := wordsRepo(t, map[string]string{
		"app/routing.py":          "def include(router):\n    return router\n",
		"tests/test_events.py":    "def test_nested():\n    # nested\n    assert merge_lifespan(outer_lifespan, inner_lifespan)\n",
		"docs/lifespan.md":        "Pass a lifespan to the router.\n",
		"README.md":               "Nested apps: see merge_lifespan.\n",
		"tests/test_unrelated.py": "def test_value(value):\n    return value\n",
	})
	r.WriteAll(map[string]string{"app/routing.py": "def include(router, value):\n" +
		"    # merge the nested lifespan into the outer_lifespan\n    return merge_lifespan(router.lifespan, value)\n"})
	for _, noPerl := range []bool{false, true} {
		t.Run(fmt.Sprintf("noPerl=%v", noPerl), func(t *testing.T) {
			ns, _ := find(t, r.selectWorktree(), Options{Max: 50, noPerl: noPerl})
			checkSharedWords(t, ns)
		})
	}
}

func checkSharedWords(t *testing.T, ns []Neighbour) {
	t.Helper()
	events := neighbour(t, ns, "tests/test_events.py")
	if !hasReason(events, "shares 3 uncommon words with the changed lines") {
		t.Errorf("test_events.py reasons %q do not say it shares three uncommon words", events.Reasons)
	}
	for _, reason := range events.Reasons {
		if strings.Contains(reason, "lifespan") {
			t.Errorf("reason %q names a word of the changed lines", reason)
		}
	}
	// its uncommon words, the rarest first (merge_lifespan is also in
	// README.md), for the pack's excerpt of it
	if want := []string{"nested", "outer_lifespan", "merge_lifespan"}; !slices.Equal(events.Names, want) {
		t.Errorf("test_events.py keeps %q for its excerpt, want %q", events.Names, want)
	}
	neighbour(t, ns, "docs/lifespan.md")
	neighbour(t, ns, "README.md") // a guide, and a neighbour for its words
	ranksAbove(t, ns, "tests/test_events.py", "docs/lifespan.md")
	absent(t, ns, "tests/test_unrelated.py", "pkg/mod00.py")
}

// TestFindSharedWordsLargeChange: a change of more than maxWordSeeds
// files searches for no words.
func TestFindSharedWordsLargeChange(t *testing.T) {
	extra := map[string]string{"tests/test_events.py": "def test_nested():\n    assert lifespan\n"}
	edits := map[string]string{}
	for i := range maxWordSeeds + 1 {
		p := fmt.Sprintf("app/a%d.py", i)
		extra[p] = "def a():\n    pass\n"
		edits[p] = "def a():\n    lifespan\n"
	}
	r := wordsRepo(t, extra)
	r.WriteAll(edits)
	ns, _ := find(t, r.selectWorktree(), Options{Max: 50})
	absent(t, ns, "tests/test_events.py")
}

// TestFindSharedWordsLargeRepository: in a repository of more than
// maxWordsEverywhere files, the words are searched only in the files that
// can name the changed files' symbols: a Go change's words in Go files
// and documents, not in JSON.
func TestFindSharedWordsLargeRepository(t *testing.T) {
	r := wordsRepo(t, map[string]string{
		"app/routing.go":      "package app\n\nfunc Include() {}\n",
		"app/events_test.go":  "package app\n\n// lifespan_merge\n",
		"fixtures/event.json": "{\"lifespan_merge\": true}\n",
	})
	r.WriteAll(map[string]string{"app/routing.go": "package app\n\nfunc Include() { lifespan_merge() }\n"})
	for _, tc := range []struct {
		everywhere int
		json       bool
	}{{0, true}, {10, false}} {
		ns, _ := find(t, r.selectWorktree(), Options{Max: 50, wordsEverywhere: tc.everywhere})
		if n := neighbour(t, ns, "app/events_test.go"); !hasReason(n, "shares 1 uncommon word") {
			t.Errorf("events_test.go reasons %q do not say it shares a word", n.Reasons)
		}
		if got := rank(ns, "fixtures/event.json") >= 0; got != tc.json {
			t.Errorf("with %d files searched everywhere, fixtures/event.json a neighbour: %v, want %v", cmp.Or(tc.everywhere, maxWordsEverywhere), got, tc.json)
		}
	}
}

func TestChangedWords(t *testing.T) {
	line := func(op byte, text string) gitctx.Line { return gitctx.Line{Op: op, Text: text} }
	seed := &gitctx.File{Path: "a.go"}
	other := &gitctx.File{Path: "b.go"}
	patches := map[*gitctx.File]*gitctx.Patch{
		seed: {Hunks: []gitctx.Hunk{{Lines: []gitctx.Line{
			line(' ', "context words are not the change's"),
			line('-', "oldName(2024, abc)"),
			line('+', "newName := 2024abc + xtF8Rz4WqP2mN9vLk3Jd + oldName"),
		}}}},
		other: {Hunks: []gitctx.Hunk{{Lines: []gitctx.Line{line('+', "otherWord")}}}},
	}
	got := changedWords([]string{"a.go"}, []*gitctx.File{seed, other}, patches)
	checkEqual(t, "changedWords", got, []string{"oldName", "newName"})

	var many []gitctx.Line
	for i := range 2 * maxWords {
		many = append(many, line('+', fmt.Sprintf("word%03d", i)))
	}
	patches = map[*gitctx.File]*gitctx.Patch{seed: {Hunks: []gitctx.Hunk{{Lines: many}}}}
	got = changedWords([]string{"a.go"}, []*gitctx.File{seed}, patches)
	if len(got) != maxWords || got[0] != "word000" || got[maxWords-1] != fmt.Sprintf("word%03d", maxWords-1) {
		t.Errorf("changedWords of %d words = %d words %q…, want the first %d", 2*maxWords, len(got), got[:3], maxWords)
	}

	// the names past the first maxWords words are counted too (namesBeyond)
	many = append(many, line('+', "if diags.HasErrors() && word001Name(otherName) {"))
	patches = map[*gitctx.File]*gitctx.Patch{seed: {Hunks: []gitctx.Hunk{{Lines: many}}},
		other: {Hunks: []gitctx.Hunk{{Lines: []gitctx.Line{line('+', "ElsewhereName()")}}}}}
	words := changedWords([]string{"a.go"}, []*gitctx.File{seed, other}, patches)
	got = namesBeyond(words, []string{"a.go"}, []*gitctx.File{seed, other}, patches)
	checkEqual(t, "namesBeyond", got, []string{"HasErrors", "word001Name", "otherName"})
	got = namesBeyond(append(words, "HasErrors"), []string{"a.go"}, []*gitctx.File{seed, other}, patches)
	checkEqual(t, "namesBeyond, HasErrors a word", got, []string{"word001Name", "otherName"})
}

// TestMaskCredentials: the value a line gives a name that says it is a
// credential, and a URL's password, are blanked out; the other words, and
// the line's length, are kept.
func TestMaskCredentials(t *testing.T) {
	for in, want := range map[string]string{
		`password = "Kestrel-2291"`:                     `password = "            "`,
		`Cloud{Host: "example.com", Token: "secret"}`:   `Cloud{Host: "example.com", Token: "      "}`,
		`['api_key' => 'sk-live-1']`:                    `['api_key' => '         ']`,
		`DB_PASSWORD: "Marigold!84zz" # prod`:           `DB_PASSWORD: "             " # prod`,
		`url := "https://ada:Kestrel@example.com/repo"`: `url := "https://ada:       @example.com/repo"`,
		`token := lexer.Next()`:                         `token := lexer.Next()`,
		`if password == "" {`:                           `if password == "" {`,
		`name = "FooBar" // a token of esteem`:          `name = "FooBar" // a token of esteem`,
	} {
		if got := string(maskCredentials(in)); got != want {
			t.Errorf("maskCredentials(%q) = %q, want %q", in, got, want)
		}
	}

	line := func(op byte, text string) gitctx.Line { return gitctx.Line{Op: op, Text: text} }
	seed := &gitctx.File{Path: "a.go"}
	patches := map[*gitctx.File]*gitctx.Patch{seed: {Hunks: []gitctx.Hunk{{Lines: []gitctx.Line{
		line('-', `dbPassword := "MarigoldKestrel"`),
		line('+', `dbPassword := os.Getenv("DB_PASSWORD")`),
	}}}}}
	got := changedWords([]string{"a.go"}, []*gitctx.File{seed}, patches)
	checkEqual(t, "changedWords", got, []string{"dbPassword", "Getenv", "DB_PASSWORD"})
	checkEqual(t, "usedIn", usedIn(patches[seed], maxUsed), []string{"dbPassword", "DB_PASSWORD"})
}

func TestWordRarity(t *testing.T) {
	uses := map[string]map[string]int{
		"a": {"rare": 1, "common": 3},
		"b": {"common": 1},
		"c": {"common": 1},
	}
	users := countUsers(uses)
	rarity := wordRarity(users, 10)
	checkEqual(t, "users", users, map[string]int{"rare": 1, "common": 3})
	want := math.Log(1 + 9.5/1.5)
	if math.Abs(rarity["rare"]-want) > 1e-9 {
		t.Errorf("rarity of a word one file of 10 uses = %v, want %v", rarity["rare"], want)
	}
	if !(rarity["rare"] > rarity["common"] && rarity["common"] > 0) {
		t.Errorf("rarity = %v, want rare > common > 0", rarity)
	}
}

// TestSearchWords: the uses of each word in each file, with and without
// PCRE, counted in the work tree for the files it holds as the range's
// head has them and in the commit for the others; files and words with no
// use are left out.
func TestSearchWords(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{
		"a.txt":     "alpha beta alpha\nalphabet\n",
		"sub/b.txt": "beta\ngamma beta beta\n",
		"c.txt":     "nothing here\n",
	})
	r.Git("add", ".")
	r.Git("commit", "-q", "-m", "one")
	r.WriteAll(map[string]string{"c.txt": "gamma now\n"})
	r.Git("commit", "-q", "-am", "two")
	r.WriteAll(map[string]string{"c.txt": "edited in the work tree\n"}) // the commit is searched for it
	ch := r.selectRange("HEAD~1..HEAD")
	want := map[string]map[string]int{
		"a.txt":     {"alpha": 2, "beta": 1},
		"sub/b.txt": {"beta": 3, "gamma": 1},
		"c.txt":     {"gamma": 1},
	}
	for _, noPerl := range []bool{false, true} {
		got, err := searchWords(t.Context(), ch, nil, []string{"alpha", "beta", "gamma", "delta"}, noPerl)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("noPerl=%t: %v, want %v", noPerl, got, want)
		}
	}
}

// vendoredWordsRepo is wordsRepo with a change whose line starts using
// merge_lifespan, a page that names it, users more project files that use
// it, and 40 vendored modules under dir whose code is vendored.
func vendoredWordsRepo(t *testing.T, users int, dir, vendored string) *testRepo {
	t.Helper()
	extra := map[string]string{
		"app/routing.py": "def include(router):\n    return router\n",
		"docs/nested.md": "Nested apps: see merge_lifespan.\n",
	}
	for i := range users {
		extra[fmt.Sprintf("app/use%d.py", i)] = "merge_lifespan\n"
	}
	for i := range 40 {
		extra[fmt.Sprintf("%s/lib%02d/merge.py", dir, i)] = vendored
	}
	r := wordsRepo(t, extra)
	r.WriteAll(map[string]string{"app/routing.py": "def include(router):\n    return merge_lifespan(router, router)\n"})
	return r
}

func inVendor(p string) bool { return gitctx.InDirNamed(p, []string{"vendor"}) }

// TestFindSharedWordsPastSkippedDirs: a word is uncommon or not among the
// files that may be chosen. Forty vendored copies of a library that use
// it, never chosen, do not make it common when Options.SkipDirs names
// their directory (nor are they read); without it they do.
func TestFindSharedWordsPastSkippedDirs(t *testing.T) {
	r := vendoredWordsRepo(t, 0, "Vendor", "def merge_lifespan(a, b):\n    return a\n")
	ns, _ := find(t, r.selectWorktree(), Options{Max: 50, Skip: inVendor, SkipDirs: []string{"vendor"}})
	docs := neighbour(t, ns, "docs/nested.md")
	if !hasReason(docs, "shares 1 uncommon word with the changed lines") {
		t.Errorf("docs/nested.md reasons %q do not say it shares an uncommon word", docs.Reasons)
	}

	ns, _ = find(t, r.selectWorktree(), Options{Max: 50, Skip: inVendor})
	absent(t, ns, "docs/nested.md")
}

// TestFindSharedWordsShareOfSearched: a word's share is of the files
// searched: used in 5 of the 35 files outside the vendored directory, it
// is common, however many vendored files there are beside them.
func TestFindSharedWordsShareOfSearched(t *testing.T) {
	r := vendoredWordsRepo(t, 3, "vendor", "def merge(a, b):\n    return a\n")
	ns, _ := find(t, r.selectWorktree(), Options{Max: 50, Skip: inVendor, SkipDirs: []string{"vendor"}})
	absent(t, ns, "docs/nested.md")
}
