package secrets

import "regexp"

// verdictRules is what of a rule's file path the gate, scanning text
// without one, leaves out, and the verdict of a commit scanner
// (BlockingHits) follows: the files a rule is kept to, by rule. gitleaks
// reports hashicorp-tf-password in .tf and .hcl files alone; a Go field
// compared with "password" is redacted, but blocks nothing. (gitleaks'
// global path allowlist is not followed: a token in a lock file's URL or
// in vendor/ blocks a commit.)
type verdictRules struct {
	scopes map[string]*regexp.Regexp
}

// skips reports whether gitleaks, scanning the file at path, would not
// report a finding of rule. A text with no path (a commit message) is
// never skipped.
func (v verdictRules) skips(rule, path string) bool {
	scope := v.scopes[rule]
	return path != "" && scope != nil && !scope.MatchString(path)
}
