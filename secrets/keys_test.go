package secrets

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// indent puts prefix before every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// hitLines lists the lines of the hits of one rule.
func hitLines(hits []Hit, rule string) []int {
	var out []int
	for _, h := range hits {
		if h.Rule == rule {
			out = append(out, h.Line)
		}
	}
	return out
}

func lineRange(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}

// TestPrivateKeyLines: every line of a multi-line key is replaced, each
// keeping its indentation, and the text keeps its lines.
func TestPrivateKeyLines(t *testing.T) {
	key := fake(t, "private-key", "lines")
	keyLines := strings.Count(key.Token, "\n") + 1
	ph := "[REDACTED:private-key#1]"
	tests := []struct {
		name   string
		before string
		key    string // the key as laid out in the text
		after  string
		want   string // each key line redacted
		from   int    // first line of the key
	}{
		{"top level", "# deploy key\n", key.Token, "\n# end\n", strings.Repeat(ph+"\n", keyLines-1) + ph, 1},
		{"yaml block", "tls:\n  key: |\n", indent(key.Token, "    "), "\n  cert: none\n",
			strings.Repeat("    "+ph+"\n", keyLines-1) + "    " + ph, 2},
		{"tabs", "func f() {\n\tconst k = `", strings.ReplaceAll(key.Token, "\n", "\n\t\t"), "`\n}\n",
			ph + strings.Repeat("\n\t\t"+ph, keyLines-1), 1},
		{"go string", "", "k := \"" + key.Token, "\"\n", "k := \"" + ph + strings.Repeat("\n"+ph, keyLines-1), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGate(t, Options{})
			text := tt.before + tt.key + tt.after
			red, hits, err := g.RedactString(context.Background(), text)
			if err != nil {
				t.Fatal(err)
			}
			got := red.String()
			if want := tt.before + tt.want + tt.after; got != want {
				t.Errorf("redacted:\n%s\nwant:\n%s", got, want)
			}
			if strings.Count(got, "\n") != strings.Count(text, "\n") {
				t.Errorf("line count changed")
			}
			if frag := key.Leak(got, 8); frag != "" {
				t.Errorf("part of the key survives")
			}
			if got, want := hitLines(hits, "private-key"), lineRange(tt.from, keyLines); !reflect.DeepEqual(got, want) {
				t.Errorf("hit lines = %v, want %v", got, want)
			}
		})
	}
}

// TestPrivateKeyCRLF: a key with CRLF line ends keeps them.
func TestPrivateKeyCRLF(t *testing.T) {
	g := newGate(t, Options{})
	key := fake(t, "private-key", "crlf")
	text := "a\r\n" + strings.ReplaceAll(key.Token, "\n", "\r\n") + "\r\nb\r\n"
	red, hits, err := g.RedactString(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(key.Token, "\n") + 1
	want := "a\r\n" + strings.Repeat("[REDACTED:private-key#1]\r\n", n) + "b\r\n"
	if red.String() != want {
		t.Errorf("redacted %q, want %q", red, want)
	}
	if got := hitLines(hits, "private-key"); !reflect.DeepEqual(got, lineRange(1, n)) {
		t.Errorf("hit lines = %v", got)
	}
}

// TestPrivateKeyBlankLine: a blank line inside a key (PGP armor) stays
// blank and gets no placeholder; the other lines do.
func TestPrivateKeyBlankLine(t *testing.T) {
	g := newGate(t, Options{})
	body := fake(t, "private-key", "pgp")
	lines := strings.Split(body.Token, "\n")
	armor := "-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: test\n\n" + strings.Join(lines[1:len(lines)-1], "\n") + "\n=AbCd\n-----END PGP PRIVATE KEY BLOCK-----"
	text := "x\n" + armor + "\ny\n"
	red, hits, err := g.RedactString(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(red.String(), "\n")
	if got[3] != "" {
		t.Errorf("blank line in the key became %q", got[3])
	}
	want := []int{1, 2}
	for i := 4; i <= strings.Count(armor, "\n")+1; i++ {
		want = append(want, i)
	}
	if lines := hitLines(hits, "private-key"); !reflect.DeepEqual(lines, want) {
		t.Errorf("hit lines = %v, want %v", lines, want)
	}
	if frag := body.Leak(red.String(), 8); frag != "" {
		t.Errorf("part of the key survives:\n%s", red)
	}
}

// TestPrivateKeyRotated: a key rotated in place keeps its BEGIN and END
// lines; both versions are redacted whole, as two secrets.
func TestPrivateKeyRotated(t *testing.T) {
	g := newGate(t, Options{})
	old, rotated := fake(t, "private-key", "before"), fake(t, "private-key", "after")
	if strings.Split(old.Token, "\n")[0] != strings.Split(rotated.Token, "\n")[0] {
		t.Fatal("the two versions should share their BEGIN line")
	}
	n := strings.Count(old.Token, "\n") + 1
	for i, k := range []fixture{old, rotated} {
		text := "key: |\n" + indent(k.Token, "  ") + "\n"
		red, hits, err := g.RedactString(context.Background(), text)
		if err != nil {
			t.Fatal(err)
		}
		ph := "[REDACTED:private-key#" + string(rune('1'+i)) + "]"
		if want := "key: |\n" + strings.Repeat("  "+ph+"\n", n); red.String() != want {
			t.Errorf("version %d redacted:\n%s\nwant:\n%s", i+1, red, want)
		}
		if got := hitLines(hits, "private-key"); !reflect.DeepEqual(got, lineRange(1, n)) {
			t.Errorf("version %d: hit lines %v", i+1, got)
		}
	}
}

// TestPrivateKeyEscaped: a key written on one line with \n escapes (a
// service account JSON) is replaced on that line.
func TestPrivateKeyEscaped(t *testing.T) {
	g := newGate(t, Options{})
	key := fake(t, "private-key", "json")
	esc := strings.ReplaceAll(key.Token, "\n", `\n`)
	random := make([]bool, 0, len(esc))
	for i := range key.Token {
		random = append(random, key.Random[i])
		if key.Token[i] == '\n' {
			random = append(random, false)
		}
	}
	ek := fixture{Rule: key.Rule, Token: esc, Random: random}
	text := "{\n  \"type\": \"service_account\",\n  \"private_key\": \"" + esc + "\\n\",\n  \"client_email\": \"x@example.com\"\n}\n"
	red, hits, err := g.RedactString(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	if frag := ek.Leak(red.String(), 8); frag != "" {
		t.Errorf("part of the key survives:\n%s", red)
	}
	if got := hitLines(hits, "private-key"); !reflect.DeepEqual(got, []int{2}) {
		t.Errorf("hit lines %v, want [2] (hits %+v)", got, hits)
	}
	if !strings.Contains(red.String(), "\"client_email\": \"x@example.com\"") {
		t.Errorf("the next line was touched:\n%s", red)
	}
}

// TestPrivateKeyAtEndOfText: a key that ends the text, with no newline
// after it (a commit message trimmed of its final newline, the last text
// joined by pack's redactMany), is replaced on every line like any other.
func TestPrivateKeyAtEndOfText(t *testing.T) {
	key := fake(t, "private-key", "end")
	n := strings.Count(key.Token, "\n") + 1
	ph := "[REDACTED:private-key#1]"
	for _, tt := range []struct{ name, before, after string }{
		{"key alone", "", ""},
		{"after a subject", "rotate the key\n\n", ""},
		{"text after END on the last line", "rotate the key\n\n", " (old)"},
		{"with final newline", "rotate the key\n\n", "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newGate(t, Options{})
			text := tt.before + key.Token + tt.after
			red, hits, err := g.RedactString(context.Background(), text)
			if err != nil {
				t.Fatal(err)
			}
			if frag := key.Leak(red.String(), 8); frag != "" {
				t.Errorf("key body survives redaction:\n%s", red)
			}
			want := tt.before + strings.Repeat(ph+"\n", n-1) + ph + tt.after
			if red.String() != want {
				t.Errorf("redacted:\n%q\nwant:\n%q", red, want)
			}
			from := strings.Count(tt.before, "\n")
			if got := hitLines(hits, "private-key"); !reflect.DeepEqual(got, lineRange(from, n)) {
				t.Errorf("hit lines %v, want %v", got, lineRange(from, n))
			}
		})
	}
}

// TestTwoKeys: two keys one after the other are two secrets, each line
// with its own placeholder.
func TestTwoKeys(t *testing.T) {
	g := newGate(t, Options{})
	a, b := fake(t, "private-key", "first"), fake(t, "private-key", "second")
	text := a.Token + "\n" + b.Token + "\n"
	red, _, err := g.RedactString(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(a.Token, "\n") + 1
	want := strings.Repeat("[REDACTED:private-key#1]\n", n) + strings.Repeat("[REDACTED:private-key#2]\n", n)
	if red.String() != want {
		t.Errorf("redacted:\n%s\nwant:\n%s", red, want)
	}
}
