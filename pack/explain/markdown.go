package explain

import (
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/pack"
)

// mdBarWidth is the width of a file's bar in markdown, in cells.
const mdBarWidth = 12

// Markdown renders the record as GitHub-flavoured markdown, for a job
// summary or the "what the model saw" section of a review comment: the
// same view as Text, without colours. Repository text is shown as inline
// code or escaped literal text.
func Markdown(rec *pack.Record, o Options) string {
	m := newModel(rec)
	var b strings.Builder
	mdHeader(&b, m)
	mdFiles(&b, m, o.MaxRows)
	mdLeftOut(&b, m, o.MaxRows)
	mdRedactions(&b, m, o.MaxRows)
	mdNeighbours(&b, rec.Neighbours, o.MaxRows)
	mdProblems(&b, "Warnings", rec.Warnings, o.MaxRows)
	mdProblems(&b, "Errors", rec.Errors, o.MaxRows)
	return strings.TrimSpace(b.String())
}

func mdHeader(b *strings.Builder, m *model) {
	r := m.rec
	typ := r.Pack.Type
	if typ == "" {
		typ = "no"
	}
	fmt.Fprintf(b, "**%s pack**, %s of %s tokens (%s, %s)",
		mdText(typ), commas(m.used()), commas(r.Budget.Limit), mdText(orNone(r.Budget.Provider)), mdText(orNone(r.Budget.Model)))
	if src := source(r.Source, mdText); src != "" {
		b.WriteString(", " + src)
	}
	switch {
	case len(r.Pack.PartFiles) > 0:
		b.WriteString("," + partsText(r.Pack.PartFiles, mdText))
	case r.Pack.SHA256 != "":
		fmt.Fprintf(b, ", sha256 %s", mdCode(shortHash(r.Pack.SHA256), false))
	}
	b.WriteString(".\n")
	if r.Pack.SelectionReason != "" {
		fmt.Fprintf(b, "%s.\n", mdText(strings.TrimSuffix(upperFirst(r.Pack.SelectionReason), ".")))
	}
	if len(r.Pack.Steps) > 0 {
		fmt.Fprintf(b, "Shaped to fit: %s.\n", mdText(strings.Join(r.Pack.Steps, "; ")))
	}
	if d := deliveryText(r.Delivery, r.Errors, mdText); d != "" {
		fmt.Fprintf(b, "Delivery: %s.\n", d)
	}
}

func mdFiles(b *strings.Builder, m *model, rows int) {
	if len(m.shown) == 0 {
		return
	}
	b.WriteString("\n| file | role | shown as | tokens | share |\n|---|---|---|---:|---|\n")
	n, more := limit(len(m.shown), rows)
	for _, f := range m.shown[:n] {
		s := share(f.Tokens, m.total)
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s %s |\n", mdCode(f.Path, true), mdText(f.Role), mdText(f.Representation), commas(f.Tokens), bar(s, mdBarWidth), percent(s))
	}
	if more > 0 {
		fmt.Fprintf(b, "| … %s in record.json | | | | |\n", plural(more, "more file", "more files"))
	}
	if m.rest > 0 {
		s := share(m.rest, m.total)
		fmt.Fprintf(b, "| *the rest: summary, manifest, tree, commit messages* | | | %s | %s %s |\n", commas(m.rest), bar(s, mdBarWidth), percent(s))
	}
}

func mdLeftOut(b *strings.Builder, m *model, rows int) {
	if len(m.left) == 0 {
		return
	}
	b.WriteString("\nLeft out:\n")
	for _, g := range m.left {
		n, more := limit(len(g.files), rows)
		names := make([]string, 0, n+1)
		for _, f := range g.files[:n] {
			names = append(names, mdCode(f.Path, false))
		}
		if more > 0 {
			names = append(names, fmt.Sprintf("… %d more", more))
		}
		fmt.Fprintf(b, "- %s (%d): %s\n", mdText(orNone(g.reason)), len(g.files), strings.Join(names, ", "))
	}
}

func mdRedactions(b *strings.Builder, m *model, rows int) {
	if len(m.rules) == 0 {
		return
	}
	parts := make([]string, 0, len(m.rules))
	for _, r := range m.rules {
		parts = append(parts, fmt.Sprintf("%s %d", mdText(r.name), r.count))
	}
	fmt.Fprintf(b, "\nCredentials redacted: %d (%s).\n", m.redacted(), strings.Join(parts, ", "))
	for _, r := range m.rules {
		where := places(r.items)
		n, more := limit(len(where), rows)
		for _, p := range where[:n] {
			fmt.Fprintf(b, "- %s: %s\n", mdText(r.name), mdText(p))
		}
		if more > 0 {
			fmt.Fprintf(b, "- %s: … %d more in record.json\n", mdText(r.name), more)
		}
	}
}

func mdNeighbours(b *strings.Builder, ns []pack.Neighbour, rows int) {
	if len(ns) == 0 {
		return
	}
	b.WriteString("\nNeighbours:\n")
	n, more := limit(len(ns), rows)
	for _, nb := range ns[:n] {
		fmt.Fprintf(b, "- %s (%.2f): %s\n", mdCode(nb.Path, false), nb.Score, mdText(strings.Join(nb.Reasons, "; ")))
	}
	if more > 0 {
		fmt.Fprintf(b, "- … %d more in record.json\n", more)
	}
}

func mdProblems(b *strings.Builder, title string, ps []pack.Problem, rows int) {
	if len(ps) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s:\n", title)
	n, more := limit(len(ps), rows)
	for _, p := range ps[:n] {
		fmt.Fprintf(b, "- %s %s\n", mdText(problemWhere(p)), mdText(p.Message))
	}
	if more > 0 {
		fmt.Fprintf(b, "- … %d more in record.json\n", more)
	}
}

// upperFirst capitalises the first letter of a sentence.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
