package pack

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx/neighbours"
	"github.com/gitctx/gitctx/secrets"
	"github.com/gitctx/gitctx/secrets/secretstest"
)

// Credentials in every place a pack takes text from: contents, diff lines
// (added and removed), a file name and a commit message. They are fake but
// shaped to match gitleaks' rules.
var (
	fakeAWS     = "AKIAZ7QWERTYUIOP2345"
	fakeGitHub  = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"
	fakeGeneric = "ab12cd34ef56ab12cd34ef56ab12cd34"
	fakeKeyBody = strings.Repeat("MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n", 6)
)

func secretRepo(t *testing.T) *gitRepo {
	t.Helper()
	r := newRepo(t, "secrets")
	r.Write("settings.py", "DEBUG = True\nAPI_KEY = \"old"+fakeGeneric[3:]+"\"\n")
	r.Write("notes.txt", "nothing here\n")
	r.Commit("base")
	r.WriteAll(map[string]string{
		"settings.py":      "DEBUG = False\nAPI_KEY = \"" + fakeGeneric + "\"\n",
		"deploy.json":      "{\"aws_access_key_id\": \"" + fakeAWS + "\", \"note\": \"a \\\"quoted\\\" </file> ]]> value\"}\n",
		"keys/a.txt":       "-----BEGIN RSA PRIVATE KEY-----\n" + fakeKeyBody + "-----END RSA PRIVATE KEY-----\n",
		"notes.txt":        "nothing here\ntoken in prose: " + fakeGitHub + "\n",
		fakeGitHub + ".md": "a file named after a token\n",
	})
	r.Commit("configure deploy\n\nuse " + fakeGitHub + " for the release job")
	return r
}

// TestRedactionLeavesNoCredential checks every format for the raw
// credentials, in the pack and in the record.
func TestRedactionLeavesNoCredential(t *testing.T) {
	ch := secretRepo(t).change("HEAD~1..HEAD")
	raw := []string{fakeAWS, fakeGitHub, fakeGeneric, "MIIEowIBAAKCAQEA", "old" + fakeGeneric[3:]}
	for _, f := range formats {
		for _, limit := range []int{0, 1500} {
			res := build(t, ch, options(counter(t), f, limit))
			rec, _ := json.Marshal(res.Record)
			for _, s := range raw {
				if i := strings.Index(res.Text, s); i >= 0 {
					t.Errorf("%s %d: the pack holds the credential %q: %q", f, limit, s, lineAt(res.Text, i))
				}
				if strings.Contains(string(rec), s) {
					t.Errorf("%s %d: the record holds the credential %q", f, limit, s)
				}
			}
			checkParses(t, f, res.Text)
			if got := counter(t).Count(res.Text); got != res.Record.Pack.Tokens || (limit > 0 && got > limit) {
				t.Errorf("%s %d: Count(pack) = %d, record says %d", f, limit, got, res.Record.Pack.Tokens)
			}
		}
	}
}

// lineAt is the line of text around byte i.
func lineAt(text string, i int) string {
	start := strings.LastIndexByte(text[:i], '\n') + 1
	end := strings.IndexByte(text[i:], '\n')
	if end < 0 {
		return text[start:]
	}
	return text[start : i+end]
}

// TestRedactedDiffKeepsLineOps checks that a redacted diff line is still a
// diff line: its '+', '-' or ' ' stays in front of the placeholder.
func TestRedactedDiffKeepsLineOps(t *testing.T) {
	r := newRepo(t, "diffops")
	r.Write("settings.py", "DEBUG = True\nAPI_KEY = \"old"+fakeGeneric[3:]+"\"\n")
	r.Commit("base")
	r.Write("settings.py", "DEBUG = False\nAPI_KEY = \""+fakeGeneric+"\"\n")
	r.Commit("rotate")
	res := build(t, r.change("HEAD~1..HEAD"), options(counter(t), Markdown, 0))
	blocks, _, err := fencedBlocks(res.Text)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if b.info != "diff" {
			continue
		}
		for _, l := range diffLinesOf(b.body) {
			if l == "" || !strings.HasPrefix(l, "@@ ") && !strings.ContainsAny(l[:1], " +-\\") {
				t.Errorf("a diff line lost its +/-/space: %q", l)
			}
		}
	}
}

// TestRedactionsCounted checks that the record has one item per
// placeholder in the pack, and that the summary says how many there are,
// here for a credential in a file name, which the pack shows in the file
// index, the directory tree and the file's heading.
func TestRedactionsCounted(t *testing.T) {
	r := newRepo(t, "counted")
	r.Write("README.md", "readme\n")
	r.Commit("base")
	r.Write(fakeGitHub+".md", "a file named after a token\n")
	r.Commit("add")
	for _, f := range formats {
		res := build(t, r.change("HEAD~1..HEAD"), options(counter(t), f, 0))
		n := secrets.Placeholders(res.Text)
		if n == 0 || res.Record.Redactions.Total != n || len(res.Record.Redactions.Items) != n {
			t.Errorf("%s: %d placeholders in the pack, the record counts %d (%d items)", f, n, res.Record.Redactions.Total, len(res.Record.Redactions.Items))
		}
		if f == Markdown && !strings.Contains(res.Text, fmt.Sprintf("- Redactions: %d (", n)) {
			t.Errorf("%s: the summary does not count the %d placeholders", f, n)
		}
	}
}

// checkParses reads a pack in its format.
func checkParses(t *testing.T, f Format, text string) {
	t.Helper()
	var err error
	switch f {
	case Markdown:
		_, _, err = fencedBlocks(text)
	case XML:
		_, _, err = parseXML(text)
	case JSON:
		_, err = parseJSON(text)
	}
	if err != nil {
		t.Errorf("%s: the pack does not parse: %v", f, err)
	}
}

// TestOutlineRedacted: a credential in a file shown as an outline is
// redacted and recorded in every format. The outline goes through the gate
// whole before it is rendered; in Markdown, which writes it as is, only
// its frame is checked again (segment.framed), so this also covers that
// nothing in between is lost.
func TestOutlineRedacted(t *testing.T) {
	r := newRepo(t, "outline")
	var b strings.Builder
	b.WriteString("package svc\n\n")
	for i := range 60 {
		if i == 30 { // mid-outline, far from both of its seams
			b.WriteString("// apiToken is the release job's token.\nconst apiToken = \"" + fakeGitHub + "\"\n\n")
		}
		fmt.Fprintf(&b, "// Handle%d handles part %d.\nfunc Handle%d(input string) string {\n\tout := input\n\tout += \"-%d\"\n\treturn out\n}\n\n", i, i, i, i)
	}
	r.Write("svc.go", b.String())
	r.Commit("base")
	r.Write("svc.go", strings.Replace(b.String(), "out += \"-7\"", "out += \"-seven\"", 1))
	r.Commit("rename part 7")
	ch := r.change("HEAD~1..HEAD")
	for _, f := range formats {
		opts := options(counter(t), f, 0)
		opts.Mode = "summary"
		res := build(t, ch, opts)
		if !strings.Contains(res.Text, "func Handle59(input string) string") || strings.Contains(res.Text, "\"-59\"") {
			t.Fatalf("%s: svc.go is not shown as an outline:\n%s", f, res.Text)
		}
		if i := strings.Index(res.Text, fakeGitHub[:12]); i >= 0 {
			t.Errorf("%s: the outline holds the credential: %q", f, lineAt(res.Text, i))
		}
		found := false
		for _, it := range res.Record.Redactions.Items {
			found = found || (it.Path == "svc.go" && it.Rule == "github-pat")
		}
		if !found {
			t.Errorf("%s: no github-pat redaction of svc.go recorded: %+v", f, res.Record.Redactions.Items)
		}
	}
	segs, err := shapeSegments(t, ch, func() Options { o := options(counter(t), Markdown, 0); o.Mode = "summary"; return o }())
	if err != nil {
		t.Fatal(err)
	}
	framed := 0
	for _, s := range segs {
		if s.framed != nil {
			framed++
			if s.framed.before+s.framed.body.String()+s.framed.after != s.raw {
				t.Errorf("segment %s: the frame and body are not its text", s.where)
			}
		}
	}
	if framed != 1 {
		t.Errorf("%d framed segments in Markdown, want the one outline", framed)
	}
}

// TestContainsFold: containsFold answers as lowering the text would.
func TestContainsFold(t *testing.T) {
	for _, text := range []string{
		"", "c", "curl", "CURL -H x", "xx CuRl", "cur", "cu rl", "kind: Secret", "KIND:", "kind :",
		"\u212aind: secret", "k\u0130nd:", "ſecret", "secreT", "kindkind:", "ccurl", "éCURLé",
	} {
		for _, word := range []string{"curl", "kind:", "secret"} {
			if got, want := containsFold(text, word), strings.Contains(strings.ToLower(text), word); got != want {
				t.Errorf("containsFold(%q, %q) = %v, want %v", text, word, got, want)
			}
		}
	}
}

func FuzzContainsFold(f *testing.F) {
	f.Add("kİnd: \u212aind: CURL", "kind:")
	f.Fuzz(func(t *testing.T, text, word string) {
		word = strings.ToLower(word)
		if word == "" || strings.ToUpper(word) == word || strings.ContainsFunc(word, func(r rune) bool { return r >= 0x80 || 'A' <= r && r <= 'Z' }) {
			return // words are lower-case ASCII with a letter
		}
		if got, want := containsFold(text, word), strings.Contains(strings.ToLower(text), word); got != want {
			t.Errorf("containsFold(%q, %q) = %v, want %v", text, word, got, want)
		}
	})
}

// TestRedactReasons: a neighbour's reasons name files and the names a
// changed line uses, and are recorded as they are: they go through the
// gate, each in its place.
func TestRedactReasons(t *testing.T) {
	gate, err := secrets.New(secrets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := secretstest.Expand("ghp_{alnum:36}", "neighbour-reason")
	if err != nil {
		t.Fatal(err)
	}
	ns := []neighbours.Neighbour{
		{Path: "a.go", Reasons: []string{"paired test", "it defines " + tok.Token + ", named on a changed line of b.go"}},
		{Path: "c.go"},
		{Path: "d.go", Reasons: []string{"changed with b.go in 3 of 9 commits"}},
	}
	got, err := redactReasons(context.Background(), gate, ns)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"paired test", "it defines [REDACTED:github-pat#1], named on a changed line of b.go"}, {}, {"changed with b.go in 3 of 9 commits"}}
	for i, n := range got {
		if n.Path != ns[i].Path || !slices.Equal(n.Reasons, want[i]) {
			t.Errorf("neighbour %d = %s %q, want %s %q", i, n.Path, n.Reasons, ns[i].Path, want[i])
		}
	}
	if !strings.Contains(ns[0].Reasons[1], tok.Token) {
		t.Error("the neighbours given were changed")
	}
}
