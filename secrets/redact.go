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
	return RedactKeeping(text, spans, 0)
}

// RedactKeeping is Redact for text whose every line starts with keep bytes
// of layout that is never secret (the +, - or space of a diff line): those
// bytes stay, even where a span covers them.
func RedactKeeping(text string, spans []Span, keep int) (Text, []Hit) {
	if len(spans) == 0 {
		return Text{text}, nil
	}
	if keep > 0 {
		spans = trimLineStarts(text, spans, keep)
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
				// keep a continuation line's layout bytes and indentation, which are not key
				k := min(keep, len(part))
				rest := part[k:]
				b.WriteString(part[:k] + rest[:len(rest)-len(strings.TrimLeft(rest, " \t"))])
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
	return g.RedactAll(ctx, text, 0)
}

// frameWindow is how far into a framed text's body RedactFramed scans
// from each seam: as far as the pack's check of the seams between its
// segments looks.
const frameWindow = 512

// RedactFramed is RedactAll for before+body+after, where body went through
// the gate whole already (RedactString or RedactAll) and before and after
// are what was written around it: a heading, a code fence. The body is not
// scanned again; the frame is, with frameWindow bytes of the body on each
// side, so that a match across a seam is found. If one is, or the body is
// short, the whole text goes through RedactAll.
func (g *Gate) RedactFramed(ctx context.Context, before string, body Text, after string, keep int) (Text, []Hit, error) {
	text := before + body.s + after
	if len(body.s) <= 2*frameWindow {
		return g.RedactAll(ctx, text, keep)
	}
	head := text[:len(before)+frameWindow]
	tail := text[len(before)+len(body.s)-frameWindow:]
	dry := g.Dry() // what the seams hold is only looked at: no placeholder is numbered
	for _, seam := range []string{head, tail} {
		spans, err := dry.Scan(ctx, seam)
		if err != nil {
			return Text{}, nil, err
		}
		if len(spans) > 0 {
			return g.RedactAll(ctx, text, keep)
		}
	}
	return Text{text}, nil, ctx.Err()
}

// maxPasses bounds how often RedactAll scans a text again.
const maxPasses = 4

// RedactAll scans and redacts a text until a scan of the result finds
// nothing: taking a credential out can bring another match into view (a
// generic rule that a nested finding's span had hidden). keep is as in
// RedactKeeping. If a credential is still found after maxPasses, every line
// it touches is replaced whole.
func (g *Gate) RedactAll(ctx context.Context, text string, keep int) (Text, []Hit, error) {
	return g.redactPasses(ctx, text, keep, g.Scan, g.Scan)
}

// redactPasses is RedactAll with the first scan made by first and the
// others by rest.
func (g *Gate) redactPasses(ctx context.Context, text string, keep int, first, rest func(context.Context, string) ([]Span, error)) (Text, []Hit, error) {
	var all []Hit
	for pass := 0; ; pass++ {
		scan := rest
		if pass == 0 {
			scan = first
		}
		spans, err := scan(ctx, text)
		if err != nil {
			return Text{}, nil, err
		}
		if len(spans) == 0 {
			return Text{text}, all, nil
		}
		if pass == maxPasses {
			spans = wholeLines(text, spans, keep)
		}
		red, hits := RedactKeeping(text, spans, keep)
		text, all = red.s, append(all, hits...)
	}
}

// wholeLines widens spans to the whole lines they touch.
func wholeLines(text string, spans []Span, keep int) []Span {
	for i, s := range spans {
		lo := strings.LastIndexByte(text[:s.Start], '\n') + 1 + keep
		hi := strings.IndexByte(text[s.End:], '\n')
		if hi < 0 {
			hi = len(text)
		} else {
			hi += s.End
		}
		spans[i].Start, spans[i].End = min(lo, s.Start), max(hi, s.End)
	}
	return merge(spans)
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

// Placeholders counts the placeholders in a rendered text.
func Placeholders(s string) int { return len(placeholderRE.FindAllStringIndex(s, -1)) }

// FindPlaceholders lists the placeholders in a rendered text, in order.
func FindPlaceholders(s string) []string { return placeholderRE.FindAllString(s, -1) }

// trimLineStarts moves the start of each span past the first keep bytes
// of the line it starts on; a span that covers nothing more is dropped.
// (Continuation lines of a multi-line span keep their first bytes in
// Redact, as indentation, when keep > 0.)
func trimLineStarts(text string, spans []Span, keep int) []Span {
	out := spans[:0:0]
	for _, s := range spans {
		lineStart := strings.LastIndexByte(text[:s.Start], '\n') + 1
		if s.Start < lineStart+keep {
			s.Start = min(lineStart+keep, len(text))
		}
		if s.Start < s.End {
			out = append(out, s)
		}
	}
	return out
}
