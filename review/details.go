package review

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gitctx/gitctx/pack"
)

// maxDetailRows bounds the file and neighbour tables of Details.
const maxDetailRows = 40

// Details renders the "what the model saw" section of a comment from the
// pack's record: the pack's type and size against the budget, the files
// by role and representation, what was left out and why, redactions by
// rule, and the neighbours with their reasons.
func Details(rec *pack.Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s pack**, %d of %d tokens (%s, %s), sha256 `%s`.\n",
		rec.Pack.Type, rec.Pack.Tokens, rec.Budget.Limit, orNone(rec.Budget.Provider), orNone(rec.Budget.Model), short(rec.Pack.SHA256))
	if rec.Pack.SelectionReason != "" {
		fmt.Fprintf(&b, "%s\n", mdText(rec.Pack.SelectionReason))
	}
	writeFiles(&b, rec.Files)
	writeCounts(&b, "Left out", rec.ExclusionsByReason)
	writeCounts(&b, "Credentials redacted", rec.Redactions.ByRule)
	writeNeighbours(&b, rec.Neighbours)
	return strings.TrimSpace(b.String())
}

func writeFiles(b *strings.Builder, files []pack.FileRecord) {
	if len(files) == 0 {
		return
	}
	b.WriteString("\n| file | role | shown as | tokens |\n|---|---|---|---:|\n")
	for i, f := range files {
		if i == maxDetailRows {
			fmt.Fprintf(b, "| … %d more in record.json | | | |\n", len(files)-i)
			break
		}
		shown := f.Representation
		if !f.Included {
			shown = "left out: " + f.ExclusionReason
		}
		fmt.Fprintf(b, "| %s | %s | %s | %d |\n", codeSpan(f.Path), f.Role, mdText(shown), f.Tokens)
	}
}

func writeCounts(b *strings.Builder, title string, counts map[string]int) {
	if len(counts) == 0 {
		return
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", mdText(k), counts[k]))
	}
	fmt.Fprintf(b, "\n%s: %s.\n", title, strings.Join(parts, ", "))
}

func writeNeighbours(b *strings.Builder, ns []pack.Neighbour) {
	if len(ns) == 0 {
		return
	}
	b.WriteString("\nNeighbours:\n")
	for i, n := range ns {
		if i == maxDetailRows {
			fmt.Fprintf(b, "- … %d more in record.json\n", len(ns)-i)
			break
		}
		fmt.Fprintf(b, "- %s (%.2f): %s\n", codeSpan(n.Path), n.Score, mdText(strings.Join(n.Reasons, "; ")))
	}
}

// codeSpan shows repository text (a file name) as inline code that cannot
// break out of its table cell or mention anyone.
func codeSpan(s string) string {
	s = strings.NewReplacer("`", "'", "|", "\\|", "\n", " ", "\r", " ").Replace(s)
	return "`" + s + "`"
}

// mdText keeps text on one line and out of HTML and table syntax.
func mdText(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", "|", "\\|", "\n", " ", "\r", " ", "@", "@\u200b").Replace(s)
}

func short(h string) string {
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
