package pack

import (
	"strings"
	"testing"

	"github.com/gitctx/gitctx/secrets"
)

// TestCredentialRedactedEverywhere: a credential a rule finds in one file
// is redacted wherever else its value appears, where no rule would find
// it: further down the same file, in another file, in the commit message
// and in the pull request's description, in the pack and in the record;
// and the same input makes the same pack.
func TestCredentialRedactedEverywhere(t *testing.T) {
	const key, password = "SvjElv1mWkeqg2yr1XxIbinQYiJVcsYL", "Tr0ub4dor0536!q"
	r := newRepo(t, "everywhere")
	r.Write("settings.py", "x = 1\n")
	r.Write("client.py", "def login():\n    return 1\n")
	r.Commit("init")
	r.Write("settings.py", "api_key = \""+key+"\"\ndb_password = \""+password+"\"\n")
	r.Write("client.py", "def login():\n    return do_login(\"admin\", \""+password+"\")  # "+key+"\n")
	r.Commit("rotate creds to " + key + " / " + password)

	pack := func() *Result {
		gate, err := secrets.New(secrets.Options{}) // a run's own: it learns the run's credentials
		if err != nil {
			t.Fatal(err)
		}
		opts := options(counter(t), Markdown, 0)
		opts.Gate = gate
		opts.PullRequest = &PullRequest{Number: 7, Title: "Rotate", Body: "The new password is " + password + "."}
		return build(t, r.change("HEAD~1..HEAD"), opts)
	}
	res := pack()
	for _, secret := range []string{key, password} {
		if strings.Contains(res.Text, secret) {
			t.Errorf("the pack holds %.4s…:\n%s", secret, res.Text)
		}
		for _, c := range res.Record.Source.Commits {
			if strings.Contains(c.Subject, secret) {
				t.Errorf("the record's commit subject holds %.4s…: %q", secret, c.Subject)
			}
		}
	}
	for _, want := range []string{`do_login("admin", "[REDACTED:`, "The new password is [REDACTED:", "rotate creds to [REDACTED:"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("the pack lacks %q", want)
		}
	}
	if again := pack(); again.Text != res.Text {
		t.Errorf("a second run packs differently: %s", textDiff(again.Text, res.Text))
	}
}
