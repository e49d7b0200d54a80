package pack

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"slices"
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

// keyLines returns n random lines of a key's body (64 base64 characters
// each), from rnd.
func keyLines(rnd *rand.Rand, n int) []string {
	lines := make([]string, n)
	for i := range lines {
		b := make([]byte, 48)
		for j := range b {
			b[j] = byte(rnd.IntN(256))
		}
		lines[i] = base64.StdEncoding.EncodeToString(b)
	}
	return lines
}

// puttyKey is a PuTTY key file whose private lines are private.
func puttyKey(private []string) string {
	return "PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 1\nAAAAB3NzaC1yc2EAAAADAQABAAABAQ\n" +
		fmt.Sprintf("Private-Lines: %d\n", len(private)) + strings.Join(private, "\n") +
		"\nPrivate-MAC: 7f8499ff30499a90ebb4108e360ddfcfc69e290d9f945ffa4d1278220ad2cf13\n"
}

// TestKeyRotatedInPlace: a private key (PEM, PuTTY) whose lines change
// deep in the block (no first line within the hunk, nor within
// scanContext lines of it) shows none of them: the whole block is scanned,
// and the hunk header, which git names by a line of the key above the
// hunk, shows that line redacted.
func TestKeyRotatedInPlace(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	formats := map[string]func([]string) string{
		"putty": puttyKey,
		"pem": func(p []string) string {
			return "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Join(p, "\n") + "\n-----END RSA PRIVATE KEY-----\n"
		},
	}
	for name, key := range formats {
		t.Run(name, func(t *testing.T) {
			private := keyLines(rnd, 28)
			r := newRepo(t, name)
			r.Write("keydata.txt", key(private))
			r.Commit("key")
			rotated := slices.Clone(private)
			rotated[20] = keyLines(rnd, 1)[0]
			r.Write("keydata.txt", key(rotated))
			r.Commit("rotate one line")

			res := build(t, r.change("HEAD~1..HEAD"), options(counter(t), Markdown, 0))
			for i, line := range append(private, rotated[20]) {
				if strings.Contains(res.Text, line) {
					t.Errorf("private line %d is in the pack:\n%s", i, res.Text)
					break
				}
			}
		})
	}
}

// TestAddedSecretsPuttyKeyRotatedInPlace: a PuTTY key whose line changes
// far from its Private-Lines: line blocks a commit, as a PEM key does.
func TestAddedSecretsPuttyKeyRotatedInPlace(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	private := keyLines(rnd, 28)
	r := newRepo(t, "putty")
	r.Write("deploy/id.txt", puttyKey(private))
	r.Commit("key")
	private[20] = keyLines(rnd, 1)[0]
	r.Write("deploy/id.txt", puttyKey(private))
	r.Git("add", "-A")
	found, _, err := AddedSecrets(t.Context(), r.change("--staged"), testGate())
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 || found[0].Rule != "putty-private-key" || found[0].Line != 27 {
		t.Errorf("AddedSecrets = %v, want putty-private-key on line 27", found)
	}
}
