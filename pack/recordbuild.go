package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// record fills the transparency record from what was built: the pack, or
// the parts of a split pack. v is nil and parts empty when no pack was made
// (an empty change, a budget not met).
func (b *builder) record(v *view, parts ...[]*segment) *Record {
	src := b.ch.Source
	r := &Record{
		Schema:    SchemaVersion,
		Tool:      b.opts.Tool,
		CreatedAt: b.opts.Now().UTC().Format(time.RFC3339),
		Source: SourceRecord{
			Kind: string(src.Kind), Spec: b.spec, Base: src.Base, Head: src.Head,
			MergeBase: src.MergeBase, Shallow: src.Shallow, Commits: []CommitRecord{},
		},
		Pack: PackRecord{Format: string(b.opts.Format), Steps: []string{}},
		Budget: BudgetRecord{Provider: b.opts.Budget.Provider, Model: b.opts.Budget.Model, Tokenizer: b.opts.Counter.Name(),
			ContextWindow: b.opts.Budget.ContextWindow, ReservedOutput: b.opts.Budget.ReservedOutput, Limit: b.opts.Budget.Limit},
		Files:              []FileRecord{},
		Neighbours:         []Neighbour{},
		Redactions:         Redactions{ByRule: map[string]int{}, Items: []RedactionItem{}},
		ExclusionsByReason: map[string]int{},
		Delivery:           Delivery{Kind: "none"},
		Warnings:           append([]Problem{}, b.problems...),
		Errors:             append([]Problem{}, b.errors...),
	}
	for _, c := range b.commits {
		r.Source.Commits = append(r.Source.Commits, CommitRecord{SHA: c.SHA, Subject: c.Subject})
	}
	if b.pr != nil {
		r.Source.PullRequest = &PullRequestRecord{Number: b.pr.Number, Title: b.pr.Title}
	}
	for _, e := range b.entries {
		if e.role == RoleNeighbour && e.score != nil {
			r.Neighbours = append(r.Neighbours, Neighbour{Path: e.label.String(), Score: *e.score, Reasons: e.reasons})
		}
		r.Files = append(r.Files, fileRecord(e))
		r.Stats.FilesScanned++
		if e.included() {
			r.Stats.FilesIncluded++
			if !e.nameOnly && e.showContent != "" {
				r.Stats.ContentBytes += int64(e.shownBytes())
			}
			if e.representation() == RepTruncated {
				r.Stats.TruncatedFiles++
			}
		} else {
			r.Stats.FilesExcluded++
			r.ExclusionsByReason[e.excluded]++
		}
	}
	if v == nil || len(parts) == 0 {
		return r
	}
	r.Pack.Type = v.Type
	r.Pack.Parts = len(parts)
	r.Pack.Steps = append(r.Pack.Steps, v.Steps...)
	for i, segs := range parts {
		text := join(segs)
		sum := sha256.Sum256([]byte(text))
		tokens := sumTokens(segs)
		r.Pack.Bytes += int64(len(text))
		r.Pack.Tokens += tokens
		r.Budget.Used = max(r.Budget.Used, tokens)
		if i == 0 {
			r.Pack.SHA256 = hex.EncodeToString(sum[:])
			r.Pack.Boundary = boundaryOf(segs)
		}
		if len(parts) > 1 {
			r.Pack.PartFiles = append(r.Pack.PartFiles, PartFile{SHA256: hex.EncodeToString(sum[:]), Tokens: tokens, Boundary: boundaryOf(segs)})
		}
		for _, seg := range segs {
			for _, it := range seg.items {
				r.Redactions.Items = append(r.Redactions.Items, it)
				r.Redactions.ByRule[it.Rule]++
			}
		}
	}
	r.Redactions.Total = len(r.Redactions.Items)
	return r
}

func fileRecord(e *entry) FileRecord {
	f := FileRecord{
		Path: e.label.String(), OldPath: e.oldLabel.String(), Role: e.role, Status: e.status, Kind: e.kind,
		Included: e.included(), Representation: e.representation(), Bytes: e.size, Tokens: e.tokens(),
		Additions: e.additions(), Deletions: e.deletions(), Encoding: e.encoding, Score: e.score,
		Reason: indexReason(e), ExclusionReason: e.excluded,
	}
	if !f.Included {
		f.Reason = e.reason
	}
	return f
}

// boundaryOf is the boundary marker of a rendered pack: the one derived
// from its body, everything between the head and the tail.
func boundaryOf(segs []*segment) string {
	if len(segs) < 2 {
		return ""
	}
	return boundary(segs[1 : len(segs)-1])
}
