package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gitctx/gitctx/pack"
)

// summaryLine is the one line a run prints: what was packed and where.
func summaryLine(rec *pack.Record, outDir string, o *packOptions) string {
	where := filepath.Join(outDir, rec.Pack.Path)
	switch o.output {
	case "-":
		where = "stdout"
	case "":
	default:
		where = o.output
	}
	shown, listed, leftOut := fileCounts(rec)
	size := fmt.Sprintf("%s of %s tokens", thousands(rec.Pack.Tokens), thousands(rec.Budget.Limit))
	if rec.Pack.Parts > 1 {
		size = fmt.Sprintf("%d parts, the largest %s of %s tokens", rec.Pack.Parts, thousands(rec.Budget.Used), thousands(rec.Budget.Limit))
		where = filepath.Join(outDir, "pack-*."+filepath.Ext(rec.Pack.Path)[1:])
	}
	counts := fmt.Sprintf("%d shown, %d listed by name", shown, listed)
	if leftOut > 0 {
		counts += fmt.Sprintf(", %d left out", leftOut)
	}
	return fmt.Sprintf("gitctx: %s pack, %d file%s (%s), %s, %d redaction%s → %s (record: %s)",
		rec.Pack.Type, len(rec.Files), plural(len(rec.Files)), counts,
		size, rec.Redactions.Total, plural(rec.Redactions.Total), where, filepath.Join(outDir, "record.json"))
}

// fileCounts counts the record's files as the pack shows them: shown,
// listed by name (a changed file not shown, or a file the pack names
// alone), and left out (a neighbour, guide or context file that did not
// fit or was excluded: the pack does not name it, record.json does).
func fileCounts(rec *pack.Record) (shown, listed, leftOut int) {
	for _, f := range rec.Files {
		switch {
		case f.Included && f.Representation != pack.RepNameOnly:
			shown++
		case f.Included || f.Role == pack.RoleChanged:
			listed++
		default:
			leftOut++
		}
	}
	return shown, listed, leftOut
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// printReport shows what a pack run has to say: its warnings, the note
// on changed code a default directory name left out, and its one line.
func printReport(a *app, pr *packRun, o *packOptions) {
	printWarnings(a, pr.res.Record, o.ctx.errorMode)
	if pr.hint != "" {
		fmt.Fprintln(a.stderr, terminalSafe(pr.hint))
	}
	fmt.Fprintln(a.stderr, terminalSafe(summaryLine(pr.res.Record, pr.outDir, o)))
}

// printWarnings shows the record's warnings (problems with context files,
// files that could not be read, the change's commit list cut short), at
// most a screenful; with --error-mode ignore only how many there are.
func printWarnings(a *app, rec *pack.Record, mode string) {
	const most = 20
	if mode == string(pack.ErrorIgnore) {
		if n := len(rec.Warnings); n > 0 {
			fmt.Fprintf(a.stderr, "gitctx: %d problem%s recorded in record.json (--error-mode ignore)\n", n, plural(n))
		}
		return
	}
	for i, w := range rec.Warnings {
		if i == most {
			fmt.Fprintf(a.stderr, "gitctx: warning: … %d more in record.json\n", len(rec.Warnings)-most)
			return
		}
		if w.Path == "" { // a warning about the change, not one file
			fmt.Fprintf(a.stderr, "gitctx: warning: %s\n", terminalSafe(w.Message))
			continue
		}
		fmt.Fprintf(a.stderr, "gitctx: warning: %s: %s\n", terminalSafe(w.Path), terminalSafe(w.Message))
	}
}
