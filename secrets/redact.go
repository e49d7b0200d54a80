package secrets

import (
	"context"
	"strings"
)

// Text is text that has been through the gate: every credential found in
// it replaced by a placeholder. Only this package makes a Text from
// repository content, so code that accepts a Text cannot be handed
// unredacted content by mistake.
type Text struct{ s string }

// String returns the redacted text.
func (t Text) String() string { return t.s }

// Literal marks text gitctx writes itself (headings, labels) as safe to
// emit. Never call it on anything read from a repository, a pull request,
// the environment or a model.
func Literal(s string) Text { return Text{s} }

// Hit is a placeholder put on one line.
type Hit struct {
	Line        int // 0-based line of the text
	Rule        string
	Placeholder string
}

// Redact replaces the spans of text (from Scan of the same text) with
// their placeholders, line by line: a span over several lines puts its
// placeholder on each of them and keeps the newlines, so the redacted
// text has the same lines as the original and diff lines still map onto
// it. It returns one Hit per placeholder written.
func Redact(text string, spans []Span) (Text, []Hit) {
	if len(spans) == 0 {
		return Text{text}, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	var hits []Hit
	line, pos := 0, 0
	for _, s := range spans {
		// copy up to the span, counting lines
		line += strings.Count(text[pos:s.Start], "\n")
		b.WriteString(text[pos:s.Start])
		// one placeholder per line the span touches
		parts := strings.Split(text[s.Start:s.End], "\n")
		for i, part := range parts {
			if i > 0 {
				b.WriteByte('\n')
				line++
			}
			if part == "" && i > 0 && i == len(parts)-1 {
				continue // the span ends with a newline: nothing of the next line
			}
			if strings.TrimRight(part, "\r") == "" && len(parts) > 1 {
				b.WriteString(part)
				continue
			}
			if i > 0 {
				// keep a continuation line's indentation, which is layout, not key
				b.WriteString(part[:len(part)-len(strings.TrimLeft(part, " \t"))])
			}
			b.WriteString(s.Placeholder)
			if strings.HasSuffix(part, "\r") {
				b.WriteByte('\r')
			}
			hits = append(hits, Hit{Line: line, Rule: s.Rule, Placeholder: s.Placeholder})
		}
		pos = s.End
	}
	b.WriteString(text[pos:])
	return Text{b.String()}, hits
}

// RedactString scans and redacts one text.
func (g *Gate) RedactString(ctx context.Context, text string) (Text, []Hit, error) {
	spans, err := g.Scan(ctx, text)
	if err != nil {
		return Text{}, nil, err
	}
	t, hits := Redact(text, spans)
	return t, hits, nil
}

// Lines splits a redacted text into its lines (without newlines).
func (t Text) Lines() []Text {
	parts := strings.Split(t.s, "\n")
	if len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	out := make([]Text, len(parts))
	for i, p := range parts {
		out[i] = Text{p}
	}
	return out
}

// JoinLines joins redacted lines with newlines (and a final one).
func JoinLines(lines []Text) Text {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.s)
		b.WriteByte('\n')
	}
	return Text{b.String()}
}

// Placeholders counts the placeholders in a rendered text.
func Placeholders(s string) int { return len(placeholderRE.FindAllStringIndex(s, -1)) }

// FindPlaceholders lists the placeholders in a rendered text, in order.
func FindPlaceholders(s string) []string { return placeholderRE.FindAllString(s, -1) }
