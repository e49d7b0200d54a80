package secrets

import (
	"strings"
	"testing"
)

// TestTerraformPasswordKeptToTerraform: gitleaks reports
// hashicorp-tf-password in .tf and .hcl files alone. A commit scanner's
// verdict follows it; redaction finds the password everywhere, but leaves
// what is plainly not one, and the name before the value.
func TestTerraformPasswordKeptToTerraform(t *testing.T) {
	g := newGate(t, Options{})
	value := "q8xk2m4p" + "z7wn3v" // not one literal, for scanners of this file
	set := `  administrator_login_password = "` + value + `"` + "\n"
	for _, tt := range []struct {
		path   string
		blocks bool
	}{
		{"infra/main.tf", true},
		{"infra/db.HCL", true},
		{"docs/terraform.md", false},
		{"main.go", false},
		{"", true}, // a text with no file: a commit message
	} {
		hits, err := g.BlockingHits(t.Context(), tt.path, set)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(hitLines(hits, terraformPassword)) > 0; got != tt.blocks {
			t.Errorf("%q: BlockingHits = %+v, want %s blocking %v", tt.path, hits, terraformPassword, tt.blocks)
		}
	}
	red, _ := redactAll(t, g, set)
	if strings.Contains(red, value) || !strings.HasPrefix(red, "  administrator_login_password = ") {
		t.Errorf("redacted %q: want the value replaced and the name kept", red)
	}

	for _, code := range []string{
		"if form.User == \"user\" && form.Password == \"password\" {\n",
		"\tPassword string `form:\"password\" json:\"password\" binding:\"required\"`\n",
		"password = \"changeme\"\n",
		"resource \"x\" { password = \"required\" }\n",
	} {
		if red, hits := redactAll(t, g, code); len(hits) != 0 || red != code {
			t.Errorf("%q: redacted as %q (%+v); it holds no password", code, red, hits)
		}
	}
}

// TestRepositoryRuleScope: a rule of the repository's .gitleaks.toml kept to
// some files blocks in those alone, and is redacted everywhere; the default
// rules' scopes hold beside it.
func TestRepositoryRuleScope(t *testing.T) {
	g := newGate(t, Options{RepoConfig: []byte("[[rules]]\nid = \"corp-pin\"\nregex = '''corp_pin=(\\d{6})'''\nsecretGroup = 1\npath = '''\\.ini$'''\nkeywords = [\"corp_pin\"]\n")})
	text := "corp_pin=" + "482913\n"
	for path, blocks := range map[string]bool{"conf/app.ini": true, "conf/app.go": false} {
		hits, err := g.BlockingHits(t.Context(), path, text)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(hitLines(hits, "corp-pin")) > 0; got != blocks {
			t.Errorf("%s: BlockingHits = %+v, want blocking %v", path, hits, blocks)
		}
	}
	if red, _ := redactAll(t, g, text); strings.Contains(red, "482913") {
		t.Errorf("redacted %q still holds the pin", red)
	}
	set := `password = "` + "q8xk2m4p" + "z7wn3v" + `"` + "\n"
	if hits, err := g.BlockingHits(t.Context(), "main.go", set); err != nil || len(hitLines(hits, terraformPassword)) != 0 {
		t.Errorf("main.go: BlockingHits = %+v, %v; want no %s", hits, err, terraformPassword)
	}
}

// TestGenericRuleInSkippedPaths: in the files gitleaks never reports in
// (Go's vendor/, node_modules/, lock files), the generic rule blocks
// nothing; a token a rule of its own knows still blocks there. Both are
// redacted.
func TestGenericRuleInSkippedPaths(t *testing.T) {
	g := newGate(t, Options{})
	generic, pat := fake(t, "generic-api-key", "vendored"), fake(t, "github-pat", "vendored")
	for _, tt := range []struct {
		path, text, rule string
		blocks           bool
	}{
		{"vendor/github.com/acme/client/api.go", generic.Token, "generic-api-key", false},
		{"node_modules/acme/index.js", generic.Token, "generic-api-key", false},
		{"internal/client/api.go", generic.Token, "generic-api-key", true},
		{"vendor/github.com/acme/client/api.go", "token: " + pat.Token, "github-pat", true},
		{"package-lock.json", "token: " + pat.Token, "github-pat", true},
	} {
		hits, err := g.BlockingHits(t.Context(), tt.path, tt.text+"\n")
		if err != nil {
			t.Fatal(err)
		}
		if got := len(hitLines(hits, tt.rule)) > 0; got != tt.blocks {
			t.Errorf("%s: BlockingHits = %+v, want %s blocking %v", tt.path, hits, tt.rule, tt.blocks)
		}
		if red, _ := redactAll(t, g, tt.text+"\n"); strings.Contains(red, tt.text) {
			t.Errorf("%s: %s not redacted", tt.path, tt.rule)
		}
	}
}
