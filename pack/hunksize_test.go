package pack

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// sizeOfRecut is hunkSize's answer worked out the long way: by re-cutting
// the hunks and measuring what withContext builds.
func sizeOfRecut(hunks []gitctx.Hunk, context int) (n, lines int) {
	if context < 3 {
		hunks = withContext(hunks, context)
	}
	for _, h := range hunks {
		n += 24 + len(h.Section)
		lines++
		for _, l := range h.Lines {
			n += len(l.Text) + 2
			lines++
		}
	}
	return n, lines
}

func TestHunkSizeMatchesRecut(t *testing.T) {
	r := newRepo(t, "hunksize")
	files := map[string][2]string{}
	for i, c := range diffCases {
		files[fmt.Sprintf("f%d.txt", i)] = [2]string{c.old, c.new}
	}
	for path, p := range patchesOf(t, r, files) {
		for n := 0; n <= 3; n++ {
			gotN, gotLines := hunkSize(p.Hunks, n)
			wantN, wantLines := sizeOfRecut(p.Hunks, n)
			if gotN != wantN || gotLines != wantLines {
				t.Errorf("%s, %d lines of context: hunkSize = %d bytes, %d lines; re-cut hunks are %d, %d", path, n, gotN, gotLines, wantN, wantLines)
			}
		}
	}
}

// FuzzHunkSize holds hunkSize to the hunks withContext builds, for hunks
// of any shape: each byte of ops is a line (' ', '-' or '+'), its text
// taken from text.
func FuzzHunkSize(f *testing.F) {
	f.Add([]byte("  - +   +  -"), "func a()\n\tx\n_y\n\n$z", uint8(1))
	f.Add([]byte("-"), "", uint8(0))
	f.Add([]byte("          -   +"), "a\nb\nc\n\td", uint8(2))
	f.Fuzz(func(t *testing.T, ops []byte, text string, context uint8) {
		if len(ops) > 400 {
			return
		}
		words := append([]string{""}, splitNonEmpty(text)...)
		var hunks []gitctx.Hunk
		h := gitctx.Hunk{OldStart: 1, NewStart: 1, Section: "top"}
		for i, c := range ops {
			op := " -+"[int(c)%3]
			if c == 0xff { // a hunk boundary
				hunks = append(hunks, h)
				h = gitctx.Hunk{OldStart: i + 1, NewStart: i + 1, Section: words[i%len(words)]}
				continue
			}
			h.Lines = append(h.Lines, gitctx.Line{Op: op, Text: words[i%len(words)]})
		}
		hunks = append(hunks, h)
		n := int(context % 5)
		gotN, gotLines := hunkSize(hunks, n)
		wantN, wantLines := sizeOfRecut(hunks, n)
		if gotN != wantN || gotLines != wantLines {
			t.Fatalf("%d lines of context: hunkSize = %d bytes, %d lines; re-cut hunks are %d, %d", n, gotN, gotLines, wantN, wantLines)
		}
		var got, want []string
		for _, h := range hunks {
			recutSections(h, n, func(s string) { got = append(got, s) })
		}
		for _, h := range withContext(hunks, n) {
			want = append(want, h.Section)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%d lines of context: recutSections = %q; re-cut hunks have %q", n, got, want)
		}
	})
}

func splitNonEmpty(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}
