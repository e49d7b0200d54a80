package neighbours

import (
	"context"
	"path"
	"strings"
)

// Weights of the direct signals.
const (
	weightTest      = 3.0
	weightImporter  = 1.5
	weightImported  = 1.0
	weightReference = 1.0
)

// tests pairs each changed file with its tests, and each changed test with
// the code it covers, by the naming conventions of each language.
func (f *finder) tests(context.Context) error {
	for _, s := range f.seeds() {
		if code := testedBy(s); len(code) > 0 {
			for _, c := range code {
				f.add(c, weightTest, 0, "the code that the changed test "+s+" covers")
			}
			continue
		}
		for _, t := range testsOf(s) {
			f.add(t, weightTest, 0, "the test of "+s)
		}
	}
	// Tests elsewhere in the same top-level tree (tests/, __tests__/, a
	// src/test mirror) named after the file.
	byStem := map[string][]string{}
	for _, s := range f.seeds() {
		if !isTestPath(s) && stem(s) != "" {
			byStem[stem(s)] = append(byStem[stem(s)], s)
		}
	}
	for p := range f.files {
		if !isTestPath(p) {
			continue
		}
		for _, s := range byStem[testStem(p)] {
			if top(p) == top(s) {
				f.add(p, weightTest, 0, "the test of "+s)
			}
		}
	}
	return nil
}

// top is the first directory of a path ("" at the root).
func top(p string) string {
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// stem is a file's name without directory and extension.
func stem(p string) string {
	b := path.Base(p)
	if i := strings.IndexByte(b, '.'); i > 0 {
		b = b[:i]
	}
	return b
}

// testStem is the name a test file is about: "price" for price_test.go,
// test_price.py, price.spec.ts, PriceTest.java, __tests__/price.test.js.
func testStem(p string) string {
	b := path.Base(p)
	ext := path.Ext(b)
	name := strings.TrimSuffix(b, ext)
	for _, suf := range []string{"_test", ".test", ".spec", "_spec", "Test", "Tests", "Spec"} {
		if n, ok := strings.CutSuffix(name, suf); ok && n != "" {
			return n
		}
	}
	if n, ok := strings.CutPrefix(name, "test_"); ok {
		return n
	}
	return name
}

// isTestPath reports whether a path names a test.
func isTestPath(p string) bool {
	if testStem(p) != strings.TrimSuffix(path.Base(p), path.Ext(p)) {
		return true
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if d == "tests" || d == "test" || d == "__tests__" || d == "spec" {
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
// not a test by name).
func testedBy(p string) []string {
	if !isTestPath(p) || testStem(p) == "" {
		return nil
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
