package neighbours

import (
	"slices"
	"strings"
	"testing"
)

// The naming conventions that pair code with its tests, by language.

func TestTestStem(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"pkg/price.go", "price"},
		{"pkg/price_test.go", "price"},
		{"test_price.py", "price"},
		{"pkg/price_test.py", "price"},
		{"tests/test_price.py", "price"},
		{"web/price.test.ts", "price"},
		{"web/price.spec.tsx", "price"},
		{"web/__tests__/price.test.js", "price"},
		{"src/test/java/com/acme/PriceTest.java", "Price"},
		{"src/test/kotlin/PriceTests.kt", "Price"},
		{"src/test/scala/PriceSpec.scala", "Price"},
		{"spec/price_spec.rb", "price"},
		{"test/price_test.rb", "price"},
		{"tests/price.rs", "price"},
		{"test/price-test.cc", "price"},
		{"base/price_unittest.cc", "price"},
		{"test/spec_price.rb", "price"},
		{"test/test-price.js", "price"},
		{"tests/price_tests.rs", "price"},
		{"test/test_util.dart", "test_util"}, // a helper: Dart names tests by suffix only
		{"pkg/test_helpers.go", "test_helpers"},
		{"src/test/java/acme/PriceIT.java", "Price"},
		{"docs/AUDIT.java", "AUDIT"}, // IT after a capital names nothing
		{"notes/EDIT.md", "EDIT"},
		{"Test.java", "Test"}, // a bare suffix names nothing
		{"test_.py", "test_"},
		{"latest.go", "latest"},
	} {
		if got := testStem(tc.path); got != tc.want {
			t.Errorf("testStem(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

func TestIsTestPath(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		// Go
		{"pkg/price_test.go", true},
		{"pkg/price.go", false},
		{"pkg/latest.go", false},
		{"pkg/testdata/input.go", false},
		// Python
		{"test_price.py", true},
		{"pkg/price_test.py", true},
		{"tests/conftest.py", true},
		{"pkg/price.py", false},
		{"pkg/contest.py", false},
		// JavaScript and TypeScript
		{"web/price.test.ts", true},
		{"web/price.spec.js", true},
		{"web/__tests__/price.js", true},
		{"web/price.ts", false},
		// Java and Kotlin
		{"src/test/java/com/acme/PriceTest.java", true},
		{"src/test/java/com/acme/Fixtures.java", true},
		{"src/main/java/com/acme/Price.java", false},
		{"src/main/kotlin/PriceTests.kt", true},
		// Ruby
		{"spec/price_spec.rb", true},
		{"lib/price.rb", false},
		// C and C++
		{"test/ranges-test.cc", true},
		{"base/price_unittest.cc", true},
		{"include/fmt/ranges.h", false},
		// PHP, C#, Swift, Elixir
		{"tests/ClientTest.php", true},
		{"tests/Acme.Tests/InvoiceTests.cs", true},
		{"Tests/SessionTests.swift", true},
		{"test/plug/conn_test.exs", true},
		{"lib/plug/conn.ex", false},
		// Rust
		{"tests/parser.rs", true},
		{"src/parser.rs", false},
	} {
		if got := isTestPath(tc.path); got != tc.want {
			t.Errorf("isTestPath(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestTestsOf(t *testing.T) {
	for _, tc := range []struct {
		path string
		want []string // all of these, in any order, among others
	}{
		{"pkg/price.go", []string{"pkg/price_test.go"}},
		{"price.go", []string{"price_test.go"}},
		{"pkg/price.py", []string{"pkg/test_price.py", "pkg/price_test.py", "pkg/tests/test_price.py"}},
		{"price.py", []string{"test_price.py", "price_test.py", "tests/test_price.py"}},
		{"web/price.ts", []string{"web/price.test.ts", "web/price.spec.ts", "web/__tests__/price.test.ts",
			"web/price.test.tsx", "web/price.test.js", "web/price.spec.jsx"}},
		{"web/price.jsx", []string{"web/price.test.jsx", "web/price.test.ts", "web/__tests__/price.test.js"}},
		{"src/main/java/com/acme/Price.java", []string{"src/test/java/com/acme/PriceTest.java", "src/main/java/com/acme/PriceTest.java"}},
		{"src/main/kotlin/com/acme/Price.kt", []string{"src/test/kotlin/com/acme/PriceTest.kt"}},
		{"lib/price.rb", []string{"lib/price_spec.rb", "lib/price_test.rb", "spec/price_spec.rb"}},
		{"src/parser.rs", []string{"tests/parser.rs"}},
		{"README.md", nil},
	} {
		got := testsOf(tc.path)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("testsOf(%q) = %q, want it to include %q", tc.path, got, w)
			}
		}
		if tc.want == nil && len(got) > 0 {
			t.Errorf("testsOf(%q) = %q, want none", tc.path, got)
		}
		for _, p := range got {
			if !isTestPath(p) {
				t.Errorf("testsOf(%q) includes %q, which isTestPath does not call a test", tc.path, p)
			}
			if p == tc.path {
				t.Errorf("testsOf(%q) includes the file itself", tc.path)
			}
		}
	}
}

func TestTestedBy(t *testing.T) {
	for _, tc := range []struct {
		path string
		want []string // all of these, in any order, among others
	}{
		{"pkg/price_test.go", []string{"pkg/price.go"}},
		{"test_price.py", []string{"price.py"}},
		{"pkg/test_price.py", []string{"pkg/price.py"}},
		{"pkg/price_test.py", []string{"pkg/price.py"}},
		{"tests/test_price.py", []string{"price.py"}},
		{"pkg/tests/test_price.py", []string{"pkg/price.py"}},
		{"web/price.test.ts", []string{"web/price.ts", "web/price.tsx", "web/price.js"}},
		{"web/price.spec.js", []string{"web/price.js", "web/price.ts"}},
		{"web/__tests__/price.test.js", []string{"web/price.js", "web/price.ts"}},
		{"src/test/java/com/acme/PriceTest.java", []string{"src/main/java/com/acme/Price.java"}},
		{"src/test/kotlin/com/acme/PriceTest.kt", []string{"src/main/kotlin/com/acme/Price.kt"}},
		{"lib/price_spec.rb", []string{"lib/price.rb"}},
		{"lib/price_test.rb", []string{"lib/price.rb"}},
	} {
		got := testedBy(tc.path)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("testedBy(%q) = %q, want it to include %q", tc.path, got, w)
			}
		}
	}
	for _, p := range []string{"requirements-tests.txt", "config_test.yaml", "pkg/price.go", "price.py", "web/price.ts", "src/main/java/com/acme/Price.java", "lib/price.rb", "src/lib.rs"} {
		if got := testedBy(p); len(got) > 0 {
			t.Errorf("testedBy(%q) = %q, want none: it is not a test", p, got)
		}
	}
}

func TestSnapshotTest(t *testing.T) {
	for p, want := range map[string]string{
		"src/__snapshots__/app.test.ts.snap":        "src/app.test.ts",
		"__snapshots__/Button.test.tsx.snap":        "Button.test.tsx",
		"tests/__snapshots__/test_render.ambr":      "tests/test_render.py",
		"src/__snapshots__/notes.md":                "",
		"src/snapshots/app.test.ts.snap":            "",
		"src/app.test.ts":                           "",
		"src/__snapshots__/nested/app.test.ts.snap": "",
	} {
		if got := snapshotTest(p); got != want {
			t.Errorf("snapshotTest(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestTestsRoundTrip: the code a file's test covers is the file itself.
// (Ruby's spec/ mirror of lib/ is paired by name in Find, not here: see
// TestFindRubySpecMirror.)
func TestTestsRoundTrip(t *testing.T) {
	for _, code := range []string{"pkg/price.go", "pkg/price.py", "web/price.ts", "web/price.js",
		"src/main/java/com/acme/Price.java", "src/main/kotlin/com/acme/Price.kt", "lib/price.rb"} {
		for _, test := range testsOf(code) {
			if testStem(test) != stem(code) || strings.HasPrefix(test, "spec/") {
				continue // another language's naming (a .ts test of a .js file), or the spec/ mirror
			}
			if got := testedBy(test); !slices.Contains(got, code) {
				t.Errorf("testedBy(%q) = %q, want it to include %q (testsOf(%q) lists the test)", test, got, code, code)
			}
		}
	}
}
