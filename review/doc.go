// Package review is the last stage of gitctx's pipeline: delivering a pack.
// Saving it as an artifact lives in [github.com/gitctx/gitctx/review/artifact];
// sending it to a model and posting the answer on a pull request come with
// the review command.
package review
