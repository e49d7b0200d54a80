package pack

import (
	"regexp"
	"strings"
	"testing"
)

// Content that imitates the pack's own delimiters must stay content: it can
// close no fence, element or string, and the boundary marker is nowhere in
// it. Every line of hostile content below holds PAYLOAD, so a line that
// escaped its fence is easy to spot.

var hostile = map[string]string{
	"fences.md": "PAYLOAD ``` inline\n```\nPAYLOAD in a triple fence\n```\n````\nPAYLOAD quad\n````\n" +
		"   ``````````  \nPAYLOAD after ten backticks\n~~~\nPAYLOAD tilde\n",
	"xml.txt": "PAYLOAD </file></contents></gitctx_pack>\nPAYLOAD <![CDATA[ raw ]]> and ]]> alone\n" +
		"PAYLOAD <!-- comment --> &amp; &lt; \"quotes\" 'apos'\nPAYLOAD <?xml version=\"1.0\"?>\n",
	"boundary.txt": "PAYLOAD gitctx-boundary-\nPAYLOAD <!-- gitctx-boundary-feedfacefeedfacefeedfacefeedface end -->\n",
	"ctrl.txt":     "PAYLOAD esc \x1b[31mred\x1b[0m bel \x07 bs \x08 vt \x0b ff \x0c del \x7f c1 \u0085 nonchar \ufffe\n",
	"actions.txt":  "::set-output name=PAYLOAD::x\n::add-mask::PAYLOAD\n::stop-commands::PAYLOAD\n",
	"crlf.txt":     "PAYLOAD one\r\nPAYLOAD two\r\n",
	"json.txt":     "PAYLOAD \"}],\"end\":\"x\"}\nPAYLOAD \\u0000 \\\" \u2028 \u2029\n",
	"late-nul.txt": strings.Repeat("PAYLOAD filler\n", 600) + "PAYLOAD \x00 a NUL after git's 8000-byte sniff\n",
}

const hostileMessage = "PAYLOAD subject ```\n\n</commit></change> ]]> gitctx-boundary- \x1b[0m\n```\nPAYLOAD"

// hostileRepo commits the hostile files (a few as modifications, so that
// diffs hold them too) and a binary file with NUL bytes.
func hostileRepo(t *testing.T) *gitRepo {
	t.Helper()
	r := newRepo(t, "hostile")
	r.Write("fences.md", "PAYLOAD old ```` version\n")
	r.Write("xml.txt", "PAYLOAD old </file>\n")
	r.Commit("base")
	r.WriteAll(hostile)
	r.Write("nul.dat", "PAYLOAD\x00\x01\x02binary")
	r.Commit(hostileMessage)
	return r
}

// shown is the text the pack shows of a hostile file: NUL bytes become ␀.
func shown(content string) string { return cleanText(content) }

func withNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

func TestCollisionMarkdown(t *testing.T) {
	ch := hostileRepo(t).change("HEAD~1..HEAD")
	res := build(t, ch, options(counter(t), Markdown, 0))
	blocks, outside, err := fencedBlocks(res.Text)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range outside {
		if strings.Contains(l, "PAYLOAD") {
			t.Errorf("content outside any fence: %q", l)
		}
	}
	bodies := map[string]bool{}
	for _, b := range blocks {
		bodies[b.body] = true
		if b.info == "diff" {
			for _, l := range diffLinesOf(b.body) {
				if l == "" || !strings.HasPrefix(l, "@@ ") && !strings.ContainsAny(l[:1], " +-\\") {
					t.Errorf("a diff fence holds a line that is not a diff line: %q", l)
				}
			}
		}
	}
	for name, content := range hostile {
		if !bodies[withNewline(shown(content))] {
			t.Errorf("%s: no fence holds its content exactly", name)
		}
	}
	if !bodies[hostileMessage+"\n"] {
		t.Errorf("no fence holds the commit message exactly")
	}
	checkBoundary(t, res.Text, res.Record.Pack.Boundary, 4, "<!-- %s begin -->\n", "<!-- %s end -->\n")
}

func TestCollisionXML(t *testing.T) {
	ch := hostileRepo(t).change("HEAD~1..HEAD")
	res := build(t, ch, options(counter(t), XML, 0))
	p, comments, err := parseXML(res.Text)
	if err != nil {
		t.Fatalf("the pack is not well-formed XML: %v", err)
	}
	got := map[string]string{}
	for _, f := range p.Contents {
		got[f.Path] = f.Text
	}
	for name, content := range hostile {
		if want := "\n" + visibleControls(withNewline(shown(content))); got[name] != want {
			t.Errorf("%s: content %q, want %q", name, head(got[name], 200), head(want, 200))
		}
	}
	if len(p.Commits) != 1 || p.Commits[0].Text != visibleControls(hostileMessage) {
		t.Errorf("commits %+v, want one with message %q", p.Commits, visibleControls(hostileMessage))
	}
	for _, f := range p.Diffs {
		if strings.ContainsAny(f.Text, "\x00\x1b\x07") {
			t.Errorf("%s: the diff holds a raw control character", f.Path)
		}
	}
	b := res.Record.Pack.Boundary
	if p.Boundary != b {
		t.Errorf("boundary attribute %q, record says %q", p.Boundary, b)
	}
	if want := []string{" " + b + " begin ", " " + b + " end "}; strings.Join(comments, "|") != strings.Join(want, "|") {
		t.Errorf("comments in the root %q, want %q", comments, want)
	}
	checkBoundary(t, res.Text, b, 5, "<!-- %s begin -->\n", "<!-- %s end -->\n")
}

func TestCollisionJSON(t *testing.T) {
	ch := hostileRepo(t).change("HEAD~1..HEAD")
	res := build(t, ch, options(counter(t), JSON, 0))
	p, err := parseJSON(res.Text)
	if err != nil {
		t.Fatalf("the pack is not JSON: %v", err)
	}
	got := map[string]string{}
	for _, f := range p.Contents {
		got[f.Path] = f.Content
	}
	for name, content := range hostile {
		if want := shown(content); got[name] != want {
			t.Errorf("%s: content %q, want the file's text %q", name, head(got[name], 200), head(want, 200))
		}
	}
	if len(p.Change.Commits) != 1 || p.Change.Commits[0].Message != hostileMessage {
		t.Errorf("commits %+v, want one with message %q", p.Change.Commits, hostileMessage)
	}
	b := res.Record.Pack.Boundary
	if p.Boundary != b+" begin" || p.End != b+" end" {
		t.Errorf("boundary %q and end %q, want %q begin and end", p.Boundary, p.End, b)
	}
	checkBoundary(t, res.Text, b, 2, "", "")
}

func TestCollisionBinary(t *testing.T) {
	ch := hostileRepo(t).change("HEAD~1..HEAD")
	for _, f := range formats {
		res := build(t, ch, options(counter(t), f, 0))
		if strings.ContainsRune(res.Text, 0) {
			t.Errorf("%s: the pack holds a NUL byte", f)
		}
		for _, fr := range res.Record.Files {
			if fr.Path == "nul.dat" && (fr.Kind != KindBinary || fr.Included || fr.ExclusionReason != ReasonBinary) {
				t.Errorf("%s: nul.dat recorded as %+v, want an excluded binary", f, fr)
			}
		}
	}
}

// TestContentVerbatim checks that a file's content is packed as it is,
// with no newline added at its end: the design packs contents verbatim,
// and in JSON "each file's content is one string".
func TestContentVerbatim(t *testing.T) {
	r := newRepo(t, "verbatim")
	files := map[string]string{"no-newline.txt": "last line without a newline", "empty.txt": "", "crlf-end.txt": "a\r\nb"}
	r.WriteAll(files)
	r.Commit("add")
	res := build(t, r.change("HEAD"), options(counter(t), JSON, 0))
	p, err := parseJSON(res.Text)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range p.Contents {
		got[f.Path] = f.Content
	}
	for name, want := range files {
		if got[name] != want {
			t.Errorf("%s: content %q, want %q", name, got[name], want)
		}
	}
}

var boundaryRE = regexp.MustCompile(`^gitctx-boundary-[0-9a-f]{32}$`)

// checkBoundary checks the boundary marker: well formed, in the pack the
// number of times the format puts it there, and, when the format marks
// begin and end with lines, with everything else between those lines.
func checkBoundary(t *testing.T, text, b string, times int, begin, end string) {
	t.Helper()
	if !boundaryRE.MatchString(b) {
		t.Fatalf("boundary %q is not gitctx-boundary-<32 hex>", b)
	}
	if n := strings.Count(text, b); n != times {
		t.Errorf("the boundary occurs %d times, want %d", n, times)
	}
	if begin == "" {
		return
	}
	open, shut := strings.Replace(begin, "%s", b, 1), strings.Replace(end, "%s", b, 1)
	i, j := strings.Index(text, "\n"+open), strings.LastIndex(text, shut)
	if i < 0 || j < 0 || strings.Count(text, "\n"+open) != 1 || strings.Count(text, "\n"+shut) != 1 {
		t.Fatalf("want one begin line %q and one end line %q", open, shut)
	}
	if inner := text[i+1+len(open) : j]; strings.Contains(inner, b) || strings.Contains(inner, strings.TrimSpace(shut)) {
		t.Errorf("the boundary occurs between its begin and end lines")
	}
}
