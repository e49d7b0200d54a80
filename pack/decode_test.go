package pack

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	out := make([]byte, 0, 2*len(units))
	for _, u := range units {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

const lfsPointer = "version https://git-lfs.github.com/spec/v1\n" +
	"oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n"

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want decoded
	}{
		{"utf-8", []byte("héllo wörld 日本\n"), decoded{Text: "héllo wörld 日本\n", Kind: KindText, Encoding: "utf-8"}},
		{"empty", nil, decoded{Text: "", Kind: KindText, Encoding: "utf-8"}},
		{"utf-8 with BOM, kept as git shows it", []byte("\xEF\xBB\xBFbom\n"), decoded{Text: "\uFEFFbom\n", Kind: KindText, Encoding: "utf-8"}},
		{"utf-16le with BOM", utf16Bytes("héllo 😀\r\n", false, true), decoded{Text: "héllo 😀\r\n", Kind: KindText, Encoding: "utf-16le"}},
		{"utf-16be with BOM", utf16Bytes("héllo 😀\n", true, true), decoded{Text: "héllo 😀\n", Kind: KindText, Encoding: "utf-16be"}},
		{"utf-16le without BOM", utf16Bytes("plain ascii text\n", false, false), decoded{Text: "plain ascii text\n", Kind: KindText, Encoding: "utf-16le"}},
		{"utf-16be without BOM", utf16Bytes("plain ascii text\n", true, false), decoded{Text: "plain ascii text\n", Kind: KindText, Encoding: "utf-16be"}},
		{"latin-1", []byte("caf\xe9 na\xefve\n"), decoded{Text: "café naïve\n", Kind: KindText, Encoding: "windows-1252"}},
		{"windows-1252 quotes and euro", []byte("\x93quoted\x94 \x80 5\n"), decoded{Text: "\u201cquoted\u201d € 5\n", Kind: KindText, Encoding: "windows-1252"}},
		{"NUL is binary", []byte("text\x00more text"), decoded{Kind: KindBinary}},
		{"PNG header is binary", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), decoded{Kind: KindBinary}},
		{"NUL after the sniffed head is text", []byte(strings.Repeat("a", sniffLen) + "\x00"), decoded{Text: strings.Repeat("a", sniffLen) + "\x00", Kind: KindText, Encoding: "utf-8"}},
		{"utf-16 with a NUL character is binary", utf16Bytes("a\x00b", false, true), decoded{Kind: KindBinary}},
		{"lfs pointer", []byte(lfsPointer), decoded{Text: lfsPointer, Kind: KindLFSPointer, Encoding: "utf-8"}},
		{"not an lfs pointer when large", []byte(lfsPointer + strings.Repeat("x", 1024)), decoded{Text: lfsPointer + strings.Repeat("x", 1024), Kind: KindText, Encoding: "utf-8"}},
	}
	for _, tt := range tests {
		got := decode(tt.data)
		if got != tt.want {
			t.Errorf("%s: decode = %+q, want %+q", tt.name, got, tt.want)
		}
		if got.Kind != KindBinary && !utf8.ValidString(got.Text) {
			t.Errorf("%s: decoded text is not UTF-8", tt.name)
		}
	}
}

// TestDecodeInBuild checks that the encodings reach the record and that the
// pack shows the decoded text.
func TestDecodeInBuild(t *testing.T) {
	r := newRepo(t, "encodings")
	r.Write("utf16.txt", string(utf16Bytes("sixteen bits\n", false, true)))
	r.Write("latin1.txt", "caf\xe9\n")
	r.Write("ptr.bin.txt", lfsPointer)
	r.Commit("add")
	res := build(t, r.change("HEAD"), options(counter(t), Markdown, 0))
	want := map[string][2]string{
		"utf16.txt":   {KindText, "utf-16le"},
		"latin1.txt":  {KindText, "windows-1252"},
		"ptr.bin.txt": {KindLFSPointer, ""},
	}
	for _, f := range res.Record.Files {
		if w, ok := want[f.Path]; ok && (f.Kind != w[0] || (w[1] != "" && f.Encoding != w[1])) {
			t.Errorf("%s: kind %q encoding %q, want %q %q", f.Path, f.Kind, f.Encoding, w[0], w[1])
		}
	}
	for _, s := range []string{"sixteen bits\n", "café\n", "(decoded from utf-16le)", "(decoded from windows-1252)", "Git LFS pointer"} {
		if !strings.Contains(res.Text, s) {
			t.Errorf("the pack does not show %q", s)
		}
	}
}

func TestDecodeLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"caf\xe9", "café"},
		{"ü already utf-8", "ü already utf-8"},
	}
	for _, tt := range tests {
		if got := decodeLine(tt.in); got != tt.want {
			t.Errorf("decodeLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
