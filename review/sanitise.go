package review

import (
	"context"
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/secrets"
)

// Scanner removes credentials from text; *secrets.Gate is one, built with
// the run's own tokens so that a model echoing the API key is caught too.
type Scanner interface {
	RedactString(ctx context.Context, text string) (secrets.Text, []secrets.Hit, error)
}

// Sanitise makes a model's answer safe to save and post: credentials are
// replaced by placeholders (one record item each, side "answer"), lines a
// GitHub runner would take as workflow commands (::set-output, ##[…])
// are replaced, control characters that could drive a terminal are
// dropped, the comment marker cannot be forged, @mentions notify no one
// (see quietMentions) and images load nothing (see quietImages).
func Sanitise(ctx context.Context, s Scanner, answer string) (string, []pack.RedactionItem, error) {
	answer = stripControl(answer)
	red, hits, err := s.RedactString(ctx, answer)
	if err != nil {
		return "", nil, fmt.Errorf("check the answer for credentials: %w", err)
	}
	items := make([]pack.RedactionItem, len(hits))
	for i, h := range hits {
		items[i] = pack.RedactionItem{Side: "answer", Line: h.Line + 1, Rule: h.Rule, Placeholder: h.Placeholder}
	}
	text := stripWorkflowCommands(red.String())
	text = strings.ReplaceAll(text, "<!-- gitctx", "&lt;!-- gitctx")
	text = quietMentions(text)
	text = quietImages(text)
	return text, items, nil
}

// stripWorkflowCommands replaces every line that starts (after blanks)
// with "::" or "##[": the Actions runner reads those from a step's output
// as commands.
func stripWorkflowCommands(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "::") || strings.HasPrefix(t, "##[") {
			lines[i] = "[a line that looked like a workflow command was removed]"
		}
	}
	return strings.Join(lines, "\n")
}

// stripControl drops C0 and C1 control characters other than newline
// and tab, turns CRLF into LF, and writes the bidirectional embeddings,
// overrides and isolates as \u escapes: they reorder what a terminal or
// a page shows (the Trojan Source attack), and an answer has no use for
// them that plain right-to-left text lacks.
func stripControl(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (0x80 <= r && r < 0xa0):
		case (0x202a <= r && r <= 0x202e) || (0x2066 <= r && r <= 0x2069):
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
