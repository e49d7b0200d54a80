package pack

import (
	"context"
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/secrets"
)

// view gathers what the renderers need, everything from the repository
// put through the gate: paths, commit messages, the manifest.
func (b *builder) view(ctx context.Context) (*view, error) {
	v := &view{Type: "full", Tool: b.opts.Tool, Source: b.ch.Source, Messages: true, ShowTree: true, origins: b.origins}
	v.Source.Spec, v.Commits, v.PullRequest = b.spec, b.commits, b.pr
	if cut := b.ch.CommitsCut(); len(cut) > 0 {
		v.CommitsCut = cut[0]
		b.warn("", ProblemShallow, fmt.Sprintf("the commit list stops at %s, where this shallow clone's history ends, so it may miss commits of the range (the diff is whole); "+
			"fetch the history with `git fetch --unshallow` (in GitHub Actions, set fetch-depth: 0 on actions/checkout)", gitctx.ShortID(cut[0])))
	}
	if err := b.redactLabels(ctx, v); err != nil {
		return nil, err
	}
	manifest := b.manifest
	if b.manifestAhead != nil {
		manifest = func(context.Context) (Manifest, error) { return b.manifestAhead() }
	}
	m, err := manifest(ctx)
	if err != nil {
		return nil, err
	}
	if v.Manifest, err = redactManifest(ctx, b.opts.Gate, m, v); err != nil {
		return nil, err
	}
	v.Entries = b.entries
	v.Keys = keyFiles(b.entries, b.opts.KeyFiles)
	v.Budget = BudgetRecord{Provider: b.opts.Budget.Provider, Model: b.opts.Budget.Model, Tokenizer: b.opts.Counter.Name(),
		ContextWindow: b.opts.Budget.ContextWindow, ReservedOutput: b.opts.Budget.ReservedOutput, Limit: b.opts.Budget.Limit}
	return v, nil
}

// redactLabels puts every path (and old path) through the gate: a file
// name can hold a credential too.
func (b *builder) redactLabels(ctx context.Context, v *view) error {
	var names []string
	for _, e := range b.entries {
		names = append(names, cleanText(decodeLine(e.path)), cleanText(decodeLine(e.oldPath)))
	}
	texts, hits, err := redactMany(ctx, b.opts.Gate, names)
	if err != nil {
		return fmt.Errorf("check file names for credentials: %w", err)
	}
	for i, e := range b.entries {
		e.label, e.oldLabel = texts[2*i], texts[2*i+1]
		for _, h := range append(hits[2*i], hits[2*i+1]...) {
			v.origin(h.Placeholder, RedactionItem{Path: e.label.String(), Side: "file_name", Rule: ruleOf(h.Placeholder), Placeholder: h.Placeholder})
		}
	}
	return nil
}

// redactCommits puts the commit messages (and the spec the user gave, and
// the pull request's title and description) through the gate.
func (b *builder) redactCommits(ctx context.Context) error {
	if err := b.ch.WaitCommits(); err != nil {
		return err
	}
	texts := []string{cleanText(decodeLine(b.ch.Source.Spec))}
	for _, c := range b.ch.Commits {
		texts = append(texts, cleanText(decodeLine(c.Message)))
	}
	prs, sides := prTexts(b.opts.PullRequest) // last: the title, then the description
	red, hits, err := redactMany(ctx, b.opts.Gate, append(texts, prs...))
	if err != nil {
		return fmt.Errorf("check commit messages for credentials: %w", err)
	}
	b.spec = red[0].String()
	if len(prs) > 0 {
		at := len(texts)
		b.pr = &prView{Number: b.opts.PullRequest.Number, Title: red[at].String(), Body: red[at+1].String()}
		for i, side := range sides {
			for _, h := range hits[at+i] {
				b.noteOrigin(h, side)
			}
		}
	}
	for i, c := range b.ch.Commits {
		msg := red[i+1]
		subject, _, _ := strings.Cut(msg.String(), "\n")
		b.commits = append(b.commits, commitView{SHA: c.SHA, Subject: subject, Message: msg.String()})
		for _, h := range hits[i+1] {
			b.noteOrigin(h, "commit_message")
		}
	}
	return nil
}

// redactFound redacts, in the texts that went through the gate before the
// files did (the spec, the commit messages, the pull request), the
// credentials found since (see secrets.Gate.Everywhere): the record holds
// them as they are, the pack as rendered.
func (b *builder) redactFound(v *view) {
	red := func(s *string, side string) {
		t, hits := b.opts.Gate.RedactFound(*s)
		*s = t.String()
		for _, h := range hits {
			b.noteOrigin(h, side)
		}
	}
	red(&b.spec, "spec")
	v.Source.Spec = b.spec
	for i := range b.commits {
		red(&b.commits[i].Subject, "commit_message")
		red(&b.commits[i].Message, "commit_message")
	}
	if b.pr != nil {
		red(&b.pr.Title, "pr_title")
		red(&b.pr.Body, "pr_body")
	}
}

// noteOrigin records where a placeholder of the change's text first came
// from.
func (b *builder) noteOrigin(h secrets.Hit, side string) {
	if _, ok := b.origins[h.Placeholder]; !ok {
		b.origins[h.Placeholder] = RedactionItem{Side: side, Line: h.Line + 1, Rule: ruleOf(h.Placeholder), Placeholder: h.Placeholder}
	}
}

// manifest detects the project's manifest from the files on the change's
// new side.
func (b *builder) manifest(ctx context.Context) (Manifest, error) {
	name := "patch"
	repo := b.ch.Repo()
	if repo != nil {
		name = repo.Name()
	}
	tree, err := b.ch.Tree(ctx)
	if err != nil {
		return Manifest{}, err
	}
	paths := make([]string, len(tree))
	byPath := make(map[string]gitctx.TreeEntry, len(tree))
	for i, t := range tree {
		paths[i] = t.Path
		byPath[t.Path] = t
	}
	read := func(p string) (string, bool) {
		t, ok := byPath[p]
		if !ok || b.opts.Rules.IsCredential(p) {
			return "", false
		}
		_, data, err := b.ch.ReadTree(ctx, t, 256<<10)
		if err != nil {
			return "", false
		}
		d := decode(data)
		return d.Text, d.Kind == KindText
	}
	return detectManifest(name, paths, read), nil
}
