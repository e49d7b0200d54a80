package secrets

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/report"
)

// Span is one credential found in a text: the bytes [Start, End) — the
// rule's whole match, or for an encoded credential the whole encoded
// run — and the placeholder that replaces them. A Span never holds the
// credential itself.
type Span struct {
	Start, End  int
	Rule        string
	Placeholder string

	// where the rule's secret (its capture group) lies in the match, when
	// known: a span nested in this one stands for both only if it covers
	// it. Positions only; the secret is never kept.
	secretStart, secretEnd int
}

// detect runs the rules over a text. A panic in the detector is an error.
func (g *Gate) detect(ctx context.Context, text string) (fs []finding, err error) {
	defer func() {
		if r := recover(); r != nil {
			fs, err = nil, fmt.Errorf("secret scan failed: %v", r)
		}
	}()
	ds, err := g.detectors()
	if err != nil {
		return nil, err
	}
	if fs, err = rulesIn(ctx, ds, text); err != nil {
		return nil, err
	}
	fs = append(fs, wrappedIn(ctx, ds, text)...)
	fs = append(fs, blockScalarsIn(ctx, ds, text)...)
	return withSecretData(text, fs), ctx.Err()
}

// rulesIn runs the rules' detectors over a text.
func rulesIn(ctx context.Context, ds detectors, text string) (fs []finding, err error) {
	passes := ds.passesFor(text)
	var all []placed
	for i, p := range passes {
		if p.regions == nil {
			all = append(all, detectIn(ctx, p.d, text, 0, 0, i)...)
			continue
		}
		line, at := 0, 0
		for _, r := range p.regions(text) {
			line, at = line+strings.Count(text[at:r.start], "\n"), r.start
			all = append(all, detectIn(ctx, p.d, text[r.start:r.end], r.start, line, i)...)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, f := range all {
		if len(passes) == 1 || !shadowed(f, all) {
			fs = append(fs, f.finding)
		}
	}
	return fs, nil
}

// placed is a finding, the line gitleaks puts its start on and the pass
// that found it.
type placed struct {
	finding
	line, pass int
}

// detectIn runs a detector over a part of a text that starts offset bytes
// and line lines into it, and places the findings in the text.
func detectIn(ctx context.Context, d *detect.Detector, part string, offset, line, pass int) []placed {
	//lint:ignore SA1019 DetectContext takes this type until gitleaks v9
	found := d.DetectContext(ctx, detect.Fragment{Raw: part})
	if len(found) == 0 {
		return nil
	}
	index := newLineIndex(part)
	fs := make([]placed, 0, len(found))
	for _, f := range found {
		start, end := index.span(part, f)
		fd := finding{start: start, end: end, secretStart: start, secretEnd: end, rule: f.RuleID, kind: kindOther, secret: f.Secret}
		if f.Secret == "" {
			fd.kind = kindEmpty
		} else if i := strings.Index(part[start:end], f.Secret); i >= 0 {
			fd.secretStart, fd.secretEnd, fd.kind = start+i, start+i+len(f.Secret), kindLiteral
			if secretOnly(f.RuleID) {
				fd.start, fd.end = fd.secretStart, fd.secretEnd
			}
		}
		fd.start, fd.end, fd.secretStart, fd.secretEnd = fd.start+offset, fd.end+offset, fd.secretStart+offset, fd.secretEnd+offset
		fs = append(fs, placed{fd, line + f.StartLine, pass})
	}
	return fs
}

// shadowed reports whether another pass found what makes gitleaks drop a
// finding of a generic rule when one detector finds both: a finding of a
// rule that is not generic, on the same line, whose secret holds the
// generic one's. Split across passes, the findings are kept as one
// detector would keep them.
func shadowed(f placed, all []placed) bool {
	if !generic(f.rule) {
		return false
	}
	for _, o := range all {
		if o.pass != f.pass && o.line == f.line && o.rule != f.rule && !generic(o.rule) && strings.Contains(o.secret, f.secret) {
			return true
		}
	}
	return false
}

// generic is gitleaks' test for a generic rule (in its filter).
func generic(rule string) bool { return strings.Contains(strings.ToLower(rule), "generic") }

// ownTokens finds the run's own credentials, literally.
func (g *Gate) ownTokens(text string) []Span {
	var spans []Span
	for _, t := range g.own {
		for from := 0; ; {
			i := strings.Index(text[from:], t)
			if i < 0 {
				break
			}
			start := from + i
			spans = append(spans, Span{Start: start, End: start + len(t), Rule: OwnTokenRule, Placeholder: g.placeholder(OwnTokenRule, t),
				secretStart: start, secretEnd: start + len(t)})
			from = start + len(t)
		}
	}
	return spans
}

// placeholder names a secret: [REDACTED:<rule>#<n>], the same n for the
// same secret within a run.
func (g *Gate) placeholder(rule, secret string) string {
	n := g.names
	n.mu.Lock()
	defer n.mu.Unlock()
	key := rule + "\x00" + secret
	if p, ok := n.names[key]; ok {
		return p
	}
	name := ruleName(rule)
	n.count[name]++
	p := fmt.Sprintf("[REDACTED:%s#%d]", name, n.count[name])
	n.names[key] = p
	return p
}

// lineIndex maps gitleaks' line and column numbers back to byte offsets.
type lineIndex []int // offsets of the newlines

func newLineIndex(text string) lineIndex {
	var nl lineIndex
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			nl = append(nl, i)
		}
	}
	return nl
}

// base is what gitleaks counts a line's columns from: 0 on the first line,
// else the offset of the newline that ends the line before.
func (nl lineIndex) base(line int) int {
	if line <= 0 || len(nl) == 0 {
		return 0
	}
	return nl[min(line, len(nl))-1]
}

// lineBounds are the offsets where a line starts and ends (without its
// newline).
func (nl lineIndex) lineBounds(text string, line int) (int, int) {
	start := 0
	if line > 0 && line-1 < len(nl) {
		start = nl[line-1] + 1
	}
	end := len(text)
	if line < len(nl) {
		end = nl[line]
	}
	return start, max(start, end)
}

// span finds the bytes of a finding. Plain findings are checked against
// their match; when the check fails (gitleaks' line and column numbers are
// off for a match that ends the text without a newline), the match is
// searched for from its first line on. Decoded findings point at the
// encoded text, which is taken as it is. When nothing checks out, the
// finding's lines to the end of the text are taken: failing closed.
func (nl lineIndex) span(text string, f report.Finding) (int, int) {
	start := nl.base(f.StartLine) + f.StartColumn - 1
	end := nl.base(f.EndLine) + f.EndColumn
	decoded := false
	for _, t := range f.Tags {
		if strings.HasPrefix(t, "decoded:") {
			decoded = true
		}
	}
	ok := 0 <= start && start < end && end <= len(text)
	if ok && decoded {
		return start, end
	}
	if ok && text[start:end] == f.Match {
		return start, end - terminator(f)
	}
	lo, _ := nl.lineBounds(text, f.StartLine)
	if !decoded && f.Match != "" {
		if i := strings.Index(text[lo:], f.Match); i >= 0 {
			return lo + i, lo + i + len(f.Match) - terminator(f)
		}
	}
	if ok {
		_, hi := nl.lineBounds(text, f.EndLine)
		return lo, max(hi, end)
	}
	return lo, len(text)
}

// terminator is how many bytes at the end of a finding's match are the
// character after the secret that the rule requires (a closing quote, a
// space, a semicolon, a bracket, a literal \n), not part of it: they are
// kept.
func terminator(f report.Finding) int {
	if f.Secret == "" {
		return 0
	}
	i := strings.LastIndex(f.Match, f.Secret)
	if i < 0 {
		return 0
	}
	after := f.Match[i+len(f.Secret):]
	switch {
	case after == "":
		return 0
	case after == `\n` || after == `\r`:
		return 2
	case len(after) == 1 && strings.ContainsAny(after, "`'\"; \t\r\n\v\f),&<.}]>"):
		return 1
	}
	return 0
}

// merge sorts spans and joins overlapping ones. Where a span lies inside
// another and covers that one's secret (a token inside a generic
// "key = value" match, or the whole value of a password rule), the inner,
// more specific span stands for both, so the text around the secret stays
// readable; otherwise the two are joined and keep the first placeholder.
func merge(spans []Span) []Span {
	if len(spans) < 2 {
		return spans
	}
	sort.Slice(spans, func(i, j int) bool {
		a, b := spans[i], spans[j]
		switch {
		case a.Start != b.Start:
			return a.Start < b.Start
		case a.End != b.End:
			return a.End > b.End
		case secretOnly(a.Rule) != secretOnly(b.Rule):
			return secretOnly(a.Rule) // over the same bytes, the token's own rule (sorted after) wins
		}
		return a.Rule < b.Rule
	})
	var out []Span
	for _, s := range spans {
		if len(out) == 0 || s.Start >= out[len(out)-1].End {
			out = append(out, s)
			continue
		}
		last := &out[len(out)-1]
		if s.End <= last.End && s.Start <= last.secretStart && last.secretEnd <= s.End {
			*last = s
			continue
		}
		last.End = max(last.End, s.End)
		last.secretStart, last.secretEnd = last.Start, last.End
	}
	return out
}

// ruleName keeps a rule id to lower-case letters, digits and dashes, the
// alphabet of gitleaks' default rule ids, so every placeholder has one form.
func ruleName(rule string) string {
	b := []byte(strings.ToLower(rule))
	for i, c := range b {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			b[i] = '-'
		}
	}
	if len(b) == 0 {
		return "secret"
	}
	return string(b)
}
