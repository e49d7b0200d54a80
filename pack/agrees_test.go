package pack

import (
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// TestAgrees: a side agrees with the diff when every line the diff
// numbers on it is there, as the diff shows it; a final newline ends the
// last line and starts none.
func TestAgrees(t *testing.T) {
	patch := &gitctx.Patch{Hunks: []gitctx.Hunk{{
		OldStart: 2, OldLines: 2, NewStart: 2, NewLines: 2,
		Lines: []gitctx.Line{{Op: ' ', Text: "b"}, {Op: '-', Text: "c"}, {Op: '+', Text: "C"}},
	}}}
	cases := []struct {
		text     string
		old, new bool
	}{
		{"a\nb\nc\n", true, false},
		{"a\nb\nC\n", false, true},
		{"a\nb\nC", false, true},
		{"a\nb\n", false, false}, // a line short
		{"a\nx\nC\n", false, false},
		{"", false, false},
	}
	for _, tc := range cases {
		lines := splitSide(tc.text)
		if got := agrees(lines, patch, true); got != tc.old {
			t.Errorf("%q as the old side: agrees %v, want %v", tc.text, got, tc.old)
		}
		if got := agrees(lines, patch, false); got != tc.new {
			t.Errorf("%q as the new side: agrees %v, want %v", tc.text, got, tc.new)
		}
	}
	if !agrees(splitSide("x\n"), nil, false) {
		t.Error("no diff: does not agree")
	}
}
