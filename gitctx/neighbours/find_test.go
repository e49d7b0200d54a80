package neighbours

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// shopFiles is a small Go module. price/price.go is the file the tests
// change; around it:
//
//   - price/price_test.go, its test;
//   - money/money.go defines the names price.go uses from package money,
//     money/format.go defines none of them;
//   - cart/cart.go imports package price and uses Total, which price.go
//     defines; report/report.go imports package price but uses only
//     Discount, defined by price/discount.go;
//   - price/discount.go, a sibling and nothing else;
//   - the guides README.md, AGENTS.md, go.mod and package.json.
var shopFiles = map[string]string{
	"go.mod":       "module example.com/shop\n\ngo 1.22\n",
	"README.md":    "# shop\n",
	"AGENTS.md":    "Run go test ./...\n",
	"package.json": "{\"name\": \"shop-web\"}\n",
	"price/price.go": `package price

import "example.com/shop/money"

// Total adds up the items.
func Total(items []int) money.Amount {
	return money.Sum(items)
}
`,
	"price/price_test.go": `package price

import "testing"

func TestTotal(t *testing.T) {
	if Total([]int{1, 2}) != 3 {
		t.Fatal("wrong")
	}
}
`,
	"price/discount.go": "package price\n\nfunc Discount() int { return 1 }\n",
	"money/money.go": `package money

type Amount int

func Sum(xs []int) Amount {
	var a Amount
	for _, x := range xs {
		a += Amount(x)
	}
	return a
}
`,
	"money/format.go": "package money\n\nimport \"fmt\"\n\nfunc Format(a Amount) string { return fmt.Sprint(int(a)) }\n",
	"cart/cart.go": `package cart

import "example.com/shop/price"

func Checkout(items []int) int { return int(price.Total(items)) }
`,
	"report/report.go": `package report

import "example.com/shop/price"

func Report() int { return price.Discount() }
`,
	"ledger/ledger.go": "package ledger\n\n// Entries are kept in order.\nvar entries []int\n",
}

// priceChange is the new price/price.go: Total's body changes.
const priceChange = `package price

import "example.com/shop/money"

// Total adds up the items, with the discount.
func Total(items []int) money.Amount {
	return money.Sum(items) - money.Amount(Discount())
}
`

// newShop builds the shop with a history: every file added on its own
// (so the additions say nothing about co-change), then ledger/ledger.go
// changed together with price/price.go in three small commits, then one
// big commit of price/price.go and nine files of bulk/.
func newShop(t *testing.T) *testRepo {
	t.Helper()
	r := newTestRepo(t)
	r.commitEach(shopFiles)
	for i := range 3 {
		r.WriteAll(map[string]string{
			"price/price.go":   shopFiles["price/price.go"] + strings.Repeat("\n", i+1),
			"ledger/ledger.go": shopFiles["ledger/ledger.go"] + strings.Repeat("\n", i+1),
		})
		r.Commit("price and ledger together")
	}
	bulk := map[string]string{"price/price.go": shopFiles["price/price.go"]}
	for i := range 9 {
		bulk["bulk/b"+string(rune('0'+i))+".go"] = "package bulk\n"
	}
	r.WriteAll(bulk)
	r.Commit("a big sweep")
	return r
}

// TestFindGoChange checks the ranking promises of the package comment on a
// Go change: the paired test above everything else, importers, imported
// files and co-changed files above a bare sibling; importers only when
// they use what the changed file defines, imported files only when they
// define what it uses.
//
// It runs twice: with git's Perl-compatible grep, and as a git built
// without it would (the references then found by fixed words).
func TestFindGoChange(t *testing.T) {
	r := newShop(t)
	r.WriteAll(map[string]string{"price/price.go": priceChange})
	r.Commit("discounted totals")
	ch := r.selectRange("HEAD~1..HEAD")
	for _, noPerl := range []bool{false, true} {
		t.Run(fmt.Sprintf("noPerl=%v", noPerl), func(t *testing.T) {
			checkGoChange(t, ch, noPerl)
		})
	}
}

func checkGoChange(t *testing.T, ch *gitctx.Change, noPerl bool) {
	ns, guides := find(t, ch, Options{Max: 50, noPerl: noPerl})

	test := neighbour(t, ns, "price/price_test.go")
	if !hasReason(test, "test") {
		t.Errorf("price_test.go reasons %q do not say it is the test", test.Reasons)
	}
	if !hasReason(neighbour(t, ns, "cart/cart.go"), "price/price.go") {
		t.Errorf("cart.go reasons do not name price/price.go:\n%s", describe(ns))
	}
	neighbour(t, ns, "money/money.go")
	ledger := neighbour(t, ns, "ledger/ledger.go")
	if !hasReasonMatching(ledger, `\b3\b.*commit`) {
		t.Errorf("ledger.go reasons %q do not give the 3 commits it shared", ledger.Reasons)
	}
	neighbour(t, ns, "price/discount.go")

	// the paired test above everything else; imports and history above
	// a bare sibling
	for _, p := range []string{"cart/cart.go", "money/money.go", "ledger/ledger.go", "price/discount.go"} {
		ranksAbove(t, ns, "price/price_test.go", p)
	}
	for _, p := range []string{"cart/cart.go", "money/money.go", "ledger/ledger.go"} {
		ranksAbove(t, ns, p, "price/discount.go")
	}

	// an importer that uses none of price.go's names, a file of an
	// imported package that defines none of the names used, files that
	// shared one big commit only
	absent(t, ns, "report/report.go", "money/format.go")
	for i := range 9 {
		absent(t, ns, "bulk/b"+string(rune('0'+i))+".go")
	}
	absent(t, ns, "price/price.go")

	gp := guidePaths(guides)
	for _, g := range []string{"AGENTS.md", "README.md", "go.mod", "package.json"} {
		if !slices.Contains(gp, g) {
			t.Errorf("guide %s missing from %q", g, gp)
		}
		absent(t, ns, g)
	}
}

func hasReasonMatching(n Neighbour, expr string) bool {
	re := regexp.MustCompile(expr)
	for _, r := range n.Reasons {
		if re.MatchString(r) {
			return true
		}
	}
	return false
}

// TestFindOptions checks Max, Skip and GuidesOnly against the full answer.
func TestFindOptions(t *testing.T) {
	r := newShop(t)
	r.WriteAll(map[string]string{"price/price.go": priceChange})
	r.Commit("discounted totals")
	ch := r.selectRange("HEAD~1..HEAD")
	all, guides := find(t, ch, Options{Max: 50})
	if len(all) < 4 {
		t.Fatalf("want at least 4 neighbours to test options with, got:\n%s", describe(all))
	}

	t.Run("default max", func(t *testing.T) {
		ns, _ := find(t, ch, Options{})
		if len(ns) > DefaultMax {
			t.Errorf("got %d neighbours, want at most %d", len(ns), DefaultMax)
		}
	})
	t.Run("max", func(t *testing.T) {
		for _, max := range []int{1, 2, 3} {
			ns, g := find(t, ch, Options{Max: max})
			checkEqual(t, "neighbours with Max", ns, all[:max])
			checkEqual(t, "guides with Max", g, guides)
		}
	})
	t.Run("skip", func(t *testing.T) {
		skip := func(p string) bool {
			return p == "price/price_test.go" || strings.HasPrefix(p, "ledger/") || p == "README.md"
		}
		ns, g := find(t, ch, Options{Max: 50, Skip: skip})
		absent(t, ns, "price/price_test.go", "ledger/ledger.go", "README.md")
		if slices.Contains(guidePaths(g), "README.md") {
			t.Errorf("skipped README.md returned as a guide: %q", guidePaths(g))
		}
		neighbour(t, ns, "cart/cart.go")
	})
	t.Run("guides only", func(t *testing.T) {
		ns, g := find(t, ch, Options{GuidesOnly: true})
		if len(ns) != 0 {
			t.Errorf("GuidesOnly returned neighbours:\n%s", describe(ns))
		}
		checkEqual(t, "guides", g, guides)
	})
	t.Run("deterministic", func(t *testing.T) {
		ns, g := find(t, ch, Options{Max: 50})
		checkEqual(t, "neighbours", ns, all)
		checkEqual(t, "guides", g, guides)
	})
	t.Run("patches given", func(t *testing.T) {
		ns, _ := find(t, ch, Options{Max: 50, Patches: allPatches(t, ch)})
		checkEqual(t, "neighbours", neighbourPaths(ns), neighbourPaths(all))
	})
}

// TestFindChangedFilesNotReturned: a change of a file and its test returns
// neither, nor a changed guide.
func TestFindChangedFilesNotReturned(t *testing.T) {
	r := newShop(t)
	r.WriteAll(map[string]string{
		"price/price.go":      priceChange,
		"price/price_test.go": shopFiles["price/price_test.go"] + "\n// more\n",
		"README.md":           "# shop, changed\n",
		"go.mod":              shopFiles["go.mod"] + "\n",
	})
	r.Commit("code, test and guides")
	ch := r.selectRange("HEAD~1..HEAD")
	ns, guides := find(t, ch, Options{Max: 50})
	absent(t, ns, "price/price.go", "price/price_test.go", "README.md", "go.mod")
	gp := guidePaths(guides)
	for _, g := range []string{"README.md", "go.mod"} {
		if slices.Contains(gp, g) {
			t.Errorf("changed guide %s returned as a guide: %q", g, gp)
		}
	}
	if !slices.Contains(gp, "AGENTS.md") {
		t.Errorf("AGENTS.md missing from the guides %q", gp)
	}
	neighbour(t, ns, "cart/cart.go")
}

// TestFindChangedTest: a changed test brings the code it covers.
func TestFindChangedTest(t *testing.T) {
	r := newShop(t)
	r.WriteAll(map[string]string{"price/price_test.go": shopFiles["price/price_test.go"] + "\n// more\n"})
	r.Commit("test")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	code := neighbour(t, ns, "price/price.go")
	if !hasReason(code, "price/price_test.go") {
		t.Errorf("price.go reasons %q do not name the changed test", code.Reasons)
	}
	ranksAbove(t, ns, "price/price.go", "price/discount.go")
}

// TestFindWorktree: the same relations hold for uncommitted changes, with
// the history before HEAD.
func TestFindWorktree(t *testing.T) {
	r := newShop(t)
	r.WriteAll(map[string]string{"price/price.go": priceChange})
	ns, _ := find(t, r.selectWorktree(), Options{Max: 50})
	ranksAbove(t, ns, "price/price_test.go", "ledger/ledger.go")
	ranksAbove(t, ns, "price/price_test.go", "cart/cart.go")
	ranksAbove(t, ns, "cart/cart.go", "price/discount.go")
	ranksAbove(t, ns, "ledger/ledger.go", "price/discount.go")
	absent(t, ns, "report/report.go", "money/format.go", "price/price.go")
}

// TestFindGoImportedPackage: of a package the changed file imports, only
// the files defining the names it uses are neighbours; a file importing
// the changed file's package is one only if it uses a name the changed
// file defines, even when it uses names of other files of the package.
func TestFindGoImportedPackage(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"go.mod":             "module example.com/m\n",
		"store/store.go":     "package store\n\ntype Store struct{}\n\nfunc Open() *Store { return nil }\n",
		"store/close.go":     "package store\n\nfunc (s *Store) Close() error { return nil }\n",
		"store/migrate.go":   "package store\n\nfunc Migrate() error { return nil }\n",
		"api/api.go":         "package api\n\nimport \"example.com/m/store\"\n\nfunc Serve() { _ = store.Open() }\n",
		"api/handler.go":     "package api\n\nfunc Handle() {}\n",
		"cli/main.go":        "package main\n\nimport \"example.com/m/api\"\n\nfunc main() { api.Serve() }\n",
		"cli/other.go":       "package main\n\nimport \"example.com/m/api\"\n\nfunc other() { api.Handle() }\n",
		"cli/aliased.go":     "package main\n\nimport srv \"example.com/m/api\"\n\nfunc aliased() { srv.Serve() }\n",
		"tools/go.mod":       "module example.com/m/tools\n",
		"tools/gen/gen.go":   "package main\n\nimport \"example.com/m/api\"\n\nfunc main() { api.Serve() }\n",
		"tools/lint/lint.go": "package main\n\nimport \"example.com/m/api\"\n\nfunc main() { api.Handle() }\n",
	})
	r.WriteAll(map[string]string{"api/api.go": "package api\n\nimport \"example.com/m/store\"\n\nfunc Serve() {\n\ts := store.Open()\n\t_ = s\n}\n"})
	r.Commit("serve")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	for _, p := range []string{"store/store.go", "cli/main.go", "cli/aliased.go", "tools/gen/gen.go"} {
		ranksAbove(t, ns, p, "api/handler.go")
	}
	absent(t, ns, "store/close.go", "store/migrate.go", "cli/other.go", "tools/lint/lint.go")
}

// TestFindGoNestedModule: the importers of a file in a nested module are
// found by the nested module's path.
func TestFindGoNestedModule(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"go.mod":            "module github.com/acme/project/v2\n",
		"main.go":           "package main\n\nfunc main() {}\n",
		"x/go.mod":          "module github.com/acme/project/x\n",
		"x/gen/gen.go":      "package gen\n\nfunc Generate() int { return 1 }\n",
		"x/cmd/run/main.go": "package main\n\nimport \"github.com/acme/project/x/gen\"\n\nfunc main() { _ = gen.Generate() }\n",
	})
	r.WriteAll(map[string]string{"x/gen/gen.go": "package gen\n\nfunc Generate() int { return 2 }\n"})
	r.Commit("two")
	// Generate is also found by name; the import relation adds its own
	// reason.
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	n := neighbour(t, ns, "x/cmd/run/main.go")
	if !hasReason(n, "uses what x/gen/gen.go defines") {
		t.Errorf("x/cmd/run/main.go reasons %q: the import of the nested module's package is not seen", n.Reasons)
	}
}

// TestFindPolyglot checks the import and test relations of the other
// languages, each against a sibling with nothing else.
func TestFindPolyglot(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		// TypeScript
		"web/package.json":       "{}\n",
		"web/src/util.ts":        "export function add(a: number, b: number) { return a + b }\n",
		"web/src/util.test.ts":   "import { add } from './util'\n",
		"web/src/app.ts":         "import { add } from './util'\nconsole.log(add(1, 2))\n",
		"web/src/view/page.tsx":  "import * as u from '../util'\n",
		"web/src/unrelated.ts":   "export const x = 1\n",
		"web/src/lazy.ts":        "export const load = () => import('./util')\n",
		"web/src/other/other.ts": "export const y = 2\n",
		// Python, src layout with tests/ outside
		"py/src/shop/__init__.py": "",
		"py/src/shop/tax.py":      "def rate():\n    return 0.2\n",
		"py/src/shop/cart.py":     "from .tax import rate\n",
		"py/src/shop/misc.py":     "X = 1\n",
		"py/tests/test_tax.py":    "from shop.tax import rate\n",
		// Java
		"jvm/src/main/java/com/acme/Price.java":     "package com.acme;\npublic class Price {}\n",
		"jvm/src/main/java/com/acme/Order.java":     "package com.acme;\nimport com.acme.Price;\npublic class Order {}\n",
		"jvm/src/main/java/com/acme/Misc.java":      "package com.acme;\npublic class Misc {}\n",
		"jvm/src/test/java/com/acme/PriceTest.java": "package com.acme;\npublic class PriceTest {}\n",
		// Rust
		"rs/src/lib.rs":      "mod parser;\nmod misc;\n",
		"rs/src/parser.rs":   "use crate::lexer::Token;\npub fn parse() {}\n",
		"rs/src/lexer.rs":    "pub struct Token;\n",
		"rs/src/misc.rs":     "pub fn misc() {}\n",
		"rs/tests/parser.rs": "#[test]\nfn t() {}\n",
		// C
		"c/src/util.h": "int util(void);\n",
		"c/src/util.c": "#include \"util.h\"\nint util(void) { return 1; }\n",
		"c/src/main.c": "#include \"util.h\"\nint main(void) { return util(); }\n",
		"c/src/misc.c": "int misc(void) { return 2; }\n",
		// Ruby
		"rb/lib/shop.rb":           "require_relative 'shop/cart'\n",
		"rb/lib/shop/cart.rb":      "class Cart; end\n",
		"rb/lib/shop/misc.rb":      "class Misc; end\n",
		"rb/lib/shop/cart_spec.rb": "require_relative 'cart'\n",
	})
	r.WriteAll(map[string]string{
		"web/src/util.ts":                       "export function add(a: number, b: number): number { return a + b }\n",
		"py/src/shop/tax.py":                    "def rate():\n    return 0.25\n",
		"jvm/src/main/java/com/acme/Price.java": "package com.acme;\npublic class Price { int cents; }\n",
		"rs/src/parser.rs":                      "use crate::lexer::Token;\npub fn parse() -> Option<Token> { None }\n",
		"c/src/util.h":                          "int util(void); /* one */\n",
		"rb/lib/shop/cart.rb":                   "class Cart; def total; end; end\n",
	})
	r.Commit("touch every language")
	ns, guides := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 100})

	for _, tc := range []struct {
		name    string
		related []string
		sibling string
	}{
		{"typescript", []string{"web/src/util.test.ts", "web/src/app.ts", "web/src/view/page.tsx", "web/src/lazy.ts"}, "web/src/unrelated.ts"},
		{"python", []string{"py/tests/test_tax.py", "py/src/shop/cart.py"}, "py/src/shop/misc.py"},
		{"java", []string{"jvm/src/test/java/com/acme/PriceTest.java", "jvm/src/main/java/com/acme/Order.java"}, "jvm/src/main/java/com/acme/Misc.java"},
		{"rust", []string{"rs/src/lib.rs", "rs/src/lexer.rs", "rs/tests/parser.rs"}, "rs/src/misc.rs"},
		{"c", []string{"c/src/util.c", "c/src/main.c"}, "c/src/misc.c"},
		{"ruby", []string{"rb/lib/shop.rb", "rb/lib/shop/cart_spec.rb"}, "rb/lib/shop/misc.rb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			neighbour(t, ns, tc.sibling)
			for _, p := range tc.related {
				ranksAbove(t, ns, p, tc.sibling)
			}
		})
	}
	absent(t, ns, "web/src/other/other.ts")
	if !slices.Contains(guidePaths(guides), "web/package.json") {
		t.Errorf("web/package.json, the manifest beside the changed TypeScript, missing from the guides %q", guidePaths(guides))
	}
	absent(t, ns, "web/package.json")
}

// TestFindCoChange: a file that changed together with the changed file in
// several small commits is a neighbour, with the number of commits in its
// reason; one that shared a single commit of more than eight files is not;
// one that shared a single small commit is.
func TestFindCoChange(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"app/seed.txt":    "0\n",
		"notes/often.txt": "0\n",
		"notes/once.txt":  "0\n",
		"notes/big.txt":   "0\n",
	})
	for i := range 4 {
		r.WriteAll(map[string]string{"app/seed.txt": string(rune('1'+i)) + "\n", "notes/often.txt": string(rune('1'+i)) + "\n"})
		r.Commit("often")
	}
	r.WriteAll(map[string]string{"app/seed.txt": "once\n", "notes/once.txt": "once\n"})
	r.Commit("once, small")
	big := map[string]string{"app/seed.txt": "big\n", "notes/big.txt": "big\n"}
	for i := range 8 {
		big["sweep/f"+string(rune('0'+i))+".txt"] = "x\n"
	}
	r.WriteAll(big)
	r.Commit("once, big") // ten files
	r.WriteAll(map[string]string{"app/seed.txt": "change\n"})
	r.Commit("the change")

	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	often := neighbour(t, ns, "notes/often.txt")
	if !hasReasonMatching(often, `\b4\b.*commits`) {
		t.Errorf("often.txt reasons %q do not give its 4 commits", often.Reasons)
	}
	once := neighbour(t, ns, "notes/once.txt")
	if !hasReasonMatching(once, `\b1\b.*commit`) {
		t.Errorf("once.txt reasons %q do not give its 1 commit", once.Reasons)
	}
	ranksAbove(t, ns, "notes/often.txt", "notes/once.txt")
	absent(t, ns, "notes/big.txt")
	for i := range 8 {
		absent(t, ns, "sweep/f"+string(rune('0'+i))+".txt")
	}
}

// TestFindCoChangeMovedFiles: a file that changed with the seed and was
// moved since (requests/ to src/requests/) counts under its new path, its
// commits from before the move included; an old path that two files now
// end with is no one's.
func TestFindCoChangeMovedFiles(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"app/seed.txt":  "0\n",
		"lib/moved.txt": "0\n",
		"lib/twin.txt":  "0\n",
	})
	for i := range 3 {
		v := string(rune('1'+i)) + "\n"
		r.WriteAll(map[string]string{"app/seed.txt": v, "lib/moved.txt": v, "lib/twin.txt": v})
		r.Commit("together")
	}
	r.Git("rm", "-q", "lib/moved.txt", "lib/twin.txt")
	r.WriteAll(map[string]string{"src/lib/moved.txt": "3\n", "a/lib/twin.txt": "3\n", "b/lib/twin.txt": "twin\n"})
	r.Commit("move")
	r.WriteAll(map[string]string{"app/seed.txt": "change\n"})
	r.Commit("the change")

	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	moved := neighbour(t, ns, "src/lib/moved.txt")
	if !hasReasonMatching(moved, `\b3\b.*commits`) {
		t.Errorf("src/lib/moved.txt reasons %q do not give its 3 commits from before the move", moved.Reasons)
	}
	absent(t, ns, "a/lib/twin.txt", "b/lib/twin.txt")
}

// TestFindHistoryFromBase: co-change is mined from the history before the
// change: commits inside the range do not count.
func TestFindHistoryFromBase(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{"app/seed.txt": "0\n", "notes/inside.txt": "0\n", "notes/before.txt": "0\n"})
	for i := range 2 {
		r.WriteAll(map[string]string{"app/seed.txt": "b" + string(rune('0'+i)) + "\n", "notes/before.txt": string(rune('0'+i)) + "\n"})
		r.Commit("before")
	}
	base := r.Rev("HEAD")
	for i := range 2 {
		r.WriteAll(map[string]string{"app/seed.txt": "i" + string(rune('0'+i)) + "\n", "notes/inside.txt": string(rune('1'+i)) + "\n"})
		r.Commit("inside")
	}
	r.WriteAll(map[string]string{"notes/inside.txt": "0\n"}) // back as it was at the base
	r.Commit("undo")

	ch := r.selectRange(base + "..HEAD")
	if len(ch.Files) != 1 || ch.Files[0].Path != "app/seed.txt" {
		t.Fatalf("the range should change app/seed.txt only, got %d files", len(ch.Files))
	}
	ns, _ := find(t, ch, Options{Max: 50})
	neighbour(t, ns, "notes/before.txt")
	absent(t, ns, "notes/inside.txt")

	// Once the range is history, its commits count.
	r.WriteAll(map[string]string{"app/seed.txt": "later\n"})
	r.Commit("later")
	ns, _ = find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	inside := neighbour(t, ns, "notes/inside.txt")
	if !hasReasonMatching(inside, `\b2\b.*commits`) {
		t.Errorf("inside.txt reasons %q do not give its 2 commits", inside.Reasons)
	}
}

// TestFindHistoryDepth: HistoryDepth bounds the commits mined.
func TestFindHistoryDepth(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{"app/seed.txt": "0\n", "notes/old.txt": "0\n", "notes/new.txt": "0\n"})
	for i := range 2 {
		r.WriteAll(map[string]string{"app/seed.txt": "o" + string(rune('0'+i)) + "\n", "notes/old.txt": string(rune('1'+i)) + "\n"})
		r.Commit("old")
	}
	for i := range 2 {
		r.WriteAll(map[string]string{"app/seed.txt": "n" + string(rune('0'+i)) + "\n", "notes/new.txt": string(rune('1'+i)) + "\n"})
		r.Commit("new")
	}
	r.WriteAll(map[string]string{"app/seed.txt": "change\n"})
	r.Commit("the change")
	ch := r.selectRange("HEAD~1..HEAD")
	ns, _ := find(t, ch, Options{Max: 50, HistoryDepth: 2})
	neighbour(t, ns, "notes/new.txt")
	absent(t, ns, "notes/old.txt")
	ns, _ = find(t, ch, Options{Max: 50})
	neighbour(t, ns, "notes/old.txt")
}

// TestFindReferences: a file naming a symbol whose definition the change
// touched is a neighbour, and ranks above a bare sibling.
func TestFindReferences(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"lib/shipping.js": "export function computeShipping(w) {\n  return w * 2\n}\n",
		"lib/misc.js":     "export const misc = 1\n",
		"docs/usage.md":   "Call computeShipping with a weight.\n",
		"docs/other.md":   "Nothing here.\n",
	})
	r.WriteAll(map[string]string{"lib/shipping.js": "export function computeShipping(w, rate) {\n  return w * rate\n}\n"})
	r.Commit("pricier")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	usage := neighbour(t, ns, "docs/usage.md")
	if !hasReason(usage, "computeShipping") {
		t.Errorf("usage.md reasons %q do not name the symbol", usage.Reasons)
	}
	ranksAbove(t, ns, "docs/usage.md", "lib/misc.js")
	absent(t, ns, "docs/other.md")
}

// TestFindDefinitions: a file that defines a name on the change's
// changed lines (a function it starts or stops calling) is a neighbour,
// with the name in its reasons; a name defined in more than maxDefiners
// files tells nothing.
func TestFindDefinitions(t *testing.T) {
	r := newTestRepo(t)
	files := map[string]string{
		"app/main.py":     "from rules import all_rules\n\ndef main():\n    return all_rules()\n",
		"rules/stripe.py": "def stripe_token():\n    return 'sk'\n",
		"rules/slack.py":  "def slack_token():\n    return 'xox'\n",
		"rules/other.py":  "def other_token():\n    return 'o'\n",
		"app/util.py":     "def helper():\n    pass\n",
	}
	for i := range maxDefiners + 1 {
		files[fmt.Sprintf("plugins/p%d.py", i)] = "def load_plugin():\n    pass\n"
	}
	r.commitEach(files)
	r.WriteAll(map[string]string{"app/main.py": "from rules import all_rules\n\ndef main():\n    load_plugin()\n    return all_rules() + [stripe_token()]\n"})
	r.Commit("stripe")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	stripe := neighbour(t, ns, "rules/stripe.py")
	if !hasReason(stripe, "stripe_token") {
		t.Errorf("stripe.py reasons %q do not name stripe_token", stripe.Reasons)
	}
	ranksAbove(t, ns, "rules/stripe.py", "app/util.py")
	absent(t, ns, "rules/slack.py", "rules/other.py", "plugins/p0.py")
}

// TestFindDeletedFile: a deleted file is no seed and no neighbour.
func TestFindDeletedFile(t *testing.T) {
	r := newShop(t)
	r.Git("rm", "-q", "price/discount.go")
	r.Commit("no discount")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	absent(t, ns, "price/discount.go")
}

// TestFindOnlyGuideChanged: a change of guides alone has no neighbours
// from tests or imports, and the changed guide is not its own guide.
func TestFindOnlyGuideChanged(t *testing.T) {
	r := newShop(t)
	r.WriteAll(map[string]string{"AGENTS.md": "Run go test ./... -race\n"})
	r.Commit("agents")
	ns, guides := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	if slices.Contains(guidePaths(guides), "AGENTS.md") {
		t.Errorf("the changed AGENTS.md is among the guides %q", guidePaths(guides))
	}
	absent(t, ns, "AGENTS.md")
}

// TestFindGuidesAsNeighbours: a guide file is returned as a guide, not as
// a neighbour, when all that ties it to the change is where it sits; a
// guide that keeps changing with the changed file (go.mod beside main.go,
// a release's package.json beside its changelog) is a neighbour instead,
// ranked and with its reasons, and leaves the guides.
func TestFindGuidesAsNeighbours(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"go.mod":       "module example.com/tool\n",
		"README.md":    "# tool\n",
		"AGENTS.md":    "Be brief.\n",
		"package.json": "{}\n",
		"main.go":      "package main\n\nfunc main() {}\n",
		"flags.go":     "package main\n\nvar verbose bool\n",
	})
	for i := range 3 {
		r.WriteAll(map[string]string{"main.go": "package main\n\nfunc main() {}\n" + strings.Repeat("\n", i+1), "go.mod": "module example.com/tool\n" + strings.Repeat("\n", i+1)})
		r.Commit("main and go.mod")
	}
	r.WriteAll(map[string]string{"main.go": "package main\n\nfunc main() { println(verbose) }\n"})
	r.Commit("print")
	ns, guides := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	gp := guidePaths(guides)
	checkEqual(t, "guides", gp, []string{"AGENTS.md", "README.md", "package.json"})
	mod := neighbour(t, ns, "go.mod")
	if !hasReason(mod, "changed together") {
		t.Errorf("go.mod reasons %q do not say it changed with main.go", mod.Reasons)
	}
	for _, n := range ns {
		if slices.Contains(gp, n.Path) {
			t.Errorf("%s returned as a guide and as a neighbour (%v, %q)", n.Path, n.Score, n.Reasons)
		}
	}
	neighbour(t, ns, "flags.go")
}

// TestFindGoTestOfAnotherPackage: a Go test is always in its package's
// directory, so config_test.go of another package is no test of
// config.go, however alike the names.
func TestFindGoTestOfAnotherPackage(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"go.mod":                              "module example.com/m\n",
		"internal/server/config.go":           "package server\n\nvar port = 80\n",
		"internal/server/config_test.go":      "package server\n",
		"internal/client/config.go":           "package client\n\nvar host = \"x\"\n",
		"internal/client/config_test.go":      "package client\n",
		"internal/client/deep/config_test.go": "package deep\n",
	})
	r.WriteAll(map[string]string{"internal/server/config.go": "package server\n\nvar port = 8080\n"})
	r.Commit("port")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	neighbour(t, ns, "internal/server/config_test.go")
	for _, p := range []string{"internal/client/config_test.go", "internal/client/deep/config_test.go"} {
		if i := rank(ns, p); i >= 0 && hasReason(ns[i], "the test of") {
			t.Errorf("%s, a test of another package, is called %q", p, ns[i].Reasons)
		}
	}
}

// TestFindEmptyChange: a range with no files has no neighbours and no
// error.
func TestFindEmptyChange(t *testing.T) {
	r := newShop(t)
	r.Commit("empty")
	ns, guides := find(t, r.selectRange("HEAD~1..HEAD"), Options{})
	if len(ns) != 0 {
		t.Errorf("neighbours of an empty change:\n%s", describe(ns))
	}
	if gp := guidePaths(guides); len(gp) == 0 || gp[0] != "AGENTS.md" {
		t.Errorf("guides of an empty change: %q", guidePaths(guides))
	}
}

// TestFindGoPackageNameUnlikeItsPath: a file imports a package by its path
// but uses it by the package's name, which is not always the path's last
// element: the root package of a v2 module ("github.com/acme/project/v2",
// package project) is used as project.X.
func TestFindGoPackageNameUnlikeItsPath(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"go.mod":           "module github.com/acme/project/v2\n",
		"project.go":       "package project\n\n// Start starts.\nfunc Start() int {\n\treturn 1\n}\n",
		"cmd/tool/main.go": "package main\n\nimport \"github.com/acme/project/v2\"\n\nfunc main() { _ = project.Start() }\n",
	})
	r.WriteAll(map[string]string{"project.go": "package project\n\n// Start starts.\nfunc Start() int {\n\treturn 2\n}\n"})
	r.Commit("two")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	n := neighbour(t, ns, "cmd/tool/main.go")
	if !hasReason(n, "uses what project.go defines") {
		t.Errorf("cmd/tool/main.go reasons %q: its use of project.Start is not seen", n.Reasons)
	}
	if !slices.Contains(n.Names, "Start") {
		t.Errorf("cmd/tool/main.go keeps %q for its excerpt, want Start, the name it uses", n.Names)
	}
}

// TestFindRubySpecMirror: lib/x.rb and spec/x_spec.rb are a pair, found
// from either side.
func TestFindRubySpecMirror(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"lib/shop/price.rb":       "class Price; end\n",
		"lib/shop/misc.rb":        "class Misc; end\n",
		"spec/shop/price_spec.rb": "require 'spec_helper'\n",
		"spec/shop/misc_spec.rb":  "require 'spec_helper'\n",
	})
	r.WriteAll(map[string]string{"lib/shop/price.rb": "class Price; def cents; end; end\n"})
	r.Commit("code")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	ranksAbove(t, ns, "spec/shop/price_spec.rb", "lib/shop/misc.rb")
	absent(t, ns, "spec/shop/misc_spec.rb")

	r.WriteAll(map[string]string{"spec/shop/price_spec.rb": "require 'spec_helper'\n# more\n"})
	r.Commit("spec")
	ns, _ = find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	code := neighbour(t, ns, "lib/shop/price.rb")
	if !hasReason(code, "spec/shop/price_spec.rb") {
		t.Errorf("price.rb reasons %q do not name the changed spec", code.Reasons)
	}
	absent(t, ns, "lib/shop/misc.rb")
}

// TestFindTestNamedWithHyphenOrPrefix: fmt's test/ranges-test.cc tests
// include/fmt/ranges.h, rack's test/spec_sendfile.rb lib/rack/sendfile.rb.
func TestFindTestNamedWithHyphenOrPrefix(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"include/fmt/ranges.h":  "// ranges\n",
		"include/fmt/chrono.h":  "// chrono\n",
		"test/ranges-test.cc":   "#include \"test-assert.h\"\n",
		"test/chrono-test.cc":   "#include \"test-assert.h\"\n",
		"lib/rack/sendfile.rb":  "module Rack; end\n",
		"lib/rack/etag.rb":      "module Rack; end\n",
		"test/spec_sendfile.rb": "require_relative 'helper'\n",
		"test/spec_etag.rb":     "require_relative 'helper'\n",
	})
	r.WriteAll(map[string]string{
		"include/fmt/ranges.h": "// ranges\nint join();\n",
		"lib/rack/sendfile.rb": "module Rack; class Sendfile; end; end\n",
	})
	r.Commit("code")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	wantReasons(t, ns, map[string]string{
		"test/ranges-test.cc":   "the test of include/fmt/ranges.h",
		"test/spec_sendfile.rb": "the test of lib/rack/sendfile.rb",
	})
	absent(t, ns, "test/chrono-test.cc")
	absent(t, ns, "test/spec_etag.rb")
}

// TestFindPHPAndElixirImports: a changed PHP class brings the class it
// uses, an Elixir module the module it calls by its full name.
func TestFindPHPAndElixirImports(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"src/Client.php":           "<?php\nnamespace GuzzleHttp;\n\nuse GuzzleHttp\\Cookie\\CookieJar;\n\nclass Client {}\n",
		"src/Cookie/CookieJar.php": "<?php\nnamespace GuzzleHttp\\Cookie;\n\nclass CookieJar {}\n",
		"src/Pool.php":             "<?php\nnamespace GuzzleHttp;\n\nclass Pool {}\n",
		"lib/plug/conn.ex":         "defmodule Plug.Conn do\n  def query(c), do: Plug.Conn.Query.decode(c)\nend\n",
		"lib/plug/conn/query.ex":   "defmodule Plug.Conn.Query do\n  def decode(s), do: s\nend\n",
		"lib/plug/router.ex":       "defmodule Plug.Router do\nend\n",
	})
	r.WriteAll(map[string]string{
		"src/Client.php":   "<?php\nnamespace GuzzleHttp;\n\nuse GuzzleHttp\\Cookie\\CookieJar;\n\nclass Client { public $jar; }\n",
		"lib/plug/conn.ex": "defmodule Plug.Conn do\n  def query(c), do: Plug.Conn.Query.decode(c, [])\nend\n",
	})
	r.Commit("code")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	wantReasons(t, ns, map[string]string{
		"src/Cookie/CookieJar.php": "src/Client.php imports it",
		"lib/plug/conn/query.ex":   "lib/plug/conn.ex imports it",
	})
}

// TestFindTestOfDottedName: the test of app.component.ts in a test tree is
// app.component.spec.ts, not app.spec.ts; the same for Mix's tasks.
func TestFindTestOfDottedName(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(map[string]string{
		"lib/mix/tasks/ecto.migrate.ex":        "defmodule Mix.Tasks.Ecto.Migrate do\nend\n",
		"test/mix/tasks/ecto.migrate_test.exs": "defmodule Mix.Tasks.Ecto.MigrateTest do\nend\n",
		"test/mix/tasks/ecto_test.exs":         "defmodule Mix.Tasks.EctoTest do\nend\n",
		"src/app/app.component.ts":             "export class AppComponent {}\n",
		"test/app/app.component.spec.ts":       "describe('app', () => {})\n",
		"test/app/app.spec.ts":                 "describe('app', () => {})\n",
	})
	r.WriteAll(map[string]string{
		"lib/mix/tasks/ecto.migrate.ex": "defmodule Mix.Tasks.Ecto.Migrate do\n  def run(_), do: :ok\nend\n",
		"src/app/app.component.ts":      "export class AppComponent { title = 'x' }\n",
	})
	r.Commit("code")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	wantReasons(t, ns, map[string]string{
		"test/mix/tasks/ecto.migrate_test.exs": "the test of lib/mix/tasks/ecto.migrate.ex",
		"test/app/app.component.spec.ts":       "the test of src/app/app.component.ts",
	})
	for _, n := range ns {
		if (n.Path == "test/mix/tasks/ecto_test.exs" || n.Path == "test/app/app.spec.ts") && hasReason(n, "the test of") {
			t.Errorf("%s paired as a test: %q", n.Path, n.Reasons)
		}
	}
}
