package secrets

import (
	"fmt"
	"regexp"

	"github.com/zricethezav/gitleaks/v8/config"
)

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

// terraformPassword is gitleaks' rule for a password in Terraform, which
// the gate applies to all text (see strengthen). Its secret is a quoted
// value of 8 to 20 letters, digits, =, _ and -: in code,
// form.Password == "password" and a field's tag `json:"password"` match.
const terraformPassword = "hashicorp-tf-password"

// terraformNotAPassword is the secret of terraformPassword (a quoted value)
// that is plainly not a password.
const terraformNotAPassword = `^"(?i:` + plainWords + `)"$`

// quietTerraformPassword keeps terraformPassword from replacing what is
// plainly not a password, as gitctx's password rules do (see
// notAPassword), and from replacing more than the value: the rule's match
// starts at the name, and on a line of code at the expression that holds
// it.
func quietTerraformPassword(cfg *config.Config) error {
	r, ok := cfg.Rules[terraformPassword]
	if !ok {
		return nil
	}
	al := &config.Allowlist{
		Description: "plainly not a password",
		Regexes:     []*regexp.Regexp{regexp.MustCompile(terraformNotAPassword)},
	}
	if err := al.Validate(); err != nil {
		return fmt.Errorf("allowlist of %s: %w", terraformPassword, err)
	}
	r.Allowlists = append(r.Allowlists[:len(r.Allowlists):len(r.Allowlists)], al)
	cfg.Rules[terraformPassword] = r
	return nil
}
