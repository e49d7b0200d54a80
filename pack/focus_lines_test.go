package pack

import (
	"slices"
	"strings"
	"testing"
)

func TestFocusLines(t *testing.T) {
	cargo := "version = 3\n\n[[package]]\nname = \"memchr\"\nversion = \"2.7.1\"\n\n[[package]]\nname = \"regex\"\nversion = \"1.10.3\"\ndependencies = [\n \"memchr\",\n]\n\n[[package]]\nname = \"serde\"\nversion = \"1.0.1\"\n"
	yarn := "lodash.merge@^4.6.2:\n  version \"4.6.2\"\n\nlodash@^4.17.21:\n  version \"4.17.21\"\n\n\"@babel/core@^7.0.0\":\n  version \"7.1.0\"\n"
	for _, tc := range []struct {
		name  string
		text  string
		names []string
		want  []int
	}{
		{"no names", "a\nb\n", nil, []int{}},
		{"empty text", "", []string{"a"}, []int{}},
		{"go.sum lines, not v2 nor a longer path", "example.com/a v1 h1:x=\nexample.com/a v1/go.mod h1:y=\nexample.com/a/v2 v2 h1:z=\nexample.com/ab v1 h1:w=\nxexample.com/a v1\n",
			[]string{"example.com/a"}, []int{1, 2}},
		{"Cargo.lock entries: its own and its dependents'", cargo, []string{"memchr"}, []int{3, 4, 5, 7, 8, 9, 10, 11, 12}},
		{"Cargo.lock, a name no entry has", cargo, []string{"tokio"}, []int{}},
		{"yarn.lock: before an @, not inside a longer name", yarn, []string{"lodash"}, []int{4, 5}},
		{"yarn.lock: a scoped name", yarn, []string{"@babel/core"}, []int{7, 8}},
		{"a short entry but its long lines", "[[package]]\nname = \"p\"\nsdist = \"" + strings.Repeat("u", 200) + "\"\nversion = \"1\"\n\n[[package]]\nname = \"q\"\n",
			[]string{"p"}, []int{1, 2, 4}},
		{"uv.lock: a long entry's head but its long lines", uvLock, []string{"requests"}, append(seq(6, 12), seq(14, 6+maxEntryLines-1)...)},
		{"uv.lock: a long entry named past its head: the line alone", uvLock, []string{"urllib3"}, []int{11, 55}},
		{"JSON: the object under the name, and its closing brace", "{\n  \"packages\": {\n    \"node_modules/a\": {\n      \"version\": \"1\"\n    },\n    \"node_modules/b\": {\n      \"version\": \"2\"\n    }\n  }\n}\n",
			[]string{"b"}, []int{6, 7, 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := focusLines(tc.text, tc.names); !slices.Equal(got, tc.want) {
				t.Errorf("focusLines = %v, want %v", got, tc.want)
			}
		})
	}
}

// uvLock has a short entry (lines 1–4) and a long one (lines 6–55), with
// a long line (13).
var uvLock = "[[package]]\nname = \"idna\"\nversion = \"3.7\"\nsource = { registry = \"https://pypi.org/simple\" }\n\n" +
	"[[package]]\nname = \"requests\"\nversion = \"2.32.3\"\nsource = { registry = \"https://pypi.org/simple\" }\ndependencies = [\n    { name = \"urllib3\" },\n]\n" +
	"sdist = { url = \"https://files.example/requests.tar.gz\", hash = \"sha256:" + strings.Repeat("0", 64) + "\", size = 1, upload-time = \"2026-01-28T18:14:54.428Z\" }\n" +
	strings.Repeat("wheels = { url = \"https://files.example/requests.whl\" }\n", 41) + "# urllib3\n"

func seq(from, to int) []int {
	var out []int
	for n := from; n <= to; n++ {
		out = append(out, n)
	}
	return out
}

func TestFocusLinesBounded(t *testing.T) {
	var b strings.Builder
	for range 2 * maxFocusedLines {
		b.WriteString("example.com/a v1 h1:x=\n")
	}
	if got := focusLines(b.String(), []string{"example.com/a"}); len(got) != maxFocusedLines {
		t.Errorf("%d lines kept, want %d", len(got), maxFocusedLines)
	}
}

// FuzzFocusLines checks that the kept lines are lines of the text, in
// order, at most maxFocusedLines, and that a line naming a name is kept
// when there is room.
func FuzzFocusLines(f *testing.F) {
	f.Add("a b\n\nc\n  d\ne\n", "c")
	f.Add("{\n \"x\": {\n  1\n }\n}\n", "x")
	f.Fuzz(func(t *testing.T, text, name string) {
		if name == "" || strings.ContainsAny(name, "\n") {
			return
		}
		got := focusLines(text, []string{name})
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if len(got) > maxFocusedLines || !slices.IsSorted(got) {
			t.Fatalf("kept %v", got)
		}
		for i, n := range got {
			if n < 1 || n > len(lines) || i > 0 && got[i-1] == n {
				t.Fatalf("kept %v of %d lines", got, len(lines))
			}
		}
		if len(got) < maxFocusedLines && text != "" {
			for i, l := range lines {
				if strings.TrimSpace(l) != "" && namesAny(l, []string{name}) && !slices.Contains(got, i+1) { // blank lines part entries
					t.Fatalf("line %d %q names %q but is not kept (%v)", i+1, l, name, got)
				}
			}
		}
	})
}
