package gitctx

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestReadOldEach: the old sides made from the work tree and the
// patches are git's, byte for byte, over edits at either end, final
// newlines lost and gained, CRLF, renames and deletions; a file edited
// since the commit is read from git.
func TestReadOldEach(t *testing.T) {
	r := newTestRepo(t)
	lines := func(from, to int, end string) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			fmt.Fprintf(&b, "line %d%s", i, end)
		}
		return b.String()
	}
	old := map[string]string{
		"start.txt":     lines(1, 20, "\n"),
		"end.txt":       lines(1, 20, "\n"),
		"middle.txt":    lines(1, 40, "\n"),
		"lose-nl.txt":   lines(1, 5, "\n"),
		"gain-nl.txt":   strings.TrimSuffix(lines(1, 5, "\n"), "\n"),
		"keep-no-nl":    strings.TrimSuffix(lines(1, 9, "\n"), "\n"),
		"crlf.txt":      lines(1, 12, "\r\n"),
		"to-empty.txt":  lines(1, 3, "\n"),
		"from-empty":    "",
		"renamed-a.txt": lines(1, 30, "\n"),
		"deleted.txt":   lines(1, 4, "\n"),
		"edited.txt":    lines(1, 10, "\n"),
		"many.txt":      lines(1, 100, "\n"),
	}
	r.WriteAll(old)
	r.Commit("one")
	r.WriteAll(map[string]string{
		"start.txt":    "new first\n" + lines(3, 20, "\n"),
		"end.txt":      lines(1, 18, "\n") + "new last\n",
		"middle.txt":   lines(1, 15, "\n") + "inserted\n" + lines(16, 30, "\n") + lines(33, 40, "\n"),
		"lose-nl.txt":  strings.TrimSuffix(lines(1, 5, "\n"), "\n"),
		"gain-nl.txt":  lines(1, 5, "\n"),
		"keep-no-nl":   lines(1, 8, "\n") + "line 9 changed",
		"crlf.txt":     lines(1, 6, "\r\n") + "changed\r\n" + lines(8, 12, "\r\n"),
		"to-empty.txt": "",
		"from-empty":   "now something\n",
		"edited.txt":   lines(2, 10, "\n"),
		"many.txt":     strings.Replace(strings.Replace(lines(1, 100, "\n"), "line 10\n", "ten\n", 1), "line 90\n", "", 1),
	})
	r.Git("mv", "renamed-a.txt", "renamed-b.txt")
	r.Write("renamed-b.txt", lines(1, 29, "\n")+"changed\n")
	r.remove("deleted.txt")
	r.Commit("two")
	r.Write("edited.txt", "edited since\n") // the work tree no longer holds the commit's

	ctx := context.Background()
	c, err := r.open().SelectRange(ctx, "HEAD~1..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	patches := map[*File]*Patch{}
	err = c.Patches(ctx, func(*File) bool { return true }, -1, func(f *File, p *Patch) error {
		patches[f] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	oldPath := func(f *File) string {
		if f.OldPath != "" {
			return f.OldPath
		}
		return f.Path
	}
	var made []string
	for f := range c.oldFromWorktree(c.Files, patches, nil, -1) {
		made = append(made, oldPath(f))
	}
	slices.Sort(made)
	want := []string{"crlf.txt", "end.txt", "from-empty", "gain-nl.txt", "keep-no-nl", "lose-nl.txt", "many.txt", "middle.txt", "renamed-a.txt", "start.txt", "to-empty.txt"}
	if !slices.Equal(made, want) {
		t.Errorf("old sides made from the work tree: %q\nwant %q", made, want)
	}
	// New sides given: edited.txt's are the commit's bytes, though the
	// work tree was edited since; start.txt's are not its bytes at all.
	given := map[*File]string{}
	for _, f := range c.Files {
		switch f.Path {
		case "edited.txt":
			given[f] = lines(2, 10, "\n")
		case "start.txt":
			given[f] = "not the file\n"
		}
	}
	made = nil
	for f := range c.oldFromWorktree(c.Files, patches, given, -1) {
		made = append(made, oldPath(f))
	}
	slices.Sort(made)
	want = []string{"crlf.txt", "edited.txt", "end.txt", "from-empty", "gain-nl.txt", "keep-no-nl", "lose-nl.txt", "many.txt", "middle.txt", "renamed-a.txt", "to-empty.txt"}
	if !slices.Equal(made, want) {
		t.Errorf("old sides made from the new sides given and the work tree: %q\nwant %q", made, want)
	}
	got := map[string]string{}
	err = c.ReadOldEach(ctx, c.Files, patches, given, -1, func(f *File, size int64, data []byte, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
		if size != int64(len(data)) {
			t.Errorf("%s: size %d, %d bytes", f.Path, size, len(data))
		}
		got[oldPath(f)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for path, text := range old {
		if got[path] != text {
			t.Errorf("%s: old side %q, want %q", path, got[path], text)
		}
	}

	// OldSide, from the new sides as git has them
	for f, p := range patches {
		if f.NewMode == 0 {
			continue
		}
		_, newSide, err := c.Read(ctx, f, New, -1)
		if err != nil {
			t.Fatal(err)
		}
		made, ok := c.OldSide(f, p, string(newSide))
		if want, had := old[oldPath(f)]; ok != had || string(made) != want {
			t.Errorf("OldSide(%s) = %q, %v; want %q, %v", f.Path, made, ok, want, had)
		}
		// from another new side: refused, unless what it makes is the old
		// blob all the same (a line the hunks replace differs)
		for _, other := range []string{"x\n" + string(newSide), string(newSide) + "x\n", ""} {
			if made, ok := c.OldSide(f, p, other); ok && string(made) != old[oldPath(f)] {
				t.Errorf("OldSide(%s) of new side %q made %q", f.Path, other, made)
			}
		}
	}
}

// TestReverseApplyMisfit: hunks that do not fit the new side are refused.
func TestReverseApplyMisfit(t *testing.T) {
	newSide := "a\nb\nc\n"
	for name, hunks := range map[string][]Hunk{
		"past the end": {{OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 2, Lines: []Line{{Op: ' ', Text: "c"}, {Op: '+', Text: "d"}}}},
		"out of order": {
			{OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 1, Lines: []Line{{Op: ' ', Text: "c"}}},
			{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{{Op: ' ', Text: "a"}}},
		},
		"wrong count": {{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 2, Lines: []Line{{Op: ' ', Text: "a"}}}},
	} {
		if out, ok := reverseApply(newSide, hunks); ok {
			t.Errorf("%s: made %q", name, out)
		}
	}
}

// FuzzReverseApply: the old side is made back from the new side and a
// patch of the two (one hunk around what differs, as diff -U3 makes it).
func FuzzReverseApply(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nx\nc\n")
	f.Add("a\nb", "a\nb\n")
	f.Add("", "one\n")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\n5\n6\n7\n8\n")
	f.Add("x\r\ny\r\n", "x\r\nz\r\n")
	f.Fuzz(func(t *testing.T, oldSide, newSide string) {
		hunks := oneHunk(oldSide, newSide, 3)
		got, ok := reverseApply(newSide, hunks)
		if !ok {
			t.Fatalf("refused a patch of %q to %q: %+v", oldSide, newSide, hunks)
		}
		if string(got) != oldSide {
			t.Fatalf("made %q from %q, want %q (hunks %+v)", got, newSide, oldSide, hunks)
		}
	})
}

// oneHunk makes the patch from a to b as one hunk around the lines that
// differ, with up to context lines of context, as unified diff numbers it.
func oneHunk(a, b string, context int) []Hunk {
	la, lb := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(la) && pre < len(lb) && la[pre] == lb[pre] {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && la[len(la)-1-suf] == lb[len(lb)-1-suf] {
		suf++
	}
	if pre == len(la) && pre == len(lb) {
		return nil
	}
	from := max(0, pre-context)
	toA, toB := min(len(la), len(la)-suf+context), min(len(lb), len(lb)-suf+context)
	line := func(op byte, l string) Line {
		text, nl := strings.CutSuffix(l, "\n")
		return Line{Op: op, Text: text, NoNewline: !nl}
	}
	h := Hunk{OldStart: from + 1, OldLines: toA - from, NewStart: from + 1, NewLines: toB - from}
	for _, l := range la[from:pre] {
		h.Lines = append(h.Lines, line(' ', l))
	}
	for _, l := range la[pre : len(la)-suf] {
		h.Lines = append(h.Lines, line('-', l))
	}
	for _, l := range lb[pre : len(lb)-suf] {
		h.Lines = append(h.Lines, line('+', l))
	}
	for _, l := range la[len(la)-suf : toA] {
		h.Lines = append(h.Lines, line(' ', l))
	}
	if h.OldLines == 0 {
		h.OldStart--
	}
	if h.NewLines == 0 {
		h.NewStart--
	}
	return []Hunk{h}
}

// splitLines splits text after each newline; the last line may have none.
func splitLines(text string) []string {
	lines := make([]string, 0, strings.Count(text, "\n")+1)
	for len(text) > 0 {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			lines = append(lines, text)
			break
		}
		lines = append(lines, text[:i+1])
		text = text[i+1:]
	}
	return lines
}

// TestReverseApplyLong: on a side of many blocks, hunks at any line (one
// line replaced, one deleted, one added, without context) are taken back
// exactly, across the blocks skip counts whole.
func TestReverseApplyLong(t *testing.T) {
	var oldLines []string
	for i := range 5000 {
		oldLines = append(oldLines, fmt.Sprintf("line %d %s", i, strings.Repeat("x", i%97)))
	}
	for _, at := range []int{0, 1, 57, 58, 59, 1000, 2047, 2048, 4997} {
		newLines := slices.Clone(oldLines)
		newLines[at] = "changed"                                 // replaced
		newLines = slices.Delete(newLines, at+1, at+2)           // deleted
		newLines = slices.Insert(newLines, at+1, "added", "too") // added
		hunks := []Hunk{{OldStart: at + 1, OldLines: 2, NewStart: at + 1, NewLines: 3, Lines: []Line{
			{Op: '-', Text: oldLines[at]}, {Op: '-', Text: oldLines[at+1]},
			{Op: '+', Text: "changed"}, {Op: '+', Text: "added"}, {Op: '+', Text: "too"},
		}}}
		if at+200 < len(oldLines) { // a second hunk further on: a line added
			newLines = slices.Insert(newLines, at+200+1, "late")
			hunks = append(hunks, Hunk{OldStart: at + 200, OldLines: 0, NewStart: at + 202, NewLines: 1, Lines: []Line{{Op: '+', Text: "late"}}})
		}
		oldSide := strings.Join(oldLines, "\n") + "\n"
		got, ok := reverseApply(strings.Join(newLines, "\n")+"\n", hunks)
		if !ok || string(got) != oldSide {
			g, w := strings.Split(string(got), "\n"), strings.Split(oldSide, "\n")
			for i := range min(len(g), len(w)) {
				if g[i] != w[i] {
					t.Logf("at %d: line %d: %q vs %q", at, i, g[i][:min(12, len(g[i]))], w[i][:min(12, len(w[i]))])
					break
				}
			}
			t.Errorf("edit at line %d: ok %v, %d bytes made, want %d", at, ok, len(got), len(oldSide))
		}
	}
}
