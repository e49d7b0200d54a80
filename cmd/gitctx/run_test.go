package main

import "testing"

func TestTerminalSafe(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain/path.go", "plain/path.go"},
		{"tab\tand\nnewline", "tab\tand\nnewline"},
		{"esc\x1b]0;title\x07", "esc\u241b]0;title\u2407"},
		{"del\x7f", "del\u2421"},
		{"c1\u009b31m", `c1\u009b31m`},
		{"evil\u202egnp.exe", `evil\u202egnp.exe`},
		{"iso\u2066late\u2069 lrm\u200e rlm\u200f alm\u061c", `iso\u2066late\u2069 lrm\u200e rlm\u200f alm\u061c`},
		{"üñí ✓", "üñí ✓"},
	}
	for _, tt := range tests {
		if got := terminalSafe(tt.in); got != tt.want {
			t.Errorf("terminalSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
