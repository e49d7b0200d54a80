package secrets

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gitctx/gitctx/secrets/secretstest"
)

// TestRedactSpans: Redact on hand-made spans, one placeholder per line a
// span touches, the lines kept.
func TestRedactSpans(t *testing.T) {
	p, q := "[REDACTED:r#1]", "[REDACTED:s#2]"
	span := func(start, end int, ph string) Span {
		return Span{Start: start, End: end, Rule: strings.TrimSuffix(strings.TrimPrefix(ph, "[REDACTED:"), ph[len(ph)-3:]), Placeholder: ph}
	}
	tests := []struct {
		name  string
		text  string
		spans []Span
		want  string
		lines []int
	}{
		{"none", "a\nb\n", nil, "a\nb\n", nil},
		{"inside a line", "key = SECRET;\n", []Span{span(6, 12, p)}, "key = " + p + ";\n", []int{0}},
		{"whole text, no newline", "SECRET", []Span{span(0, 6, p)}, p, []int{0}},
		{"two on a line", "A=XXXX B=YYYY\n", []Span{span(2, 6, p), span(9, 13, q)}, "A=" + p + " B=" + q + "\n", []int{0, 0}},
		{"adjacent", "XXXXYYYY\n", []Span{span(0, 4, p), span(4, 8, q)}, p + q + "\n", []int{0, 0}},
		{"over three lines", "k: AAA\n  BBB\n  CCC end\nz\n", []Span{span(3, 18, p)}, "k: " + p + "\n  " + p + "\n  " + p + " end\nz\n", []int{0, 1, 2}},
		{"ending with its newline", "x AAA\nnext\n", []Span{span(2, 6, p)}, "x " + p + "\nnext\n", []int{0}},
		{"starting at a newline", "x\nAAA\ny\n", []Span{span(1, 5, p)}, "x\n" + p + "\ny\n", []int{1}},
		{"over a blank line", "AAA\n\nBBB\n", []Span{span(0, 8, p)}, p + "\n\n" + p + "\n", []int{0, 2}},
		{"crlf", "AAA\r\nBBB\r\nc\r\n", []Span{span(0, 8, p)}, p + "\r\n" + p + "\r\nc\r\n", []int{0, 1}},
		{"tab indentation", "\tAAA\n\t\tBBB\n", []Span{span(1, 10, p)}, "\t" + p + "\n\t\t" + p + "\n", []int{0, 1}},
		{"later lines", "a\nb\nc SECRET\n", []Span{span(6, 12, p)}, "a\nb\nc " + p + "\n", []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, hits := Redact(tt.text, tt.spans)
			if got.String() != tt.want {
				t.Errorf("Redact = %q, want %q", got, tt.want)
			}
			var lines []int
			for _, h := range hits {
				lines = append(lines, h.Line)
			}
			if !reflect.DeepEqual(lines, tt.lines) {
				t.Errorf("hit lines = %v, want %v", lines, tt.lines)
			}
			if strings.Count(got.String(), "\n") != strings.Count(tt.text, "\n") {
				t.Errorf("line count changed")
			}
			if want := Placeholders(got.String()); len(hits) != want {
				t.Errorf("%d hits, %d placeholders", len(hits), want)
			}
		})
	}
}

// TestOverlapSpecificWins: a token in a "key = value" line is named by
// its own rule, not generic-api-key, and the text around it stays.
func TestOverlapSpecificWins(t *testing.T) {
	g := newGate(t, Options{})
	for _, rule := range []string{"github-pat", "github-oauth", "aws-access-token", "slack-bot-token", "gitlab-pat", "shopify-access-token"} {
		f := fake(t, rule, "overlap")
		for _, form := range []string{
			`token = "%s"`,
			`password: '%s';`,
			`{"api_key":"%s","x":1}`,
			`export SECRET_TOKEN=%s # note`,
			`auth_token: %s`,
		} {
			text := fmt.Sprintf(form, f.Token) + "\n"
			out, hits := redactAll(t, g, text)
			want := fmt.Sprintf(form, "[REDACTED:"+rule+"#1]") + "\n"
			if out != want {
				t.Errorf("%s: redacted %q, want %q", rule, out, want)
			}
			if len(hits) != 1 || hits[0].Rule != rule {
				t.Errorf("%s: hits %+v, want one of %s", rule, hits, rule)
			}
		}
	}
}

// TestTerminatorKept: many gitleaks rules end in a group that consumes
// the character after the credential — (?:[\x60'"\s;]|\\[nr]|$) — since
// RE2 has no lookahead. That character is not part of the credential and
// must stay: a closing quote eaten from the pack makes a reviewer see a
// syntax error that is not there, and a space or tab eaten joins words.
func TestTerminatorKept(t *testing.T) {
	g := newGate(t, Options{})
	forms := []string{
		`token = "%s"`,
		`key: '%s';`,
		`{"k":"%s","x":1}`,
		"run --key %s --verbose",
		"a\t%s\tb",
		"`%s`",
	}
	for _, rule := range []string{"stripe-access-token", "npm-access-token", "gcp-api-key", "jwt", "anthropic-api-key", "openai-api-key", "digitalocean-pat", "pulumi-api-token"} {
		t.Run(rule, func(t *testing.T) {
			f := fake(t, rule, "terminator")
			for _, form := range forms {
				text := fmt.Sprintf(form, f.Token) + "\n"
				out, _ := redactAll(t, g, text)
				if want := fmt.Sprintf(form, "[REDACTED:"+rule+"#1]") + "\n"; out != want {
					t.Errorf("redacted %q, want %q", out, want)
				}
			}
		})
	}
}

// TestRuleName: a rule id becomes the placeholder's alphabet.
func TestRuleName(t *testing.T) {
	for in, want := range map[string]string{
		"github-pat":         "github-pat",
		"GitHub PAT":         "github-pat",
		"acme_token.v2/beta": "acme-token-v2-beta",
		"":                   "secret",
		"Ünïcode":            "--n--code",
		"a:b#1]":             "a-b-1-",
	} {
		got := ruleName(in)
		if got != want {
			t.Errorf("ruleName(%q) = %q, want %q", in, got, want)
		}
		if ph := "[REDACTED:" + got + "#12]"; !placeholderRE.MatchString(ph) || FindPlaceholders("x" + ph + "y")[0] != ph {
			t.Errorf("placeholder %q not recognised", ph)
		}
	}
}

// TestFindPlaceholders: the placeholders found in a redacted text are
// the ones Redact wrote, in order, and nothing else.
func TestFindPlaceholders(t *testing.T) {
	fs := corpus(t)
	g := newGate(t, Options{})
	text, _ := corpusText(fs)
	text += "not placeholders: [REDACTED:Upper#1] [REDACTED:x] [REDACTED:a b#1] [redacted:x#1]\n"
	out, hits := redactAll(t, g, text)
	var want []string
	for _, h := range hits {
		want = append(want, h.Placeholder)
	}
	if got := FindPlaceholders(out); !reflect.DeepEqual(got, want) {
		t.Errorf("FindPlaceholders = %v\nwant the hits' %v", got, want)
	}
	if Placeholders(out) != len(hits) {
		t.Errorf("Placeholders = %d, want %d", Placeholders(out), len(hits))
	}
	if FindPlaceholders("nothing here") != nil || Placeholders("") != 0 {
		t.Error("placeholders found in text without any")
	}
}

// TestTextLines: Lines takes a redacted text apart into its lines.
func TestTextLines(t *testing.T) {
	for _, s := range []string{"", "a", "a\n", "a\nb\n", "a\n\nb", "\n\n"} {
		var parts []string
		for _, l := range Literal(s).Lines() {
			parts = append(parts, l.String()+"\n")
		}
		want := s
		if s != "" && !strings.HasSuffix(s, "\n") {
			want += "\n"
		}
		if got := strings.Join(parts, ""); got != want {
			t.Errorf("the lines of %q joined = %q, want %q", s, got, want)
		}
	}
	if got := len(Literal("a\nb\n").Lines()); got != 2 {
		t.Errorf("Lines of two lines = %d", got)
	}
}

// TestScanEmptyAndCancelled: empty text has no spans; a cancelled context
// is an error, never an unchecked text.
func TestScanEmptyAndCancelled(t *testing.T) {
	g := newGate(t, Options{})
	if spans, err := g.Scan(context.Background(), ""); spans != nil || err != nil {
		t.Errorf("Scan(\"\") = %v, %v", spans, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := fake(t, "github-pat", "cancel")
	for _, text := range []string{"", f.Token + "\n"} {
		if _, err := g.Scan(ctx, text); err == nil {
			t.Errorf("Scan(%.10q) with a cancelled context: no error", text)
		}
		if _, _, err := g.RedactString(ctx, text); err == nil {
			t.Errorf("RedactString(%.10q) with a cancelled context: no error", text)
		}
	}
}

// TestConcurrentScan: one gate, scanned from 8 goroutines (run with
// -race): the same text gives the same redaction everywhere, and
// different secrets get different numbers.
func TestConcurrentScan(t *testing.T) {
	fs := corpus(t)
	g := newGate(t, Options{OwnTokens: []string{"own-token-for-the-race-test"}})
	text, _ := corpusText(fs)
	text += "own-token-for-the-race-test\n"
	want, _ := redactAll(t, g, text)

	const workers = 8
	var wg sync.WaitGroup
	got := make([]string, workers)
	pats := make([]string, workers)
	errs := make([]error, workers)
	for i := range workers {
		f := fake(t, "github-pat", fmt.Sprintf("race-%d", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				red, _, err := g.RedactString(context.Background(), text)
				if err != nil {
					errs[i] = err
					return
				}
				got[i] = red.String()
			}
			_, hits, err := g.RedactString(context.Background(), "t = "+f.Token+"\n")
			if err != nil || len(hits) != 1 {
				errs[i] = fmt.Errorf("hits %v, err %v", hits, err)
				return
			}
			pats[i] = hits[0].Placeholder
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for i := range workers {
		if errs[i] != nil {
			t.Fatalf("worker %d: %v", i, errs[i])
		}
		if got[i] != want {
			t.Errorf("worker %d redacted the text differently", i)
		}
		if seen[pats[i]] {
			t.Errorf("placeholder %s given to two secrets", pats[i])
		}
		seen[pats[i]] = true
	}
	// the corpus has github-pat #1; the 8 new ones are #2..#9
	for n := 2; n <= workers+1; n++ {
		if ph := fmt.Sprintf("[REDACTED:github-pat#%d]", n); !seen[ph] {
			t.Errorf("%s not given out; got %v", ph, seen)
		}
	}
}

// TestNestedFindingKeepsOuter: when a specific credential lies inside a
// wider finding that holds another secret — an access key as the user of
// a URL whose password is the other secret — the wider span must stay.
// merge keeps only the inner span when it is as long as the text after
// the outer match's last "=:>,", which for a URL with a port is the port.
func TestNestedFindingKeepsOuter(t *testing.T) {
	pw, err := secretstest.Expand("{alnum:24}", "url-password")
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{"aws-access-token", "github-pat"} {
		user := fake(t, rule, "url-user")
		for _, text := range []string{
			"url = https://" + user.Token + ":" + pw.Token + "@bucket.example.com/x\n",
			"url = https://" + user.Token + ":" + pw.Token + "@bucket.example.com:443/x\n",
			"amqp://" + user.Token + ":" + pw.Token + "@mq:5672\n",
		} {
			g := newGate(t, Options{})
			out, _ := redactAll(t, g, text)
			if strings.Contains(out, pw.Token) || user.Leak(out, 8) != "" {
				t.Errorf("%s: a credential of the URL survives: %q", rule, out)
			}
			if again, err := g.Scan(context.Background(), out); err != nil || len(again) != 0 {
				t.Errorf("%s: the redacted text %q still has findings %v (%v)", rule, out, again, err)
			}
		}
	}
}

// TestRedactionUncoversNothing: redacting one credential must not make
// the gate see another in the output that it did not redact. gitleaks'
// generic-api-key ignores lines holding a JavaScript import; a token
// inside the import's braces, once replaced, breaks that pattern, and the
// password beside it — emitted as it was — is then a finding.
func TestRedactionUncoversNothing(t *testing.T) {
	g := newGate(t, Options{})
	pat := fake(t, "github-pat", "import")
	pw, err := secretstest.Expand("{alnum:32}", "import-password")
	if err != nil {
		t.Fatal(err)
	}
	text := "import { " + pat.Token + " } from 'x'; password = \"" + pw.Token + "\"\n"
	out, _ := redactAll(t, g, text)
	if strings.Contains(out, pw.Token) || pat.Leak(out, 8) != "" {
		t.Errorf("redacted text %q still holds a credential", out)
	}
	again, err := g.Scan(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range again {
		t.Errorf("redacted text %q: %s finds %q", out, s.Rule, out[s.Start:s.End])
	}
}

// TestPlaceholdersInert: the gate's own placeholders are never a finding,
// wherever redaction leaves them, so a pack checked twice keeps them. A
// placeholder holds a colon, which uri-credentials reads as the user and
// password of a URL.
func TestPlaceholdersInert(t *testing.T) {
	g := newGate(t, Options{})
	for _, text := range []string{
		"see [REDACTED:github-pat#1] and [REDACTED:generic-api-key#12]\n",
		"token = \"[REDACTED:github-pat#1]\"\n",
		"password: [REDACTED:generic-api-key#1]\n",
		"git clone https://[REDACTED:github-pat#1]@github.com/o/r.git\n",
		"\"resolved\": \"git+https://[REDACTED:github-pat#2]@github.com/o/left-pad.git\",\n",
		"postgres://app:[REDACTED:gitctx-own-token#1]@db:5432/app\n",
	} {
		if spans, err := g.Scan(context.Background(), text); err != nil || len(spans) != 0 {
			t.Errorf("Scan(%q) = %+v, %v; want nothing", text, spans, err)
		}
	}
	// and so the redaction of a token in a URL's user part is final
	pat := fake(t, "github-pat", "url")
	out, _ := redactAll(t, g, "git clone https://"+pat.Token+"@github.com/o/r.git\n")
	if again, err := g.Scan(context.Background(), out); err != nil || len(again) != 0 {
		t.Errorf("redacted %q is found again: %+v, %v", out, again, err)
	}
}

// TestRedactKeepingDiffPrefix: in a rendered diff every line starts with
// its +, - or space, which stays even when a span covers it; the rest is
// redacted as Redact does.
func TestRedactKeepingDiffPrefix(t *testing.T) {
	g := newGate(t, Options{})
	key := fake(t, "private-key", "diff")
	n := strings.Count(key.Token, "\n") + 1
	text := " context\n+" + strings.ReplaceAll(key.Token, "\n", "\n+") + "\n-old line\n"
	spans, err := g.Scan(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	red, hits := RedactKeeping(text, spans, 1)
	want := " context\n" + strings.Repeat("+[REDACTED:private-key#1]\n", n) + "-old line\n"
	if red.String() != want {
		t.Errorf("RedactKeeping:\n%s\nwant:\n%s", red, want)
	}
	if got := hitLines(hits, "private-key"); !reflect.DeepEqual(got, lineRange(1, n)) {
		t.Errorf("hit lines %v, want %v", got, lineRange(1, n))
	}
	// a span over nothing but the prefix is dropped
	if red, hits := RedactKeeping("+x\n", []Span{{Start: 0, End: 1, Rule: "r", Placeholder: "[REDACTED:r#1]"}}, 1); red.String() != "+x\n" || hits != nil {
		t.Errorf("span over the prefix alone: %q, %v", red, hits)
	}
	// a span from the prefix on keeps the prefix
	if red, _ := RedactKeeping("+SECRET\n", []Span{{Start: 0, End: 7, Rule: "r", Placeholder: "[REDACTED:r#1]"}}, 1); red.String() != "+[REDACTED:r#1]\n" {
		t.Errorf("span from the prefix: %q", red)
	}
}

// TestRedactFramed: a body that went through the gate is not scanned
// again, but its seams with the frame are, and a short body or a match at
// a seam sends the whole text through RedactAll.
func TestRedactFramed(t *testing.T) {
	g := newGate(t, Options{})
	ctx := context.Background()
	pat := fake(t, "github-pat", "framed")
	filler := strings.Repeat("func handler(w http.ResponseWriter, r *http.Request)\n", 40)
	gated := func(s string) Text {
		red, _, err := g.RedactString(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		return red
	}
	before, after := "### main.go (outline)\n\n```go\n", "```\n\n"

	body := gated(filler)
	got, hits, err := g.RedactFramed(ctx, before, body, after, 0)
	if err != nil || got.String() != before+filler+after || len(hits) != 0 {
		t.Errorf("clean frame and body: %q, %v, %v", got.String()[:40], hits, err)
	}

	// A credential cut by the seam: half in the heading, half in the body.
	cut := len(pat.Token) / 2
	body = gated(pat.Token[cut:] + "\n" + filler)
	got, hits, err = g.RedactFramed(ctx, before+"token = "+pat.Token[:cut], body, after, 0)
	if err != nil || pat.Leak(got.String(), 8) != "" || len(hits) == 0 {
		t.Errorf("a credential across the front seam is left: %v, %v", hits, err)
	}
	body = gated(filler + pat.Token[:cut])
	got, hits, err = g.RedactFramed(ctx, before, body, pat.Token[cut:]+"\n", 0)
	if err != nil || pat.Leak(got.String(), 8) != "" || len(hits) == 0 {
		t.Errorf("a credential across the back seam is left: %v, %v", hits, err)
	}

	// In the frame itself.
	got, _, err = g.RedactFramed(ctx, "### "+pat.Token+"\n", gated(filler), after, 0)
	if err != nil || pat.Leak(got.String(), 8) != "" {
		t.Errorf("a credential in the frame is left: %v", err)
	}

	// The body is taken as gated: its middle is not scanned. (Only the
	// gate makes a Text from a repository's text; Literal stands in for
	// one it let through, to show what is not scanned again.)
	middle := filler[:len(filler)/2] + "token = " + pat.Token + "\n" + filler[len(filler)/2:]
	got, _, err = g.RedactFramed(ctx, before, Literal(middle), after, 0)
	if err != nil || !strings.Contains(got.String(), pat.Token) {
		t.Errorf("the body's middle was scanned again: %v", err)
	}
	// ... unless it is short, when the whole text is scanned.
	got, _, err = g.RedactFramed(ctx, before, Literal("token = "+pat.Token+"\n"), after, 0)
	if err != nil || pat.Leak(got.String(), 8) != "" {
		t.Errorf("a short body was not scanned: %v", err)
	}
}
