package explain

import (
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/pack"
)

// Widths of the terminal view's bars, in cells.
const (
	fileBarWidth   = 20
	budgetBarWidth = 30
)

// ANSI styles of the terminal view.
const (
	styleReset  = "\x1b[0m"
	styleBold   = "\x1b[1m"
	styleDim    = "\x1b[2m"
	styleRed    = "\x1b[31m"
	styleGreen  = "\x1b[32m"
	styleYellow = "\x1b[33m"
	styleBlue   = "\x1b[34m"
	styleMagent = "\x1b[35m"
	styleCyan   = "\x1b[36m"
)

// textView writes the terminal view.
type textView struct {
	b     strings.Builder
	m     *model
	color bool
	rows  int
}

// Text renders the record for a terminal, with colours when o.Color is
// set. Every string from the record is made visible-safe.
func Text(rec *pack.Record, o Options) string {
	v := &textView{m: newModel(rec), color: o.Color, rows: o.MaxRows}
	v.header()
	v.delivery()
	v.files()
	v.leftOut()
	v.redactions()
	v.neighbours()
	v.problems("Warnings", styleYellow, rec.Warnings)
	v.problems("Errors", styleRed, rec.Errors)
	return v.b.String()
}

// paint wraps s in a style when colours are on.
func (v *textView) paint(style, s string) string {
	if !v.color || s == "" {
		return s
	}
	return style + s + styleReset
}

func (v *textView) heading(title, rest string) {
	fmt.Fprintf(&v.b, "\n%s  %s\n", v.paint(styleBold, title), rest)
}

func (v *textView) header() {
	r := v.m.rec
	typ := r.Pack.Type
	if typ == "" {
		typ = "no"
	}
	fmt.Fprintf(&v.b, "%s, %s tokens%s", v.paint(styleBold, typ+" pack"), commas(r.Pack.Tokens), partsText(r.Pack.PartFiles, visible))
	if src := source(r.Source, visible); src != "" {
		v.b.WriteString(", " + src)
	}
	v.b.WriteString("\n")
	if r.Pack.SelectionReason != "" {
		fmt.Fprintf(&v.b, "%s\n", visible(r.Pack.SelectionReason))
	}
	used := share(v.m.used(), r.Budget.Limit)
	style := styleGreen
	if used > 0.9 {
		style = styleYellow
	}
	fmt.Fprintf(&v.b, "\n%s  %s%s %s of %s tokens (%s)\n", v.paint(styleBold, "Budget"),
		v.paint(style, bar(used, budgetBarWidth)), strings.Repeat("░", budgetBarWidth-cells(bar(used, budgetBarWidth))),
		commas(v.m.used()), commas(r.Budget.Limit), percent(used))
	fmt.Fprintf(&v.b, "        provider %s, model %s, tokenizer %s\n", visible(orNone(r.Budget.Provider)), visible(orNone(r.Budget.Model)), visible(orNone(r.Budget.Tokenizer)))
	if len(r.Pack.Steps) > 0 {
		fmt.Fprintf(&v.b, "        shaped to fit: %s\n", visible(strings.Join(r.Pack.Steps, "; ")))
	}
	switch {
	case len(r.Pack.PartFiles) > 0:
		fmt.Fprintf(&v.b, "        %s, %s bytes in all; the budget holds each part (sha256 of each in the record)\n", visible(r.Pack.Format), commas(int(r.Pack.Bytes)))
	case r.Pack.SHA256 != "":
		fmt.Fprintf(&v.b, "        %s, %s bytes, sha256 %s\n", visible(r.Pack.Format), commas(int(r.Pack.Bytes)), visible(shortHash(r.Pack.SHA256)))
	}
}

// delivery says where a reviewed pack went.
func (v *textView) delivery() {
	if d := deliveryText(v.m.rec.Delivery, v.m.rec.Errors, visible); d != "" {
		v.heading("Delivery", d)
	}
}

// files is the token map: each included file's share of the pack,
// largest first, then the rest of the pack.
func (v *textView) files() {
	m := v.m
	if len(m.shown) == 0 {
		v.heading("Included", "nothing")
		return
	}
	v.heading("Included", fmt.Sprintf("%s, %s of %s tokens in their sections", plural(len(m.shown), "file", "files"), commas(m.total-m.rest), commas(m.total)))
	n, more := limit(len(m.shown), v.rows)
	for _, f := range m.shown[:n] {
		v.barRow(f.Tokens, roleStyle(f.Role), fmt.Sprintf("%-9s  %-9s  %s", f.Representation, f.Role, visible(f.Path)))
	}
	if more > 0 {
		fmt.Fprintf(&v.b, "  … %s in record.json\n", plural(more, "more file", "more files"))
	}
	if m.rest > 0 {
		v.barRow(m.rest, styleDim, v.paint(styleDim, "the rest: summary, manifest, tree, commit messages, headers"))
	}
}

func (v *textView) barRow(tokens int, style, label string) {
	s := share(tokens, v.m.total)
	b := bar(s, fileBarWidth)
	fmt.Fprintf(&v.b, "  %8s %4s  %s%s  %s\n", commas(tokens), percent(s), v.paint(style, b), strings.Repeat(" ", fileBarWidth-cells(b)), label)
}

func (v *textView) leftOut() {
	if len(v.m.left) == 0 {
		return
	}
	total := 0
	for _, g := range v.m.left {
		total += len(g.files)
	}
	v.heading("Left out", plural(total, "file", "files"))
	for _, g := range v.m.left {
		fmt.Fprintf(&v.b, "  %s (%d)\n", v.paint(styleYellow, visible(orNone(g.reason))), len(g.files))
		n, more := limit(len(g.files), v.rows)
		for _, f := range g.files[:n] {
			fmt.Fprintf(&v.b, "    %-9s  %s\n", f.Role, visible(f.Path))
		}
		if more > 0 {
			fmt.Fprintf(&v.b, "    … %d more\n", more)
		}
	}
}

func (v *textView) neighbours() {
	ns := v.m.rec.Neighbours
	if len(ns) == 0 {
		return
	}
	v.heading("Neighbours", plural(len(ns), "file", "files")+" chosen for their relation to the change")
	n, more := limit(len(ns), v.rows)
	for _, nb := range ns[:n] {
		fmt.Fprintf(&v.b, "  %6.2f  %s\n", nb.Score, v.paint(styleCyan, visible(nb.Path)))
		for _, r := range nb.Reasons {
			fmt.Fprintf(&v.b, "          %s\n", visible(r))
		}
	}
	if more > 0 {
		fmt.Fprintf(&v.b, "  … %d more in record.json\n", more)
	}
}

func (v *textView) redactions() {
	total := v.m.redacted()
	if total == 0 {
		v.heading("Redactions", "none")
		return
	}
	v.heading("Redactions", v.paint(styleRed, plural(total, "credential", "credentials"))+" replaced by placeholders")
	for _, r := range v.m.rules {
		fmt.Fprintf(&v.b, "  %4d  %s\n", r.count, v.paint(styleRed, visible(r.name)))
		where := places(r.items)
		n, more := limit(len(where), v.rows)
		for _, p := range where[:n] {
			fmt.Fprintf(&v.b, "          %s\n", visible(p))
		}
		if more > 0 {
			fmt.Fprintf(&v.b, "          … %d more\n", more)
		}
	}
}

func (v *textView) problems(title, style string, ps []pack.Problem) {
	if len(ps) == 0 {
		return
	}
	v.heading(title, fmt.Sprintf("%d", len(ps)))
	for _, p := range ps {
		fmt.Fprintf(&v.b, "  %s %s\n", v.paint(style, visible(problemWhere(p))), visible(p.Message))
	}
}

// roleStyle colours a file's bar by its role.
func roleStyle(role string) string {
	switch role {
	case pack.RoleChanged:
		return styleGreen
	case pack.RoleNeighbour:
		return styleCyan
	case pack.RoleGuide:
		return styleBlue
	}
	return styleMagent
}

// cells is the width of a bar: one cell a rune.
func cells(s string) int { return len([]rune(s)) }
