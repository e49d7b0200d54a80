package pack

import (
	"strconv"
	"strings"
	"testing"
)

func TestDisplayPath(t *testing.T) {
	tests := []struct {
		path string
		want string
	}{
		{"main.go", "main.go"},
		{"docs/release notes ü.md", "docs/release notes ü.md"},
		{"日本語/ファイル.txt", "日本語/ファイル.txt"},
		{"a|b`c*.md", "a|b`c*.md"},
		{"new\nline.txt", `"new\nline.txt"`},
		{"tab\there", `"tab\there"`},
		{"esc\x1b[31m.txt", `"esc\x1b[31m.txt"`},
		{"cr\r.txt", `"cr\r.txt"`},
		{"bidi\u202etxt.exe", `"bidi\u202etxt.exe"`},
		{"zero\u200bwidth", `"zero\u200bwidth"`},
		{"bad\xffutf8", `"bad\xffutf8"`},
		{" leading", `" leading"`},
		{"trailing ", `"trailing "`},
		{"nbsp\u00a0end\u00a0", `"nbsp\u00a0end\u00a0"`},
		{`"quoted"`, `"\"quoted\""`},
		{"", `""`},
	}
	for _, tt := range tests {
		got := displayPath(tt.path)
		if got != tt.want {
			t.Errorf("displayPath(%q) = %s, want %s", tt.path, got, tt.want)
		}
		if got != tt.path {
			// a quoted name reads back as the name
			if back, err := strconv.Unquote(got); err != nil || back != tt.path {
				t.Errorf("displayPath(%q) = %s does not unquote to the path (%q, %v)", tt.path, got, back, err)
			}
		}
		if strings.ContainsAny(got, "\n\r\x1b\u202e") {
			t.Errorf("displayPath(%q) = %q holds a raw control character", tt.path, got)
		}
	}
}

// TestInlineCode reads the code span back as CommonMark does: the text it
// shows must be the (displayed) text it was given, whatever backticks it
// holds.
func TestInlineCode(t *testing.T) {
	for _, s := range []string{
		"plain", "a b", "`", "``", "a`b", "a``b", "a```b", "a`b``c", "`start", "end`", "``both``",
		"one ` and three ```", "x````y`", " spaced ", "name with\nnewline",
	} {
		got := inlineCode(s)
		code, rest, ok := codeSpan(got)
		if !ok || rest != "" {
			t.Errorf("inlineCode(%q) = %q: the code span closes early, leaving %q", s, got, rest)
			continue
		}
		if want := displayPath(s); code != want {
			t.Errorf("inlineCode(%q) = %q reads back as %q, want %q", s, got, code, want)
		}
	}
}

func TestFence(t *testing.T) {
	tests := []struct{ text, want string }{
		{"", "```"},
		{"no ticks", "```"},
		{"``", "```"},
		{"```", "````"},
		{"a ``` b ````` c", "``````"},
		{strings.Repeat("`", 20), strings.Repeat("`", 21)},
	}
	for _, tt := range tests {
		if got := fence(tt.text); got != tt.want {
			t.Errorf("fence(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestThousands(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {12345, "12,345"}, {128000, "128,000"},
		{1234567, "1,234,567"}, {-1, "-1"}, {-1000, "-1,000"}, {-123456, "-123,456"},
	}
	for _, tt := range tests {
		if got := thousands(tt.n); got != tt.want {
			t.Errorf("thousands(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestVisibleControls(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"keep\ttab\nnewline\r\n", "keep\ttab\nnewline\r\n"},
		{"esc \x1b[0m", "esc \u241b[0m"},
		{"bel \x07 nul \x00", "bel \u2407 nul \u2400"},
		{"del \x7f", "del \u2421"},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b`},
		{"nonchars \ufffe \uffff", `nonchars \ufffe \uffff`},
		{"unicode ü 日本 😀 \u202e stays", "unicode ü 日本 😀 \u202e stays"},
	}
	for _, tt := range tests {
		if got := visibleControls(tt.in); got != tt.want {
			t.Errorf("visibleControls(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCleanText(t *testing.T) {
	if got, want := cleanText("a\x00b\x00"), "a\u2400b\u2400"; got != want {
		t.Errorf("cleanText = %q, want %q", got, want)
	}
	if got := cleanText("no nul \x1b"); got != "no nul \x1b" {
		t.Errorf("cleanText changed text without NUL: %q", got)
	}
}

func TestTableCell(t *testing.T) {
	if got, want := tableCell("a|b||c"), `a\|b\|\|c`; got != want {
		t.Errorf("tableCell = %q, want %q", got, want)
	}
}
