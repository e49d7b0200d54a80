package gitctx

import (
	"strings"
	"testing"
)

// TestReadGrep: `git grep -z` lines are split at the first NUL into path
// and text, a tree's "rev:" prefix is dropped (a path may hold a colon of
// its own), and an over-long line is handed on cut to maxGrepLine with the
// lines after it intact.
func TestReadGrep(t *testing.T) {
	long := strings.Repeat("x", maxGrepLine+100_000)
	out := "HEAD:a.go\x00func Alpha() {}\n" +
		"HEAD:odd:name.txt\x00Alpha\n" +
		"HEAD:min.js\x00" + long + "\n" +
		"no separator\n" +
		"HEAD:b.go\x00Alpha()\n"
	type hit struct{ path, text string }
	var got []hit
	read := func(fromTree bool) {
		got = nil
		err := readGrep(strings.NewReader(out), fromTree, func(p string, text []byte) {
			got = append(got, hit{p, string(text)})
		})
		if err != nil {
			t.Fatalf("readGrep: %v", err)
		}
	}
	read(true)
	want := []hit{{"a.go", "func Alpha() {}"}, {"odd:name.txt", "Alpha"}, {"min.js", long[:maxGrepLine-len("HEAD:min.js\x00")]}, {"b.go", "Alpha()"}}
	if len(got) != len(want) {
		t.Fatalf("readGrep gave %d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].path != want[i].path || len(got[i].text) != len(want[i].text) || got[i].text != want[i].text {
			t.Errorf("line %d = %q (%d bytes), want %q (%d bytes)", i, got[i].path, len(got[i].text), want[i].path, len(want[i].text))
		}
	}
	read(false)
	if got[0].path != "HEAD:a.go" {
		t.Errorf("work-tree path = %q, want it as git printed it", got[0].path)
	}
}
