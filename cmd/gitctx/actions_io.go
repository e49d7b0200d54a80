package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/review"
)

// maxSummaryBytes keeps the step summary under GitHub's 1 MiB a step.
const maxSummaryBytes = 900 << 10

// actionsIO is what gitctx action says to the runner: step outputs, the
// job summary, and a pause of workflow commands so that no text of the
// repository printed meanwhile can be taken for one.
type actionsIO struct {
	a     *app
	token string
}

func newActionsIO(a *app) *actionsIO {
	g := &actionsIO{a: a, token: randomHex(16)}
	fmt.Fprintf(a.stdout, "::stop-commands::%s\n", g.token)
	return g
}

// resume lets the runner read workflow commands again.
func (g *actionsIO) resume() { fmt.Fprintf(g.a.stdout, "::%s::\n", g.token) }

// report writes the outputs and the summary of a run.
func (g *actionsIO) report(ctx context.Context, out *reviewOutcome, notice string, runErr error) {
	outputs := map[string]string{}
	var b strings.Builder
	b.WriteString("## gitctx\n\n")
	if notice != "" {
		fmt.Fprintf(&b, "> **Notice:** %s\n\n", mdLine(notice))
	}
	if runErr != nil {
		fmt.Fprintf(&b, "> **Error:** %s\n\n", mdLine(g.shown(ctx, runErr)))
	}
	if out != nil && out.record != nil {
		rec := out.record
		outputs["record-path"] = filepath.Join(out.outDir, "record.json")
		outputs["redactions"] = fmt.Sprint(rec.Redactions.Total)
		if out.empty {
			b.WriteString("Nothing to pack: the change touches no file.\n")
		} else {
			outputs["pack-path"] = filepath.Join(out.outDir, rec.Pack.Path)
			outputs["pack-type"], outputs["tokens"] = rec.Pack.Type, fmt.Sprint(rec.Pack.Tokens)
			writePackTable(&b, rec, out.result)
		}
		if r := out.result; r != nil && r.Delivery.URL != "" {
			outputs["comment-url"] = r.Delivery.URL
		}
		// the review's files, where this run saved them (a reused review
		// has no findings, a failed one no answer)
		for key, name := range map[string]string{"review-path": reviewFile, "sarif-path": sarifFile} {
			if p := filepath.Join(out.outDir, name); out.result != nil && regularFile(p) {
				outputs[key] = p
			}
		}
	}
	g.outputs(outputs)
	g.summary(b.String())
}

func writePackTable(b *strings.Builder, rec *pack.Record, res *review.Result) {
	roles := map[string]int{}
	for _, f := range rec.Files {
		if f.Included {
			roles[f.Role]++
		}
	}
	fmt.Fprintf(b, "| | |\n|---|---|\n| pack | %s, %s of %s tokens |\n", rec.Pack.Type, thousands(rec.Pack.Tokens), thousands(rec.Budget.Limit))
	fmt.Fprintf(b, "| files | %d changed, %d neighbours, %d context, %d guides (%d considered) |\n",
		roles["changed"], roles["neighbour"], roles["context"], roles["guide"], len(rec.Files))
	fmt.Fprintf(b, "| credentials redacted | %d |\n", rec.Redactions.Total)
	switch {
	case res == nil:
		b.WriteString("| review | not requested |\n")
	case res.Delivery.URL != "":
		fmt.Fprintf(b, "| review | [the comment](%s) (%s) |\n", res.Delivery.URL, mdLine(res.Model))
	default:
		fmt.Fprintf(b, "| review | below (%s) |\n", mdLine(res.Model))
	}
	if res != nil && res.Delivery.URL == "" && res.Answer != "" {
		fmt.Fprintf(b, "\n### Review\n\n%s\n", review.WithoutFindingsBlock(res.Answer))
	}
	fmt.Fprintf(b, "\n<details>\n<summary>What the model saw</summary>\n\n%s\n\n</details>\n", review.Details(rec))
}

// outputs appends step outputs, each in a heredoc block whose delimiter
// is random, so no value can end it early.
func (g *actionsIO) outputs(kv map[string]string) {
	path := g.a.getenv("GITHUB_OUTPUT")
	if path == "" || len(kv) == 0 {
		return
	}
	var b strings.Builder
	for _, k := range []string{"pack-path", "record-path", "pack-type", "tokens", "redactions", "comment-url", "review-path", "sarif-path"} {
		v, ok := kv[k]
		if !ok {
			continue
		}
		delim := "GITCTX_EOF_" + randomHex(12)
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", k, delim, v, delim)
	}
	g.appendFile(path, b.String())
}

// summary appends markdown to the job summary, within its size limit.
func (g *actionsIO) summary(md string) {
	path := g.a.getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return
	}
	if len(md) > maxSummaryBytes {
		md = strings.ToValidUTF8(md[:maxSummaryBytes], "") + "\n\n_… cut to fit the job summary; see record.json in the artifact._\n"
	}
	g.appendFile(path, md)
}

func (g *actionsIO) appendFile(path, text string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(g.a.stderr, "gitctx: warning: write %s: %v\n", terminalSafe(path), err)
	}
}

// failure writes to the summary a run that failed before it packed.
func (g *actionsIO) failure(ctx context.Context, err error) {
	g.summary(fmt.Sprintf("## gitctx\n\n> **Error:** %s\n", mdLine(g.shown(ctx, err))))
}

// shown is err's message as run prints it: the setting a bad value came
// from named, credentials removed.
func (g *actionsIO) shown(ctx context.Context, err error) string {
	msg := err.Error()
	var uerr *usageError
	if errors.As(err, &uerr) {
		msg = g.a.settings.nameSources(msg)
	}
	return redactedMessage(ctx, g.a, msg)
}

// mdLine keeps text on one line and out of HTML.
func mdLine(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", "\n", " ", "\r", " ").Replace(s)
}

func randomHex(n int) string {
	buf := make([]byte, n)
	_, _ = rand.Read(buf)
	return hex.EncodeToString(buf)
}

// regularFile reports whether path is a regular file.
func regularFile(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().IsRegular()
}
