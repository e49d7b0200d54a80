package pack

import (
	"context"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/secrets"
)

// FuzzRenderCollision renders a pack of one modified file, whose path, new
// content and commit message are fuzzed (the path is also the pull
// request's title, the message its description), in every format, through
// the shaper as Build runs it, and reads it back: the XML and JSON must
// parse and give back the text, each markdown fence must hold exactly its
// text, and the boundary must sit only where the format puts it.
func FuzzRenderCollision(f *testing.F) {
	for name, content := range hostile {
		if len(content) < 1024 { // big seeds make the fuzzer's minimizing slow
			f.Add(name, content, hostileMessage)
		}
	}
	f.Add("`a`/``b``.md", "```\n````\n", "````")
	f.Add("a//b\n", "\r\r\n\n", "\r")
	f.Add(" ", "", "")
	f.Add("dir/\u202egnp.exe", "<!-- x -->\n]]>", "::stop-commands::x")
	c := counter(f)
	f.Fuzz(func(t *testing.T, path, content, msg string) {
		path = cleanText(strings.ToValidUTF8(path, "\ufffd"))
		content = cleanText(strings.ToValidUTF8(content, "\ufffd"))
		msg = cleanText(strings.ToValidUTF8(msg, "\ufffd"))
		if path == "" {
			t.Skip("git has no empty paths")
		}
		for _, format := range formats {
			text, b := renderFuzzed(t, c, format, path, content, msg)
			checkRendered(t, format, text, b, path, content, msg)
		}
	})
}

const fuzzOld = "the old line\n"

// prBody is the pull request's description a fuzzed pack shows: the
// commit message, never empty (an empty one is left out).
func prBody(msg string) string { return "About: " + msg }

// renderFuzzed renders a full pack of one file changed from fuzzOld to
// content, in the order the shaper assembles one, and returns its text and
// boundary. The gate is left out (the content is taken as through it):
// under the fuzzer's coverage instrumentation its regular expressions, RE2
// in WebAssembly, run hundreds of times slower.
func renderFuzzed(t *testing.T, c Counter, format Format, path, content, msg string) (string, string) {
	t.Helper()
	e := &entry{
		file: &gitctx.File{Path: path, Status: gitctx.Modified, OldMode: gitctx.ModeRegular, NewMode: gitctx.ModeRegular},
		path: path, label: secrets.Literal(path), role: RoleChanged, status: string(gitctx.Modified),
		kind: KindText, reason: "changed", patch: replacePatch(fuzzOld, content),
	}
	e.setText(content, Truncation{MaxFileBytes: math.MaxInt64, HeadLines: DefaultHeadLines, TailLines: DefaultTailLines}) // shown whole
	initFull(e)
	e.red = &redaction{newWhole: literalImage(content), oldDiff: literalImage(fuzzOld), sections: map[string]redactedText{}}
	e.red.newDiff = e.red.newWhole
	subject, _, _ := strings.Cut(msg, "\n")
	v := &view{
		Type: "full", Tool: Tool{Name: "gitctx", Version: "fuzz"}, Messages: true, ShowTree: true,
		Source:      gitctx.Source{Kind: gitctx.KindRange, Spec: "a..b", Base: strings.Repeat("a", 40), Head: strings.Repeat("b", 40)},
		Commits:     []commitView{{SHA: strings.Repeat("c", 40), Subject: subject, Message: msg}},
		PullRequest: &prView{Number: 7, Title: path, Body: prBody(msg)},
		Manifest:    Manifest{Name: "fuzz", Type: "go", Dependencies: []string{}, EntryPoints: []string{}},
		Entries:     []*entry{e}, Budget: BudgetRecord{Limit: DefaultLimit, Tokenizer: c.Name()},
		origins: map[string]RedactionItem{},
	}
	r := rendererFor(format)
	files := fileSegments(v, r)
	body := []*segment{newSegment("manifest", r.manifest(v)), newSegment("change", r.change(v)),
		newSegment("index", r.index(v)), newSegment("tree", r.tree(v, []string{path}))}
	body = append(body, files...)
	v.Boundary = boundary(body)
	segs := append(append([]*segment{newSegment("head", r.head(v))}, body...), newSegment("tail", r.tail(v)))
	passed(segs)
	if err := countAll(context.Background(), c, nil, segs); err != nil {
		t.Fatal(err)
	}
	text := join(segs)
	for _, seg := range segs {
		if !seg.valid() {
			t.Errorf("%s: segment %s is not valid: %q…%q", format, seg.key, head(seg.str(), 12), tail(seg.str(), 12))
		}
	}
	if got, want := c.Count(text), sumTokens(segs); got != want {
		t.Errorf("%s: Count(pack) = %d, sum of segments = %d", format, got, want)
	}
	return text, v.Boundary
}

// passed marks segments as through a gate that found nothing.
func passed(segs []*segment) {
	for _, s := range segs {
		if !s.gated {
			s.text, s.gated = secrets.Literal(s.raw), true
		}
	}
}

// literalImage is a side of a file through a gate that found nothing.
func literalImage(text string) *image {
	im := newImage()
	im.all = splitSide(text)
	im.count = im.all.count()
	return im
}

// replacePatch is the patch that replaces every line of old by every line
// of new, as git prints it.
func replacePatch(old, new string) *gitctx.Patch {
	p := &gitctx.Patch{}
	h := gitctx.Hunk{}
	for _, side := range []struct {
		op   byte
		text string
	}{{'-', old}, {'+', new}} {
		if side.text == "" {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(side.text, "\n"), "\n")
		for i, l := range lines {
			last := i == len(lines)-1 && !strings.HasSuffix(side.text, "\n")
			h.Lines = append(h.Lines, gitctx.Line{Op: side.op, Text: l, NoNewline: last})
		}
		if side.op == '-' {
			h.OldStart, h.OldLines, p.Deleted = 1, len(lines), len(lines)
		} else {
			h.NewStart, h.NewLines, p.Added = 1, len(lines), len(lines)
		}
	}
	p.Hunks = []gitctx.Hunk{h}
	return p
}

// checkRendered reads a pack back in its format.
func checkRendered(t *testing.T, format Format, text, b, path, content, msg string) {
	t.Helper()
	if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
		t.Fatalf("%s: the pack is not valid UTF-8 without NUL", format)
	}
	shownContent := strings.TrimSuffix(content, "\n") + "\n" // markdown closes its fence on a line of its own
	switch format {
	case Markdown:
		blocks, _, err := fencedBlocks(text)
		if err != nil {
			t.Fatalf("markdown: %v", err)
		}
		// the pull request's description, the commit message, the tree, the
		// diff and the content
		if len(blocks) != 5 {
			t.Fatalf("markdown: %d fenced blocks, want 5", len(blocks))
		}
		if blocks[0].body != prBody(msg)+"\n" {
			t.Errorf("markdown: description fence holds %q, want %q", blocks[0].body, prBody(msg)+"\n")
		}
		blocks = blocks[1:]
		if blocks[0].body != msg+"\n" {
			t.Errorf("markdown: message fence holds %q, want %q", blocks[0].body, msg+"\n")
		}
		for _, l := range diffLinesOf(blocks[2].body) {
			if l == "" || !strings.HasPrefix(l, "@@ ") && !strings.ContainsAny(l[:1], " +-\\") {
				t.Errorf("markdown: the diff fence holds a line that is not a diff line: %q", l)
			}
		}
		if blocks[3].body != shownContent {
			t.Errorf("markdown: content fence holds %q, want %q", blocks[3].body, shownContent)
		}
		checkBoundary(t, text, b, 4, "<!-- %s begin -->\n", "<!-- %s end -->\n")
	case XML:
		p, _, err := parseXML(text)
		if err != nil {
			t.Fatalf("xml: %v", err)
		}
		if len(p.Contents) != 1 || p.Contents[0].Text != "\n"+visibleControls(content) || p.Contents[0].Path != visibleControls(path) {
			t.Errorf("xml: contents %q, want one file %q with %q", p.Contents, visibleControls(path), visibleControls(content))
		}
		if len(p.Commits) != 1 || p.Commits[0].Text != visibleControls(msg) {
			t.Errorf("xml: commits %q, want %q", p.Commits, visibleControls(msg))
		}
		if pr := p.PullRequest; pr == nil || pr.Text != visibleControls(prBody(msg)) || pr.Title != visibleControls(path) {
			t.Errorf("xml: pull request %+v, want %q titled %q", pr, visibleControls(prBody(msg)), visibleControls(path))
		}
		checkBoundary(t, text, b, 5, "<!-- %s begin -->\n", "<!-- %s end -->\n")
	case JSON:
		p, err := parseJSON(text)
		if err != nil {
			t.Fatalf("json: %v", err)
		}
		if len(p.Contents) != 1 || p.Contents[0].Content != content || p.Contents[0].Path != path {
			t.Errorf("json: contents %q, want one file %q with %q", p.Contents, path, content)
		}
		if len(p.Change.Commits) != 1 || p.Change.Commits[0].Message != msg {
			t.Errorf("json: commits %q, want %q", p.Change.Commits, msg)
		}
		if pr := p.Change.PullRequest; pr == nil || pr.Description != prBody(msg) || pr.Title != path {
			t.Errorf("json: pull request %+v, want %q titled %q", pr, prBody(msg), path)
		}
		checkBoundary(t, text, b, 2, "", "")
	}
}
