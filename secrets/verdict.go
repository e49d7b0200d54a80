package secrets

import (
	"regexp"

	"github.com/zricethezav/gitleaks/v8/config"
)

// verdictRules is what of a file's path the gate, scanning text without
// one, leaves out, and the verdict of a commit scanner (BlockingHits)
// follows, as far as it can without letting a token through.
type verdictRules struct {
	// scopes are the files a rule is kept to, by rule: gitleaks reports
	// hashicorp-tf-password in .tf and .hcl files alone, and a test's Go
	// field compared with a password blocks nothing (it is still
	// redacted).
	scopes map[string]*regexp.Regexp
	// skipped are gitleaks' default global allowlists, whose paths are
	// files gitleaks never reports in: lock files, Go's vendor/ of
	// dependencies, node_modules/, images. There the generic rule, whose
	// guesses in third-party code no one can fix (terraform's vendored
	// scaleway client: computeAPI = ComputeAPIPar1), blocks nothing; a
	// token a rule of its own knows (a GitHub token in a lock file's URL)
	// still does.
	skipped []*config.Allowlist
}

// skips reports whether a finding of rule in the file at path does not
// block. A text with no path (a commit message) is never skipped.
func (v verdictRules) skips(rule, path string) bool {
	if path == "" {
		return false
	}
	if scope := v.scopes[rule]; scope != nil && !scope.MatchString(path) {
		return true
	}
	if generic(rule) {
		for _, al := range v.skipped {
			if len(al.Paths) > 0 && al.PathAllowed(path) {
				return true
			}
		}
	}
	return false
}
