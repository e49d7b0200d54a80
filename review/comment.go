package review

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Marker starts every comment gitctx posts; a poster finds its earlier
// comment by it. The full marker line also carries the pack's hash:
// <!-- gitctx:review pack=sha256:… -->.
const Marker = "<!-- gitctx:review"

// Comment is a review as it is posted: the model's answer (already
// checked for credentials and workflow commands), the findings that could
// not be anchored inline, and what the model saw.
type Comment struct {
	PackHash string    // sha256 of the pack the answer is about
	Answer   string    // the model's answer, markdown
	Outside  []Finding // findings on lines the diff does not show, listed in the comment
	Refused  []Finding // findings GitHub refused as inline comments, listed in the comment
	Details  string    // the "what the model saw" section, markdown
	Footer   string    // a last line: where the artifact is, a notice
}

// MaxCommentChars is GitHub's limit on a comment body, in characters
// (Unicode code points).
const MaxCommentChars = 65536

// Render returns the comment's markdown, at most limit characters (0: no
// limit). When it does not fit, the "what the model saw" section is
// shortened first, then the answer is cut at a line boundary with a note
// that it was truncated; the marker and the footer always stay.
func (c Comment) Render(limit int) string {
	head := c.markerLine() + "\n## gitctx review\n\n"
	outside := renderFindings(c.Outside, outsideHeading, "These point at lines the pull request does not change, so they are listed here rather than inline.") +
		renderFindings(c.Refused, refusedHeading, "GitHub refused to post these as inline comments, so they are listed here.")
	details := ""
	if c.Details != "" {
		details = "\n\n<details>\n<summary>What the model saw</summary>\n\n" + c.Details + "\n\n</details>"
	}
	footer := ""
	if c.Footer != "" {
		footer = "\n\n" + c.Footer
	}
	answer := strings.TrimSpace(c.Answer)
	whole := head + answer + outside + details + footer + "\n"
	if limit <= 0 || runes(whole) <= limit {
		return whole
	}
	if details != "" {
		details = "\n\n<details>\n<summary>What the model saw</summary>\n\nLeft out to fit the comment size limit; see record.json in the artifact.\n\n</details>"
	}
	const cut = "\n\n_… the answer was truncated to fit GitHub's comment size limit; the whole answer is review.md in the artifact._"
	room := limit - runes(head+outside+details+footer+cut+"\n")
	if runes(answer) > room {
		answer = truncateRunes(answer, max(room, 0)) + cut
	}
	out := head + answer + outside + details + footer + "\n"
	if runes(out) > limit {
		out = truncateRunes(out, limit)
	}
	return out
}

func (c Comment) markerLine() string {
	if c.PackHash == "" {
		return Marker + " -->"
	}
	return Marker + " pack=" + shortHash(c.PackHash) + " -->"
}

// markerHexLen is how much of the pack's sha256 the marker keeps: enough
// to tell an unchanged pack from another (design §8: the first 12 hex).
const markerHexLen = 12

// shortHash is a "sha256:<hex>" pack hash as the marker holds it.
func shortHash(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	return h[:min(len(h), markerHexLen)]
}

// SamePack reports whether the hash an earlier comment's marker holds
// (PackHashOf: 12 hex, or a whole "sha256:<hex>" as gitctx wrote it
// before) is that of the pack packHash names.
func SamePack(marked, packHash string) bool {
	marked = strings.TrimPrefix(marked, "sha256:")
	full := strings.TrimPrefix(packHash, "sha256:")
	return len(marked) >= markerHexLen && len(full) >= len(marked) && full[:len(marked)] == marked
}

// PackHashOf reads the pack hash from the marker of an earlier comment.
func PackHashOf(body string) string {
	line, _, _ := strings.Cut(body, "\n")
	if !strings.HasPrefix(line, Marker+" pack=") {
		return ""
	}
	h := strings.TrimPrefix(line, Marker+" pack=")
	h, _, _ = strings.Cut(h, " ")
	return h
}

// AnswerOf reads the model's answer back from an earlier comment, so an
// unchanged pack can be refreshed without asking the model again.
func AnswerOf(body string) string {
	_, rest, ok := strings.Cut(body, "\n## gitctx review\n\n")
	if !ok {
		return ""
	}
	for _, end := range []string{"\n\n" + outsideHeading, "\n\n" + refusedHeading, "\n\n<details>\n<summary>What the model saw</summary>"} {
		if i := strings.Index(rest, end); i >= 0 {
			rest = rest[:i]
		}
	}
	return strings.TrimSpace(rest)
}

// Headings of the comment's lists of findings.
const (
	outsideHeading = "### Findings outside the diff"
	refusedHeading = "### Findings not posted inline"
)

// renderFindings is a list of findings under its heading and a line
// saying why they are listed.
func renderFindings(fs []Finding, heading, why string) string {
	if len(fs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n" + heading + "\n\n" + why + "\n")
	for _, f := range fs {
		b.WriteString("\n- " + FormatFinding(f))
	}
	return b.String()
}

// FormatFinding is a finding as one markdown list item's text.
func FormatFinding(f Finding) string {
	loc := "`" + f.Path + "`"
	if f.Line > 0 {
		loc += fmt.Sprintf(" line %d", f.Line)
	}
	sev := f.Severity
	if sev == "" {
		sev = "info"
	}
	text := strings.TrimSpace(f.Title)
	if body := strings.TrimSpace(f.Body); body != "" {
		if text != "" {
			text += ": "
		}
		text += body
	}
	return fmt.Sprintf("**%s** %s: %s", sev, loc, strings.ReplaceAll(text, "\n", " "))
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// truncateRunes cuts s to at most n code points, at the last line break
// in the final fifth if there is one.
func truncateRunes(s string, n int) string {
	if runes(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n {
			break
		}
		count++
	}
	s = s[:i]
	if j := strings.LastIndexByte(s, '\n'); j > len(s)*4/5 {
		s = s[:j]
	}
	return s
}
