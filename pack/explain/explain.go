// Package explain shows a transparency record (pack.Record) to a person:
// what the pack holds, largest first, as a text token map; what was left
// out, grouped by reason; the budget used against its limit; the
// credentials redacted, by rule; the neighbours with their reasons; and the
// warnings met on the way.
//
// Text renders it for a terminal, Markdown for a job summary or a pull
// request comment. Both show the same model of the record, and both treat
// every string in the record (file names, reasons, messages) as
// repository text: Text makes control and invisible characters visible,
// Markdown keeps the text out of HTML, links, mentions and table syntax.
package explain

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gitctx/gitctx/pack"
)

// Options shape a rendering.
type Options struct {
	// Color adds ANSI colours (Text only); set it for a terminal that
	// wants them.
	Color bool
	// MaxRows bounds each list (files, neighbours, redaction places);
	// 0 shows every row. The rest is counted, and left to record.json.
	MaxRows int
}

// model is what both renderings show: the record, sorted and grouped.
type model struct {
	rec   *pack.Record
	shown []pack.FileRecord // included files, largest first
	rest  int               // tokens of the pack outside its files' sections
	total int               // the tokens shares are taken of
	left  []group           // excluded files by reason, largest group first
	rules []rule            // redactions by rule, most first
}

// group is the files left out for one reason.
type group struct {
	reason string
	files  []pack.FileRecord
}

// rule is the redactions of one rule.
type rule struct {
	name  string
	count int
	items []pack.RedactionItem
}

func newModel(rec *pack.Record) *model {
	m := &model{rec: rec}
	inFiles := 0
	byReason := map[string][]pack.FileRecord{}
	for _, f := range rec.Files {
		if f.Included {
			m.shown = append(m.shown, f)
			inFiles += f.Tokens
			continue
		}
		byReason[f.ExclusionReason] = append(byReason[f.ExclusionReason], f)
	}
	slices.SortStableFunc(m.shown, func(a, b pack.FileRecord) int {
		return cmp.Or(cmp.Compare(b.Tokens, a.Tokens), strings.Compare(a.Path, b.Path))
	})
	m.rest = max(rec.Pack.Tokens-inFiles, 0)
	m.total = max(rec.Pack.Tokens, inFiles)
	for _, r := range slices.Sorted(maps.Keys(byReason)) {
		m.left = append(m.left, group{reason: r, files: byReason[r]})
	}
	slices.SortStableFunc(m.left, func(a, b group) int { return cmp.Compare(len(b.files), len(a.files)) })
	m.rules = rulesOf(rec.Redactions)
	return m
}

// rulesOf counts the redactions by rule, with the places of each.
func rulesOf(r pack.Redactions) []rule {
	items := map[string][]pack.RedactionItem{}
	for _, it := range r.Items {
		items[it.Rule] = append(items[it.Rule], it)
	}
	counts := maps.Clone(r.ByRule)
	if counts == nil {
		counts = map[string]int{}
	}
	for name, its := range items {
		counts[name] = max(counts[name], len(its))
	}
	var rules []rule
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		rules = append(rules, rule{name: name, count: counts[name], items: items[name]})
	}
	slices.SortStableFunc(rules, func(a, b rule) int { return cmp.Compare(b.count, a.count) })
	return rules
}

// used is the budget's tokens used: the largest part's tokens (the
// pack's, when it is not split).
func (m *model) used() int {
	if m.rec.Budget.Used > 0 {
		return m.rec.Budget.Used
	}
	return m.rec.Pack.Tokens
}

// redacted is the number of placeholders in the pack.
func (m *model) redacted() int {
	n := m.rec.Redactions.Total
	for _, r := range m.rules {
		n = max(n, r.count)
	}
	return n
}

// limit caps n rows at max (0: no cap) and says how many are left over.
func limit(n, maxRows int) (shown, more int) {
	if maxRows <= 0 || n <= maxRows {
		return n, 0
	}
	return maxRows, n - maxRows
}

// bar draws share (0 to 1) of width cells with eighth blocks; a share
// above zero always shows at least a sliver.
func bar(share float64, width int) string {
	share = min(max(share, 0), 1)
	eighths := int(share*float64(width*8) + 0.5)
	if share > 0 && eighths == 0 {
		eighths = 1
	}
	s := strings.Repeat("█", eighths/8)
	if r := eighths % 8; r > 0 {
		s += string([]rune("▏▎▍▌▋▊▉")[r-1])
	}
	return s
}

// share is n of total, 0 when total is 0.
func share(n, total int) float64 {
	if total <= 0 {
		return 0
	}
	return float64(n) / float64(total)
}

// percent shows a share: "35%", "<1%" for a small one above zero.
func percent(s float64) string {
	switch {
	case s > 0 && s < 0.005:
		return "<1%"
	default:
		return strconv.Itoa(int(s*100+0.5)) + "%"
	}
}

// commas writes n with thousands separators: 128000 → "128,000".
func commas(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// shortHash is the first 12 hex digits of a sha256.
func shortHash(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return commas(n) + " " + one
	}
	return commas(n) + " " + many
}

// source says which change was packed: "range HEAD~1..HEAD, 1 commit".
// esc makes the record's text safe for the rendering.
func source(s pack.SourceRecord, esc func(string) string) string {
	if s.Kind == "" {
		return ""
	}
	out := esc(strings.ReplaceAll(s.Kind, "_", " "))
	if s.Spec != "" && s.Spec != "--"+s.Kind {
		out += " " + esc(s.Spec)
	}
	if len(s.Commits) > 0 {
		out += ", " + plural(len(s.Commits), "commit", "commits")
	}
	if pr := s.PullRequest; pr != nil {
		out += fmt.Sprintf(", pull request #%d: %s", pr.Number, esc(pr.Title))
	}
	if s.Shallow {
		out += ", shallow clone"
	}
	return out
}

// partsText names a split pack's parts: " in 6 parts (pack-1.md to
// pack-6.md, 14,176 to 48,712 tokens each)"; "" for a pack of one file.
func partsText(parts []pack.PartFile, esc func(string) string) string {
	if len(parts) == 0 {
		return ""
	}
	least, most := parts[0].Tokens, parts[0].Tokens
	for _, p := range parts {
		least, most = min(least, p.Tokens), max(most, p.Tokens)
	}
	return fmt.Sprintf(" in %d parts (%s to %s, %s to %s tokens each)", len(parts),
		esc(parts[0].Path), esc(parts[len(parts)-1].Path), commas(least), commas(most))
}

// deliveryText says where a pack went: "github, model gpt-4.1 at
// api.openai.com, about $0.0042, https://…"; "" when it was only saved.
// A review that failed (an error of kind review) says it did not arrive.
func deliveryText(d pack.Delivery, errs []pack.Problem, esc func(string) string) string {
	if d.Kind == "" || d.Kind == "none" {
		return ""
	}
	out := esc(d.Kind)
	if slices.ContainsFunc(errs, func(p pack.Problem) bool { return p.Kind == pack.ProblemReview }) {
		out = "not delivered (the review failed: see Errors); meant for " + out
	}
	if d.Model != "" {
		out += ", model " + esc(d.Model)
	}
	if d.EndpointHost != "" {
		out += " at " + esc(d.EndpointHost)
	}
	if d.EstimatedCostUSD > 0 {
		out += fmt.Sprintf(", about $%.4f", d.EstimatedCostUSD)
	}
	if d.CommentURL != "" && d.CommentURL != "-" {
		out += ", " + esc(d.CommentURL)
	}
	return out
}

// places says where a rule's placeholders sit, one line a place: a place
// that holds several (a file name the pack shows in its index, its tree
// and a heading) once, with how many.
func places(items []pack.RedactionItem) []string {
	var out []string
	seen := map[string]int{} // a place's index in out
	counts := map[string]int{}
	for _, it := range items {
		p := place(it)
		if _, ok := seen[p]; !ok {
			seen[p] = len(out)
			out = append(out, p)
		}
		counts[p]++
	}
	for i, p := range out {
		if n := counts[p]; n > 1 {
			out[i] = fmt.Sprintf("%s, %d placeholders", p, n)
		}
	}
	return out
}

// place says where a placeholder sits: "config.py:3 (new side)", or
// "commit message, line 2" for text that is not a file.
func place(it pack.RedactionItem) string {
	side := strings.ReplaceAll(strings.Replace(it.Side, "pr_", "pull request's ", 1), "_", " ")
	switch {
	case it.Path == "" && it.Line > 0:
		return fmt.Sprintf("%s, line %d", side, it.Line)
	case it.Path == "":
		return side
	case it.Line > 0:
		return fmt.Sprintf("%s:%d (%s)", it.Path, it.Line, side)
	}
	return fmt.Sprintf("%s (%s)", it.Path, side)
}

// problemWhere names a warning's file and kind: "docs/x.md (unreadable):".
func problemWhere(p pack.Problem) string {
	switch {
	case p.Path != "" && p.Kind != "":
		return p.Path + " (" + p.Kind + "):"
	case p.Path != "":
		return p.Path + ":"
	case p.Kind != "":
		return p.Kind + ":"
	}
	return "-"
}
