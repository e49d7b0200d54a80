package explain

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/pack"
)

func ptr(f float64) *float64 { return &f }

// sample is a record with a file of every kind of trouble: a hostile
// name, an excluded credential, a neighbour, redactions and a warning.
func sample() *pack.Record {
	return &pack.Record{
		Schema: pack.SchemaVersion,
		Source: pack.SourceRecord{Kind: "range", Spec: "HEAD~1..HEAD", Commits: []pack.CommitRecord{{SHA: "abc", Subject: "s"}},
			PullRequest: &pack.PullRequestRecord{Number: 7, Title: "Fix <img src=y> for @team\x1b[2J"}},
		Pack: pack.PackRecord{Type: "summary", SelectionReason: "the full pack needs 9,000 tokens", Format: "markdown",
			Tokens: 1000, Bytes: 4000, SHA256: "0123456789abcdef", Steps: []string{"diff context cut to 1 line"}},
		Budget: pack.BudgetRecord{Provider: "openai", Model: "gpt-4.1", Tokenizer: "o200k_base", Limit: 2000, Used: 1000},
		Files: []pack.FileRecord{
			{Path: "small.go", Role: "changed", Included: true, Representation: "diff", Tokens: 100},
			{Path: "big.go", Role: "changed", Included: true, Representation: "full", Tokens: 500},
			{Path: "evil\x1b]0;owned\x07|<b>@team\u202e.go", Role: "neighbour", Included: true, Representation: "outline", Tokens: 200, Score: ptr(1.5)},
			{Path: ".env", Role: "changed", ExclusionReason: "credentials"},
			{Path: "id_rsa.pem", Role: "changed", ExclusionReason: "credentials"},
			{Path: "logo.png", Role: "changed", ExclusionReason: "binary"},
		},
		Neighbours: []pack.Neighbour{{Path: "evil\x1b]0;owned\x07|<b>@team\u202e.go", Score: 1.5, Reasons: []string{"imports [x](https://evil) <img src=x>"}}},
		Redactions: pack.Redactions{Total: 4, ByRule: map[string]int{"github-pat": 2, "aws-access-token": 2}, Items: []pack.RedactionItem{
			{Path: "big.go", Side: "new", Line: 3, Rule: "github-pat", Placeholder: "[REDACTED:github-pat#1]"},
			{Path: "big.go", Side: "old", Line: 3, Rule: "github-pat", Placeholder: "[REDACTED:github-pat#1]"},
			{Side: "commit_message", Line: 2, Rule: "aws-access-token", Placeholder: "[REDACTED:aws-access-token#1]"},
			{Side: "pr_body", Line: 4, Rule: "aws-access-token", Placeholder: "[REDACTED:aws-access-token#1]"},
		}},
		Warnings: []pack.Problem{{Path: "docs/x.md", Kind: "unreadable", Message: "permission denied"}},
	}
}

func TestTextOrderAndGroups(t *testing.T) {
	got := Text(sample(), Options{})
	for _, want := range []string{
		"summary pack, 1,000 tokens, range HEAD~1..HEAD, 1 commit, pull request #7: Fix <img src=y> for @team␛[2J",
		"pull request's body, line 4",
		"1,000 of 2,000 tokens (50%)",
		"shaped to fit: diff context cut to 1 line",
		"Included  3 files, 800 of 1,000 tokens",
		"the rest: summary",
		"credentials (2)",
		"binary (1)",
		"Redactions  4 credentials",
		"big.go:3 (new)",
		"commit message, line 2",
		"docs/x.md (unreadable): permission denied",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Text lacks %q:\n%s", want, got)
		}
	}
	big, evil, small := strings.Index(got, "big.go"), strings.Index(got, "evil"), strings.Index(got, "small.go")
	if big >= evil || evil >= small {
		t.Errorf("files not largest first (big %d, evil %d, small %d):\n%s", big, evil, small, got)
	}
	if cred, bin := strings.Index(got, "credentials (2)"), strings.Index(got, "binary (1)"); cred >= bin {
		t.Errorf("the larger group of left-out files comes second:\n%s", got)
	}
}

func TestTextIsTerminalSafe(t *testing.T) {
	for _, color := range []bool{false, true} {
		got := Text(sample(), Options{Color: color})
		plain := strings.ReplaceAll(got, "\x1b[", "")
		if strings.ContainsAny(plain, "\x1b\x07\u202e") {
			t.Errorf("color %v: raw control or bidi characters reach the terminal:\n%q", color, got)
		}
		if !strings.Contains(got, `evil␛]0;owned␇|<b>@team\u202e.go`) {
			t.Errorf("color %v: the hostile name is not shown visibly:\n%s", color, got)
		}
		if strings.Contains(got, "\x1b[") != color {
			t.Errorf("color %v: colour codes present = %v", color, !color)
		}
	}
}

func TestMarkdownIsSafe(t *testing.T) {
	got := Markdown(sample(), Options{})
	// Inline code is never HTML, a link or a mention: look outside it.
	prose := regexp.MustCompile("`[^`]*`").ReplaceAllString(got, "")
	for _, bad := range []string{"<b>", "<img", "@team", "[x](", "\x1b", "\u202e"} {
		if strings.Contains(prose, bad) || strings.Contains(got, "\x1b") || strings.Contains(got, "\u202e") {
			t.Errorf("markdown holds %q:\n%s", bad, got)
		}
	}
	for _, line := range strings.Split(got, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
		if cells != 6 {
			t.Errorf("a table row has %d pipes, want 6: %s", cells, line)
		}
	}
	for _, want := range []string{
		"**summary pack**, 1,000 of 2,000 tokens (openai, gpt-4.1), range HEAD\\~1..HEAD, 1 commit, pull request #7: Fix &lt;img src=y&gt; for @\u200bteam",
		"The full pack needs 9,000 tokens.",
		"| `big.go` | changed | full | 500 |",
		"- credentials (2): `.env`, `id_rsa.pem`",
		"Credentials redacted: 4 (aws-access-token 2, github-pat 2).",
		"\\[x\\](https://evil) &lt;img src=x&gt;",
		"- docs/x.md (unreadable): permission denied",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("markdown lacks %q:\n%s", want, got)
		}
	}
}

func TestMaxRows(t *testing.T) {
	rec := sample()
	for _, got := range []string{Text(rec, Options{MaxRows: 1}), Markdown(rec, Options{MaxRows: 1})} {
		if strings.Contains(got, "small.go") || !strings.Contains(got, "2 more") || strings.Contains(got, "id_rsa.pem") {
			t.Errorf("MaxRows 1 does not bound the lists:\n%s", got)
		}
	}
}

func TestEmptyRecord(t *testing.T) {
	rec := &pack.Record{Schema: pack.SchemaVersion, Budget: pack.BudgetRecord{Limit: 128000}}
	if got := Text(rec, Options{}); !strings.Contains(got, "no pack, 0 tokens") || !strings.Contains(got, "Included  nothing") {
		t.Errorf("Text of an empty record:\n%s", got)
	}
	if got := Markdown(rec, Options{}); !strings.HasPrefix(got, "**no pack**, 0 of 128,000 tokens") {
		t.Errorf("Markdown of an empty record:\n%s", got)
	}
}

func TestBar(t *testing.T) {
	for _, tt := range []struct {
		share float64
		width int
		want  string
	}{
		{0, 4, ""}, {1, 4, "████"}, {0.5, 4, "██"}, {0.0001, 4, "▏"}, {0.3, 2, "▋"}, {2, 3, "███"},
	} {
		if got := bar(tt.share, tt.width); got != tt.want {
			t.Errorf("bar(%v, %d) = %q, want %q", tt.share, tt.width, got, tt.want)
		}
	}
}

func TestMdCode(t *testing.T) {
	for _, tt := range []struct {
		in   string
		cell bool
		want string
	}{
		{"a.go", false, "`a.go`"},
		{"a`b", false, "``a`b``"},
		{"`a", true, "`` `a ``"},
		{"a|b", true, "`a\\|b`"},
		{"a\nb", false, "`a␊b`"},
	} {
		if got := mdCode(tt.in, tt.cell); got != tt.want {
			t.Errorf("mdCode(%q, %v) = %q, want %q", tt.in, tt.cell, got, tt.want)
		}
	}
}

// TestPlacesOnce checks that a file name the pack shows three times (its
// index, tree and heading: three placeholders, three items) is listed
// once, with how many, in both views.
func TestPlacesOnce(t *testing.T) {
	rec := sample()
	name := pack.RedactionItem{Path: "notes_[REDACTED:github-pat#2].txt", Side: "file_name", Rule: "github-pat", Placeholder: "[REDACTED:github-pat#2]"}
	rec.Redactions.Items = append(rec.Redactions.Items, name, name, name)
	rec.Redactions.Total += 3
	rec.Redactions.ByRule["github-pat"] += 3
	for view, got := range map[string]string{"text": Text(rec, Options{}), "markdown": Markdown(rec, Options{})} {
		if strings.Count(got, "(file name)") != 1 || !strings.Contains(got, "(file name), 3 placeholders") {
			t.Errorf("%s lists the name's placeholders as\n%s\nwant them once, with how many", view, got)
		}
	}
}

// TestDeliveryOfAFailedReview: a review that failed says it was not
// delivered, rather than where it was meant to go as if it went there.
func TestDeliveryOfAFailedReview(t *testing.T) {
	d := pack.Delivery{Kind: "stdout", Model: "gpt-4.1", EndpointHost: "api.openai.com"}
	plain := func(s string) string { return s }
	if got := deliveryText(d, nil, plain); got != "stdout, model gpt-4.1 at api.openai.com" {
		t.Errorf("delivered: %q", got)
	}
	failed := []pack.Problem{{Kind: "review", Message: "openai answered 500"}}
	if got := deliveryText(d, failed, plain); !strings.HasPrefix(got, "not delivered (the review failed: see Errors); meant for stdout") {
		t.Errorf("failed: %q", got)
	}
}

// TestSplitPackParts: a split pack is named with its parts, not with the
// first part's hash beside every part's bytes.
func TestSplitPackParts(t *testing.T) {
	rec := sample()
	rec.Pack.PartFiles = []pack.PartFile{{Path: "pack-1.md", SHA256: "aaa", Tokens: 900}, {Path: "pack-2.md", SHA256: "bbb", Tokens: 300}, {Path: "pack-3.md", SHA256: "ccc", Tokens: 650}}
	rec.Pack.SHA256 = "aaa"
	for name, out := range map[string]string{"text": Text(rec, Options{}), "markdown": Markdown(rec, Options{})} {
		if !strings.Contains(out, "in 3 parts (pack-1.md to pack-3.md, 300 to 900 tokens each)") || strings.Contains(out, "sha256 aaa") || strings.Contains(out, "`aaa`") {
			t.Errorf("%s:\n%s", name, out)
		}
	}
}
