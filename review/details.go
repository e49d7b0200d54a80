package review

import (
	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/pack/explain"
)

// maxDetailRows bounds each list of Details, so that a large pack's
// details stay well inside a comment's size limit; the rest is counted
// and left to record.json.
const maxDetailRows = 40

// Details renders the "what the model saw" section of a comment from the
// pack's record: the pack's type and size against the budget, the files
// it holds largest first, what was left out and why, redactions by rule,
// and the neighbours with their reasons. It is `gitctx explain
// --markdown`, so the comment, the job summary and the command agree.
func Details(rec *pack.Record) string {
	return explain.Markdown(rec, explain.Options{MaxRows: maxDetailRows})
}
