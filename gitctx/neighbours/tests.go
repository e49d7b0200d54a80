package neighbours

import (
	"context"
	"path"
	"strings"
	"unicode"
)

// Weights of the direct signals.
const (
	weightTest       = 3.0
	weightImporter   = 1.5
	weightImported   = 1.0
	weightReference  = 1.0
	weightDefinition = 2.0 // defines a name on a changed line
)

// tests pairs each changed file with its tests, and each changed test with
// the code it covers, by the naming conventions of each language.
func (f *finder) tests(context.Context) error {
	for _, s := range f.seeds() {
		if t := snapshotTest(s); t != "" {
			f.relate(s, t, weightTest, "the test whose snapshot "+s+" changed")
			continue
		}
		if code := testedBy(s); len(code) > 0 {
			for _, c := range code {
				f.relate(s, c, weightTest, "the code that the changed test "+s+" covers")
			}
			continue
		}
		for _, t := range testsOf(s) {
			f.relate(s, t, weightTest, "the test of "+s)
		}
	}
	// Tests elsewhere named after the file: in the same top-level tree
	// (a src/test mirror, __tests__/) or in a test tree at the root
	// (tests/test_app.py for src/app/app.py); and, for a changed test, the
	// code it is named after.
	codeByStem, testByStem := map[string][]string{}, map[string][]string{}
	for _, s := range f.seeds() {
		if !isTestPath(s) {
			codeByStem[stem(s)] = append(codeByStem[stem(s)], s)
		} else if ts := testStem(s); ts != "" {
			testByStem[ts] = append(testByStem[ts], s)
		}
	}
	for p := range f.files {
		if isTestPath(p) {
			for _, s := range codeByStem[testStem(p)] {
				if pairable(p, s) {
					f.relate(s, p, weightTest, "the test of "+s)
				}
			}
			continue
		}
		for _, s := range testByStem[stem(p)] {
			if pairable(s, p) {
				f.relate(s, p, weightTest, "the code that the changed test "+s+" covers")
			}
		}
	}
	return nil
}

// snapshotTest is the test that writes a snapshot file: Jest's and
// Vitest's __snapshots__/app.test.ts.snap is app.test.ts's, syrupy's
// __snapshots__/test_app.ambr is test_app.py's ("" for any other file).
func snapshotTest(p string) string {
	dir, base := path.Split(p)
	if path.Base(dir) != "__snapshots__" {
		return ""
	}
	beside := path.Dir(path.Clean(dir))
	switch path.Ext(base) {
	case ".snap":
		return path.Join(beside, strings.TrimSuffix(base, ".snap"))
	case ".ambr":
		return path.Join(beside, strings.TrimSuffix(base, ".ambr")+".py")
	}
	return ""
}

// pairable reports whether a test and a code file named alike are near
// enough to be a pair: in one language, and in directories that are the
// same once the parts that only sort tests from code are left out
// (src/main/java/a ↔ src/test/java/a, app/models ↔ spec/models,
// lib/x ↔ lib/x/__tests__); a test in a flat test tree at the root
// (tests/test_app.py) pairs with a code file of its name anywhere. A Go
// test lives in its package's directory, so it pairs only there.
func pairable(test, code string) bool {
	lang := testLanguage(test)
	if lang == "" || lang != testLanguage(code) {
		return false
	}
	td, cd := path.Dir(test), path.Dir(code)
	if lang == "go" {
		return td == cd
	}
	nt, nc := strip(td), strip(cd)
	if nt == nc || strings.HasSuffix(nc, "/"+nt) {
		return true
	}
	return nt == "" && isTestDir(top(test))
}

// testLanguage groups files whose tests pair with them: the languages
// whose imports gitctx reads (languageOf), and those it pairs by name only.
func testLanguage(p string) string {
	if l := languageOf(p); l != "" {
		return l
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".cs":
		return "csharp"
	case ".swift":
		return "swift"
	}
	return ""
}

// strip leaves out of a directory the parts that sort tests from code:
// src/main/java/a and src/test/java/a are both a, and so are Sources/A
// and Tests/ATests (Swift), src/A and tests/A.Tests (.NET),
// src/commonMain/kotlin/a and src/jvmTest/kotlin/a (Kotlin Multiplatform).
func strip(dir string) string {
	var keep []string
	for _, d := range strings.Split(dir, "/") {
		switch strings.ToLower(d) {
		case ".", "src", "lib", "main", "app", "source", "sources", "unit", "integration", "functional", "feature", "e2e":
		default:
			if !isTestDir(d) && !isSourceSet(d) {
				keep = append(keep, projectOf(d))
			}
		}
	}
	return strings.Join(keep, "/")
}

// isSourceSet reports whether a directory is a Gradle or Kotlin
// Multiplatform source set: commonMain, jvmTest, integrationTest.
func isSourceSet(d string) bool {
	for _, suf := range []string{"Main", "Test"} {
		if set, ok := strings.CutSuffix(d, suf); ok && set != "" && strings.ToLower(set) == set {
			return true
		}
	}
	return false
}

// projectOf is the project a test project's directory is named after:
// Acme for Acme.Tests, Acme.UnitTests or AcmeTests.
func projectOf(d string) string {
	for _, suf := range []string{".UnitTests", ".Tests", ".Test", ".Specs", "Tests"} {
		if p, ok := strings.CutSuffix(d, suf); ok && p != "" {
			return p
		}
	}
	return d
}

func isTestDir(d string) bool {
	switch strings.ToLower(d) {
	case "tests", "test", "__tests__", "spec", "specs":
		return true
	}
	return false
}

// top is the first directory of a path ("" at the root).
func top(p string) string {
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// stem is a file's name without directory and extension: app.component
// for Angular's app.component.ts (whose test is app.component.spec.ts),
// ecto.migrate for Mix's ecto.migrate.ex.
func stem(p string) string {
	b := path.Base(p)
	return strings.TrimSuffix(b, path.Ext(b))
}

// testStem is the name a test file is about: "price" for price_test.go,
// test_price.py, price.spec.ts, PriceTest.java, __tests__/price.test.js,
// price-test.cc (fmt), price_unittest.cc (Chromium), spec_price.rb (rack),
// price_tests.rs, PriceIT.java (Maven Failsafe).
func testStem(p string) string {
	b := path.Base(p)
	ext := path.Ext(b)
	name := strings.TrimSuffix(b, ext)
	for _, suf := range testSuffixes {
		if n, ok := strings.CutSuffix(name, suf); ok && n != "" {
			return n
		}
	}
	// Maven Failsafe's integration tests: FooIT.java
	if n, ok := strings.CutSuffix(name, "IT"); ok && n != "" && languageOf(p) == "jvm" && unicode.IsLower(rune(n[len(n)-1])) {
		return n
	}
	if suffixOnly[testLanguage(p)] {
		return name // Dart's test/test_util.dart is a helper, not util.dart's test
	}
	for _, pre := range testPrefixes {
		if n, ok := strings.CutPrefix(name, pre); ok && n != "" {
			return n
		}
	}
	return name
}

// suffixOnly are the languages whose tests are named by a suffix alone.
var suffixOnly = map[string]bool{"go": true, "dart": true, "jvm": true, "csharp": true, "swift": true, "php": true, "elixir": true}

// The ways a test file's name says what it tests.
var (
	testSuffixes = []string{"_test", "_tests", ".test", ".spec", "_spec", "-test", "-tests", "-spec", "_unittest", "Test", "Tests", "Spec"}
	testPrefixes = []string{"test_", "test-", "spec_"}
)

// isTestPath reports whether a path names a test.
func isTestPath(p string) bool {
	if testStem(p) != strings.TrimSuffix(path.Base(p), path.Ext(p)) {
		return true
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if isTestDir(d) {
			return true
		}
	}
	return false
}

// testsOf lists the files that would be the tests of a code file, beside it.
func testsOf(p string) []string {
	dir, base := path.Dir(p), path.Base(p)
	ext := path.Ext(base)
	name := strings.TrimSuffix(base, ext)
	join := func(n string) string { return path.Join(dir, n) }
	switch ext {
	case ".go":
		return []string{join(name + "_test.go")}
	case ".py":
		return []string{join("test_" + base), join(name + "_test.py"), path.Join(dir, "tests", "test_"+base)}
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs":
		var out []string
		for _, e := range []string{".ts", ".tsx", ".js", ".jsx"} {
			out = append(out, join(name+".test"+e), join(name+".spec"+e), path.Join(dir, "__tests__", name+".test"+e))
		}
		return out
	case ".java", ".kt":
		t := strings.Replace(p, "/main/", "/test/", 1)
		return []string{strings.TrimSuffix(t, ext) + "Test" + ext, join(name + "Test" + ext)}
	case ".rb":
		return []string{join(name + "_spec.rb"), join(name + "_test.rb"), strings.Replace(strings.TrimSuffix(p, ext), "lib/", "spec/", 1) + "_spec.rb"}
	case ".rs":
		return []string{path.Join("tests", base)}
	}
	return nil
}

// testedBy lists the files a test file covers, beside it (empty when p is
// not a test by name, or not code).
func testedBy(p string) []string {
	if !isTestPath(p) || testStem(p) == "" || testLanguage(p) == "" {
		return nil // requirements-tests.txt tests nothing
	}
	dir, ext := path.Dir(p), path.Ext(p)
	code := testStem(p)
	out := []string{path.Join(dir, code+ext)}
	switch ext {
	case ".ts", ".tsx", ".js", ".jsx":
		for _, e := range []string{".ts", ".tsx", ".js", ".jsx"} {
			out = append(out, path.Join(dir, code+e), path.Join(path.Dir(dir), code+e))
		}
	case ".java", ".kt":
		out = append(out, strings.Replace(path.Join(dir, code+ext), "/test/", "/main/", 1))
	case ".py":
		out = append(out, path.Join(path.Dir(dir), code+ext))
	}
	return out
}
