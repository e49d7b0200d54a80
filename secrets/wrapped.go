package secrets

import (
	"context"
	"strings"
)

// Encoded text is often wrapped: `base64` breaks its output every 76
// characters, `xxd -p` every 60, and a Kubernetes Secret or a config file
// holds the lines as they came. gitleaks decodes each line on its own, so
// a credential encoded across two lines is found in neither, and the
// lines a rule did not match give most of it back once decoded. So the
// lines of a wrapped run are also joined and the rules run over the
// joined text (gitleaks decoding it); what they find there replaces the
// whole run.

// minWrappedLine is the shortest line taken as a wrapped line of encoded
// text: shorter lines of letters and digits are ordinary words.
const minWrappedLine = 16

// wrappedIn finds credentials in the runs of wrapped encoded lines of text:
// each finding is the run, from its first line's text to its last's.
func wrappedIn(ctx context.Context, ds detectors, text string) []finding {
	var out []finding
	for _, r := range wrappedRuns(text) {
		joined := strings.Join(r.parts, "")
		found, err := rulesIn(ctx, ds, joined)
		if err != nil {
			continue
		}
		for _, f := range found {
			secret := f.secret
			if f.kind == kindLiteral {
				secret = joined[f.secretStart:f.secretEnd]
			}
			out = append(out, finding{start: r.start, end: r.end, secretStart: r.start, secretEnd: r.end,
				rule: f.rule, kind: kindOther, secret: secret})
		}
	}
	return out
}

// wrappedRun is a run of two or more wrapped lines: their encoded parts,
// and where the run starts and ends in the text.
type wrappedRun struct {
	parts      []string
	start, end int
}

// wrappedRuns finds the runs of encoded lines (base64 or hex, the line's
// indentation, quotes and a trailing comma, plus or backslash aside) that
// a wrapping tool made: every line but the last as long as the first, the
// last no longer.
func wrappedRuns(text string) []wrappedRun {
	var runs []wrappedRun
	var cur wrappedRun
	width := 0
	flush := func() {
		if len(cur.parts) >= 2 {
			runs = append(runs, cur)
		}
		cur, width = wrappedRun{}, 0
	}
	for at := 0; at < len(text); {
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += at
		}
		least := minWrappedLine
		if width > 0 {
			least = 4 // the last line of a run may be short
		}
		part, from := encodedPart(text[at:end], least)
		switch {
		case part == "":
			flush()
		case width > 0 && len(part) <= width: // after a shorter line, width is 0
			cur.parts = append(cur.parts, part)
			cur.end = at + from + len(part)
			if len(part) < width { // a shorter line ends the run
				flush()
			}
		case len(part) >= minWrappedLine:
			flush()
			cur = wrappedRun{parts: []string{part}, start: at + from, end: at + from + len(part)}
			width = len(part)
		default:
			flush()
		}
		at = end + 1
	}
	flush()
	return runs
}

// encodedPart returns the encoded text of a line that holds only that
// (at least least bytes of the base64 alphabet), and where it starts in the
// line; "" for any other line.
func encodedPart(line string, least int) (string, int) {
	start := len(line) - len(strings.TrimLeft(line, " \t\"'"))
	end := len(strings.TrimRight(line, " \t\r\"',+\\"))
	if end-start < least {
		return "", 0
	}
	part := line[start:end]
	for i := 0; i < len(part); i++ {
		if c := part[i]; !isBase64(c) && !(c == '=' && i >= len(part)-2) {
			return "", 0
		}
	}
	return part, start
}
