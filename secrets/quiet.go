package secrets

import (
	"fmt"
	"regexp"

	"github.com/zricethezav/gitleaks/v8/config"
)

// Some of gitleaks' rules find what is plainly no credential in code, the
// more so as the gate applies them to all text; an allowlist or a sharper
// expression of gitctx's own keeps each of them from it.
const (
	// terraformPassword is gitleaks' rule for a password in Terraform,
	// kept to .tf and .hcl files (see strengthen). Its secret is a quoted
	// value of 8 to 20 letters, digits, =, _ and -: in code,
	// form.Password == "password" and a field's tag `json:"password"`
	// match. It also replaces the value alone (see secretOnly): its match
	// starts at the name, and on a line of code at the expression that
	// holds it.
	terraformPassword = "hashicorp-tf-password"
	// terraformNotAPassword is its secret when plainly not a password, as
	// gitctx's password rules have it (see notAPassword).
	terraformNotAPassword = `^"(?i:` + plainWords + `)"$`

	// privateKey is gitleaks' rule for a PEM or OpenSSH private key: a
	// BEGIN line, 64 characters or more, and the next KEY-----
	// (gitleaksPrivateKey). Code that builds a PEM around a variable
	// (`-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`)
	// is too short for it, so its match runs on to the next KEY----- below,
	// over the lines of code between: those are replaced, and if that is
	// a real key's BEGIN line, the key's body is left (the next match
	// starts after it). sharpPrivateKey ends at the END line, and holds no
	// other run of five dashes.
	privateKey         = "private-key"
	gitleaksPrivateKey = `(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S-]{64,}?KEY(?: BLOCK)?-----`
	sharpPrivateKey    = `(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:[^-]|-{1,4}[^-]){64,}?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----`
)

// quieten sharpens privateKey's expression and gives terraformPassword
// its allowlist.
func quieten(cfg *config.Config) error {
	if r, ok := cfg.Rules[privateKey]; ok && r.Regex != nil && r.Regex.String() == gitleaksPrivateKey {
		r.Regex = regexp.MustCompile(sharpPrivateKey)
		cfg.Rules[privateKey] = r
	}
	r, ok := cfg.Rules[terraformPassword]
	if !ok {
		return nil
	}
	al := &config.Allowlist{Description: "plainly not a password", Regexes: []*regexp.Regexp{regexp.MustCompile(terraformNotAPassword)}}
	if err := al.Validate(); err != nil {
		return fmt.Errorf("allowlist of %s: %w", terraformPassword, err)
	}
	r.Allowlists = append(r.Allowlists[:len(r.Allowlists):len(r.Allowlists)], al)
	cfg.Rules[terraformPassword] = r
	return nil
}
