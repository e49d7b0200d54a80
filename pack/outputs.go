package pack

import "regexp"

// outputName matches the names gitctx gives the files it writes into an
// output directory: the pack (pack.md, pack.xml, pack.json), the parts of
// a split one (pack-1.md, pack-2.md, …), record.json, and a review's
// answer and findings (review.md, findings.sarif, findings.rdjson).
var outputName = regexp.MustCompile(`^(pack(-[0-9]+)?\.(md|xml|json)|record\.json|review\.md|findings\.(sarif|rdjson))$`)

// OutputName reports whether name is one gitctx gives a file it writes
// into an output directory. Such a file describes one run: a run that
// writes the directory anew removes those of an earlier one it does not
// write again.
func OutputName(name string) bool { return outputName.MatchString(name) }
