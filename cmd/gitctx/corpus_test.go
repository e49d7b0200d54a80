package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/gitctx/gitctx/gitctx/gittest"
	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/secrets"
	"github.com/gitctx/gitctx/secrets/secretstest"
)

// The end-to-end secrets corpus: fake credentials of every rule in
// secrets/secretstest/corpus.txt, built at test time (no test file holds one
// whole), put everywhere a change can carry them, packed through the CLI
// entry point in every format. Nothing of them may reach the pack, the
// record, stdout or stderr.

// cred is one fake credential.
type cred = secretstest.Fixture

var placeholderRE = regexp.MustCompile(`\[REDACTED:[a-z0-9-]+#[0-9]+\]`)

// loadCreds reads the corpus of fake credentials.
func loadCreds(t *testing.T) *secretstest.Corpus {
	t.Helper()
	c, err := secretstest.Load()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// makeCred builds the credential of a rule for one place in the corpus:
// every variant is a different credential.
func makeCred(t *testing.T, cf *secretstest.Corpus, rule, variant string) cred {
	t.Helper()
	c, err := cf.Make(rule, variant)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// expandCred fills a template of its own for a rule.
func expandCred(t *testing.T, rule, tmpl, label string) cred {
	t.Helper()
	c, err := secretstest.Expand(tmpl, label)
	if err != nil {
		t.Fatalf("%s: %v", rule, err)
	}
	c.Rule = rule
	return c
}

// leak returns a description of the first trace of the credential in s:
// an n-byte window holding a random byte, or a base64 form of it.
func leak(c cred, s string, n int) string {
	if c.Leak(s, n) != "" {
		return fmt.Sprintf("%d bytes", n)
	}
	// base64 at each of the three alignments, in 16-character windows
	for off := range 3 {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawURLEncoding} {
			e := enc.EncodeToString([]byte(c.Token[off:]))
			for i := 4; i+20 <= len(e); i += 4 {
				if strings.Contains(s, e[i:i+16]) {
					return "its base64 form"
				}
			}
		}
	}
	return ""
}

// mustFind fails the test unless the gate finds the credential by its
// rule: a corpus that no longer triggers its rules would pass for nothing.
func mustFind(t *testing.T, g *secrets.Gate, c cred) {
	t.Helper()
	spans, err := g.Scan(context.Background(), "v: "+c.Token+"\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range spans {
		if s.Rule == c.Rule {
			return
		}
	}
	t.Fatalf("fixture %s is not found by its rule; fix secrets/secretstest/corpus.txt", c.Rule)
}

// testRepo is a git repository in a temporary directory.
type testRepo struct{ *gittest.Repo }

func newTestRepo(t *testing.T) *testRepo { return &testRepo{gittest.New(t, "repo")} }

func (r *testRepo) write(name string, data []byte) { r.Write(name, string(data)) }

// commitMsg commits everything with a message given on stdin, verbatim.
func (r *testRepo) commitMsg(message string) {
	r.TB.Helper()
	r.Git("add", "-A")
	if _, err := r.GitInput(message, "commit", "-q", "--no-verify", "--cleanup=verbatim", "-F", "-"); err != nil {
		r.TB.Fatalf("git commit: %v", err)
	}
	r.Commits++
}

// cliResult is what one run of gitctx left.
type cliResult struct {
	code           int
	stdout, stderr string
}

// gitctxRun runs the CLI in process, in the current directory, with env
// as its whole environment.
func gitctxRun(env map[string]string, args ...string) cliResult {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr, func(k string) string { return env[k] })
	return cliResult{code, stdout.String(), stderr.String()}
}

// utf16LE encodes s as UTF-16LE with a byte-order mark.
func utf16LE(s string) []byte {
	out := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}

// corpusRepo is the repository of the corpus and what was put in it.
type corpusRepo struct {
	*testRepo
	creds    []cred // every credential placed, wherever
	rules    []string
	ownToken string
}

// hostileGitleaksConfig is the base commit's .gitleaks.toml: it tries to
// turn the default rules off. The gate ignores all of it.
const hostileGitleaksConfig = `[extend]
useDefault = true
disabledRules = ["github-pat", "aws-access-token", "private-key", "slack-bot-token", "npm-access-token"]

[allowlist]
paths = ['''.*''']
regexes = ['''.*''']

[[rules]]
id = "github-pat"
regex = '''ghp_NEVER'''
`

// buildCorpusRepo makes a repository of two commits whose second carries
// the corpus everywhere a change can.
func buildCorpusRepo(t *testing.T) *corpusRepo {
	t.Helper()
	cf := loadCreds(t)
	if len(cf.Rules) < 20 {
		t.Fatalf("the corpus has %d rules, want at least 20", len(cf.Rules))
	}
	gate, err := secrets.New(secrets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &corpusRepo{testRepo: newTestRepo(t), rules: cf.Rules}
	mk := func(rule, variant string) cred {
		c := makeCred(t, cf, rule, variant)
		mustFind(t, gate, c)
		r.creds = append(r.creds, c)
		return c
	}
	// a few rules for the places that take one credential each
	pick := func(i int) string { return cf.Rules[i%len(cf.Rules)] }
	single := func(i int) string {
		// single-line rules only
		for {
			rule := pick(i)
			if !strings.Contains(cf.Template(rule), "\n") {
				return rule
			}
			i++
		}
	}

	// --- the base commit ---
	var base, head strings.Builder
	base.WriteString("# settings\nAPP_NAME=demo\n")
	head.WriteString("# settings\nAPP_NAME=demo\n")
	for i := range 8 { // removed lines
		c := mk(single(i), "removed")
		fmt.Fprintf(&base, "REMOVED_%d=%s\n", i, c.Token)
	}
	for i := range 8 { // context lines, each next to a changed line
		c := mk(single(i+8), "context")
		fmt.Fprintf(&base, "CONTEXT_%d=%s\nTOGGLE_%d=old\n", i, c.Token, i)
		fmt.Fprintf(&head, "CONTEXT_%d=%s\nTOGGLE_%d=new\n", i, c.Token, i)
	}
	base.WriteString("# end\n")
	head.WriteString("# end\n")
	r.write("config/settings.env", []byte(base.String()))

	oldKey, newKey := mk("private-key", "rotated-old"), mk("private-key", "rotated-new")
	r.write("deploy/key.pem", []byte(oldKey.Token+"\n")) // a credential file: listed by name only
	// a key rotated in place whose hunk holds no BEGIN line: its first
	// body lines stay, its last ones change
	keyLines := func(variant string, n int) []string {
		var out []string
		for i := range n {
			c := expandCred(t, "private-key", "{b64:64}", fmt.Sprintf("long-key/%s/%d", variant, i))
			r.creds = append(r.creds, c)
			out = append(out, c.Token)
		}
		return out
	}
	common := keyLines("common", 8)
	longKey := func(variant string) string {
		body := append(append([]string{}, common...), keyLines(variant, 3)...)
		return "tls:\n  key: |\n    -----BEGIN PRIVATE KEY-----\n    " + strings.Join(body, "\n    ") +
			"\n    -----END PRIVATE KEY-----\n  name: web\n"
	}
	r.write("deploy/tls.yaml", []byte(longKey("before")))
	r.write(".gitleaks.toml", []byte(hostileGitleaksConfig))
	r.write("README.md", []byte("# demo\n"))
	r.commitMsg("initial\n")

	// --- the head commit ---
	r.write("config/settings.env", []byte(head.String()))
	r.write("deploy/key.pem", []byte(newKey.Token+"\n"))
	r.write("deploy/tls.yaml", []byte(longKey("after")))

	// added lines: every rule of the corpus
	var added strings.Builder
	added.WriteString("# added credentials\n")
	for i, rule := range cf.Rules {
		c := mk(rule, "added")
		fmt.Fprintf(&added, "// line %d\nv%02d: %s\n", i, i, c.Token)
	}
	r.write("src/added.txt", []byte(added.String()))

	// a file name holding a token
	name := mk("github-pat", "filename")
	r.write("notes/"+name.Token+".md", []byte("# notes\n"))

	// UTF-16LE with a byte-order mark
	var u strings.Builder
	u.WriteString("utf-16 file\n")
	for i := range 5 {
		fmt.Fprintf(&u, "k%d = \"%s\"\n", i, mk(single(i+16), "utf16").Token)
	}
	r.write("docs/utf16.txt", utf16LE(u.String()))

	// CRLF line ends, a private key among them
	var w strings.Builder
	w.WriteString("[section]\r\n")
	for i := range 5 {
		fmt.Fprintf(&w, "k%d=%s\r\n", i, mk(single(i+21), "crlf").Token)
	}
	fmt.Fprintf(&w, "key=%s\r\n", strings.ReplaceAll(mk("private-key", "crlf").Token, "\n", "\r\n"))
	r.write("win/settings.ini", []byte(w.String()))

	// Latin-1 (Windows-1252)
	var l bytes.Buffer
	l.WriteString("caf\xe9 cr\xe8me \x80 10\n")
	for i := range 5 {
		fmt.Fprintf(&l, "cl\xe9%d = %s\n", i, mk(single(i+26), "latin1").Token)
	}
	r.write("legacy/latin1.txt", l.Bytes())

	// base64 in YAML: a Kubernetes Secret
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	r.write("k8s/secret.yaml", []byte("apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n"+
		"  token: "+b64(mk("github-pat", "b64").Token)+"\n"+
		"  slack: "+b64(mk("slack-bot-token", "b64").Token)+"\n"+
		"  double: "+b64(b64(mk("stripe-access-token", "b64").Token))+"\n"+
		"  tls.key: "+b64(mk("private-key", "b64").Token+"\n")+"\n"))

	// a lockfile, which gitleaks' path allowlists would skip
	r.write("package-lock.json", []byte(`{
  "name": "demo",
  "lockfileVersion": 3,
  "packages": {
    "node_modules/left-pad": {
      "version": "1.3.0",
      "resolved": "git+https://`+mk("github-pat", "lock").Token+`@github.com/o/left-pad.git",
      "_authToken": "`+mk("npm-access-token", "lock").Token+`"
    }
  }
}
`))

	// gitleaks:allow does not open the gate
	r.write("src/allow.js", []byte("const token = \""+mk("github-pat", "allow").Token+"\"; // gitleaks:allow\n"+
		"const aws = \""+mk("aws-access-token", "allow").Token+"\"; // gitleaks:allow\n"))

	// the run's own token, which no rule knows
	own := expandCred(t, secrets.OwnTokenRule, "own{lalnum:12}.{letters:12}", "own-token")
	if spans, _ := gate.Scan(context.Background(), own.Token+"\n"); len(spans) != 0 {
		t.Fatal("the own token is found by a rule: pick another")
	}
	r.creds = append(r.creds, own)
	r.ownToken = own.Token
	r.write("ci/env.sh", []byte("export GH=\""+own.Token+"\"\n"))

	// commit messages: subject and body
	r.commitMsg("rotate " + mk("aws-access-token", "commit").Token + "\n\n" +
		"hook " + mk("slack-webhook-url", "commit").Token + "\n" +
		"token " + mk("github-pat", "commit").Token + "\nend\n")
	return r
}

// packOutputs are the texts one pack run produced.
type packOutputs struct {
	name   string
	pack   string
	record string
	rec    pack.Record
	res    cliResult
}

func readOutputs(t *testing.T, name, outDir string, res cliResult) packOutputs {
	t.Helper()
	if res.code != 0 {
		t.Fatalf("%s: exit %d\nstderr: %s", name, res.code, res.stderr)
	}
	o := packOutputs{name: name, res: res}
	data, err := os.ReadFile(filepath.Join(outDir, "record.json"))
	if err != nil {
		t.Fatal(err)
	}
	o.record = string(data)
	if err := json.Unmarshal(data, &o.rec); err != nil {
		t.Fatalf("%s: record.json: %v", name, err)
	}
	if o.rec.Pack.Path == "-" {
		o.pack = res.stdout
	} else {
		data, err := os.ReadFile(filepath.Join(outDir, o.rec.Pack.Path))
		if err != nil {
			t.Fatal(err)
		}
		o.pack = string(data)
		for _, p := range o.rec.Pack.PartFiles {
			data, err := os.ReadFile(filepath.Join(outDir, p.Path))
			if err != nil {
				t.Fatal(err)
			}
			o.pack += string(data)
		}
	}
	return o
}

var redactionSides = map[string]bool{"new": true, "old": true, "context": true, "commit_message": true, "file_name": true}

// checkOutputs asserts that nothing of the corpus leaks and that the
// record's redactions agree with the pack.
func checkOutputs(t *testing.T, r *corpusRepo, o packOutputs) {
	t.Helper()
	for what, text := range map[string]string{"pack": o.pack, "record.json": o.record, "stdout": o.res.stdout, "stderr": o.res.stderr} {
		for _, c := range r.creds {
			if l := leak(c, text, 12); l != "" {
				t.Errorf("%s: %s holds %s of the %s credential", o.name, what, l, c.Rule)
			}
		}
	}
	found := placeholderRE.FindAllString(o.pack, -1)
	if o.rec.Redactions.Total != len(found) {
		t.Errorf("%s: record.redactions.total = %d, the pack has %d placeholders", o.name, o.rec.Redactions.Total, len(found))
	}
	sum := 0
	for _, n := range o.rec.Redactions.ByRule {
		sum += n
	}
	if sum != o.rec.Redactions.Total {
		t.Errorf("%s: by_rule adds up to %d, total is %d", o.name, sum, o.rec.Redactions.Total)
	}
	for _, it := range o.rec.Redactions.Items {
		if it.Rule == "" || !redactionSides[it.Side] {
			t.Errorf("%s: redaction item %+v: want a rule and a side of new, old, context, commit_message, file_name", o.name, it)
		}
		if !strings.Contains(o.pack, it.Placeholder) {
			t.Errorf("%s: item %+v: placeholder not in the pack", o.name, it)
		}
	}
	// every rule of the corpus reached the pack as a placeholder
	for _, rule := range append(r.rules, secrets.OwnTokenRule) {
		if !strings.Contains(o.pack, "[REDACTED:"+rule+"#") {
			t.Errorf("%s: no placeholder of %s in the pack", o.name, rule)
		}
	}
	sides := map[string]bool{}
	for _, it := range o.rec.Redactions.Items {
		sides[it.Side] = true
	}
	for _, side := range []string{"new", "old", "commit_message", "file_name"} {
		if !sides[side] {
			t.Errorf("%s: no redaction recorded on side %s (sides: %v)", o.name, side, sides)
		}
	}
}

// TestPackCorpus packs the corpus in every format and to stdout.
func TestPackCorpus(t *testing.T) {
	r := buildCorpusRepo(t)
	t.Chdir(r.Dir)
	env := map[string]string{"GITHUB_TOKEN": r.ownToken}
	common := []string{"pack", "HEAD~1..HEAD", "--mode", "full", "--max-tokens", "1000000", "--progress", "never"}
	for _, format := range []string{"markdown", "xml", "json"} {
		t.Run(format, func(t *testing.T) {
			out := t.TempDir()
			res := gitctxRun(env, append(common, "--format", format, "--out", out)...)
			o := readOutputs(t, format, out, res)
			checkOutputs(t, r, o)
			if format == "markdown" {
				for _, want := range []string{
					"\"[REDACTED:github-pat#", "// gitleaks:allow",
					"[REDACTED:" + secrets.OwnTokenRule + "#1]",
				} {
					if !strings.Contains(o.pack, want) {
						t.Errorf("pack has no %q", want)
					}
				}
			}
		})
	}
	t.Run("stdout", func(t *testing.T) {
		out := t.TempDir()
		res := gitctxRun(env, append(common, "-o", "-", "--out", out)...)
		o := readOutputs(t, "stdout", out, res)
		if o.rec.Pack.Path != "-" || o.pack == "" {
			t.Fatalf("pack path %q, %d bytes on stdout", o.rec.Pack.Path, len(o.pack))
		}
		checkOutputs(t, r, o)
	})
}

// TestPackFailOnSecrets: a staged credential blocks with exit 3, naming
// file, line and rule, and nothing of it on stderr. Whether it blocks is a
// commit scanner's verdict, so the base commit's .gitleaks.toml decides
// it as in gitleaks: the corpus repository's (which allows everything)
// lets it through; without it, it blocks. The pack is redacted either way.
func TestPackFailOnSecrets(t *testing.T) {
	cf := loadCreds(t)
	staged := makeCred(t, cf, "github-pat", "staged")
	r := buildCorpusRepo(t)
	t.Chdir(r.Dir)
	r.creds = append(r.creds, staged)
	stage := func() {
		r.write("staged/new.go", []byte("package staged\n\nvar k = \""+staged.Token+"\"\n"))
		r.Git("add", "staged/new.go")
	}
	failOn := func(t *testing.T, wantCode int) {
		t.Helper()
		out := t.TempDir()
		res := gitctxRun(map[string]string{}, "pack", "--staged", "--fail-on-secrets", "--out", out, "--progress", "never")
		if res.code != wantCode {
			t.Fatalf("exit %d, want %d\nstderr: %s", res.code, wantCode, res.stderr)
		}
		if blocked := strings.Contains(res.stderr, "staged/new.go:3: github-pat"); blocked != (wantCode == exitSecrets) {
			t.Errorf("stderr names the credential: %v, want %v:\n%s", blocked, wantCode == exitSecrets, res.stderr)
		}
		for _, c := range r.creds {
			if l := leak(c, res.stderr+res.stdout, 12); l != "" {
				t.Errorf("stderr or stdout holds %s of the %s credential", l, c.Rule)
			}
		}
		data, err := os.ReadFile(filepath.Join(out, "pack.md"))
		if err != nil {
			t.Fatalf("the redacted pack should still be written: %v", err)
		}
		if leak(staged, string(data), 12) != "" {
			t.Error("the pack holds the staged credential")
		}
	}
	t.Run("allowed by the base's .gitleaks.toml", func(t *testing.T) {
		stage()
		failOn(t, 0)
	})
	t.Run("blocked", func(t *testing.T) {
		r.Git("rm", "-q", "--cached", "staged/new.go")
		r.Git("rm", "-q", ".gitleaks.toml")
		r.Git("commit", "-q", "--no-verify", "-m", "no gitleaks config")
		stage()
		failOn(t, exitSecrets)
	})
}

// smallRepo makes a repository of two commits: a README, then files
// (committed with message), for the focused tests below.
func smallRepo(t *testing.T, files map[string][]byte, message string) *testRepo {
	t.Helper()
	r := newTestRepo(t)
	r.write("README.md", []byte("# demo\n"))
	r.commitMsg("initial\n")
	for name, data := range files {
		r.write(name, data)
	}
	r.commitMsg(message)
	return r
}

// packTo runs `gitctx pack HEAD~1..HEAD` in one format and reads what it
// wrote.
func packTo(t *testing.T, format string, env map[string]string, extra ...string) packOutputs {
	t.Helper()
	out := t.TempDir()
	args := append([]string{"pack", "HEAD~1..HEAD", "--mode", "full", "--max-tokens", "1000000", "--progress", "never", "--format", format, "--out", out}, extra...)
	return readOutputs(t, format, out, gitctxRun(env, args...))
}

// noLeak fails the test if any output of a run holds a trace of a
// credential.
func noLeak(t *testing.T, o packOutputs, creds ...cred) {
	t.Helper()
	for what, text := range map[string]string{"pack": o.pack, "record.json": o.record, "stdout": o.res.stdout, "stderr": o.res.stderr} {
		for _, c := range creds {
			if l := leak(c, text, 12); l != "" {
				t.Errorf("%s: %s holds %s of the %s credential", o.name, what, l, c.Rule)
			}
		}
	}
}

// countsAgree fails the test unless the record's redactions are the
// pack's placeholders: as many, and each item's placeholder in the pack.
func countsAgree(t *testing.T, o packOutputs) {
	t.Helper()
	if n := len(placeholderRE.FindAllString(o.pack, -1)); n != o.rec.Redactions.Total {
		t.Errorf("%s: record.redactions.total = %d, the pack has %d placeholders", o.name, o.rec.Redactions.Total, n)
	}
	for _, it := range o.rec.Redactions.Items {
		if !strings.Contains(o.pack, it.Placeholder) {
			t.Errorf("%s: record item %s (%s line %d, %s) is not in the pack", o.name, it.Placeholder, it.Path, it.Line, it.Side)
		}
	}
}

// TestPackCommitSubjectInRecord: a credential in a commit's subject is
// redacted in the pack and must be in record.json (source.commits) too.
func TestPackCommitSubjectInRecord(t *testing.T) {
	cf := loadCreds(t)
	aws := makeCred(t, cf, "aws-access-token", "subject")
	r := smallRepo(t, map[string][]byte{"a.txt": []byte("a\n")}, "deploy with "+aws.Token+"\n")
	t.Chdir(r.Dir)
	o := packTo(t, "markdown", nil)
	noLeak(t, o, aws)
	if len(o.rec.Source.Commits) != 1 || !strings.Contains(o.rec.Source.Commits[0].Subject, "[REDACTED:aws-access-token#") {
		t.Errorf("record source.commits = %+v, want the subject redacted", o.rec.Source.Commits)
	}
}

// TestPackQuotedCredentialEveryFormat: a credential in quotes, the most
// common way code holds one, is redacted in every format. Many gitleaks
// rules need the character after the credential to be a quote, space or
// semicolon; the XML renderer escapes '"' to &quot; and '\r' to &#13;
// before the pack is checked, and those rules then miss.
func TestPackQuotedCredentialEveryFormat(t *testing.T) {
	cf := loadCreds(t)
	var creds []cred
	var code, crlf strings.Builder
	code.WriteString("package app\n\n")
	for _, rule := range []string{"stripe-access-token", "npm-access-token", "gcp-api-key", "jwt", "openai-api-key", "anthropic-api-key", "pulumi-api-token", "github-pat"} {
		c := makeCred(t, cf, rule, "quoted")
		creds = append(creds, c)
		fmt.Fprintf(&code, "const k%d = \"%s\"\n", len(creds), c.Token)
		d := makeCred(t, cf, rule, "crlf-end")
		creds = append(creds, d)
		fmt.Fprintf(&crlf, "k%d=%s\r\n", len(creds), d.Token)
	}
	r := smallRepo(t, map[string][]byte{"app.go": []byte(code.String()), "win.ini": []byte(crlf.String())}, "add keys\n")
	t.Chdir(r.Dir)
	for _, format := range []string{"markdown", "xml", "json"} {
		t.Run(format, func(t *testing.T) {
			o := packTo(t, format, nil)
			noLeak(t, o, creds...)
			countsAgree(t, o)
		})
	}
}

// TestPackTokenInURLUser: a token as the user of a URL (git clone
// https://TOKEN@github.com/...) is redacted once, as its own rule, and
// the record lists the placeholder the pack shows. The placeholder itself
// holds a colon, so gitctx's uri-credentials rule reads
// "https://[REDACTED:github-pat#1]@github.com" as user:password when the
// pack is checked again, and replaces the placeholder.
func TestPackTokenInURLUser(t *testing.T) {
	cf := loadCreds(t)
	pat := makeCred(t, cf, "github-pat", "url-user")
	r := smallRepo(t, map[string][]byte{"clone.sh": []byte("#!/bin/sh\ngit clone https://" + pat.Token + "@github.com/o/r.git\n")}, "clone\n")
	t.Chdir(r.Dir)
	for _, format := range []string{"markdown", "xml", "json"} {
		t.Run(format, func(t *testing.T) {
			o := packTo(t, format, nil)
			noLeak(t, o, pat)
			countsAgree(t, o)
			if !strings.Contains(o.pack, "https://[REDACTED:github-pat#1]@github.com/o/r.git") {
				t.Errorf("the pack does not show the URL with the token's placeholder")
			}
		})
	}
}

// TestPackFileNameRedactionsCounted: a credential in a file name shows in
// the index, the directory tree and the file's heading; the record counts
// every placeholder the pack holds.
func TestPackFileNameRedactionsCounted(t *testing.T) {
	cf := loadCreds(t)
	pat := makeCred(t, cf, "github-pat", "file-name")
	r := smallRepo(t, map[string][]byte{"notes/" + pat.Token + ".md": []byte("# notes\n")}, "notes\n")
	t.Chdir(r.Dir)
	for _, format := range []string{"markdown", "xml", "json"} {
		t.Run(format, func(t *testing.T) {
			o := packTo(t, format, nil)
			noLeak(t, o, pat)
			countsAgree(t, o)
		})
	}
}

// TestPackCommitMessageEndsWithKey: a commit message that ends with a
// private key (git keeps no final newline) is redacted on every line.
func TestPackCommitMessageEndsWithKey(t *testing.T) {
	cf := loadCreds(t)
	key := makeCred(t, cf, "private-key", "commit-message")
	r := smallRepo(t, map[string][]byte{"a.txt": []byte("a\n")}, "add the deploy key\n\n"+key.Token+"\n")
	t.Chdir(r.Dir)
	for _, format := range []string{"markdown", "xml", "json"} {
		t.Run(format, func(t *testing.T) {
			o := packTo(t, format, nil)
			noLeak(t, o, key)
		})
	}
}

// TestPackFailOnSecretsEncodings: --fail-on-secrets blocks a staged
// credential whatever the file's encoding: UTF-16 (which git calls
// binary), CRLF, Windows-1252.
func TestPackFailOnSecretsEncodings(t *testing.T) {
	cf := loadCreds(t)
	for _, tt := range []struct {
		name, file string
		encode     func(string) []byte
	}{
		{"utf-8", "plain.txt", func(s string) []byte { return []byte(s) }},
		{"crlf", "crlf.txt", func(s string) []byte { return []byte(strings.ReplaceAll(s, "\n", "\r\n")) }},
		{"windows-1252", "latin1.txt", func(s string) []byte { return []byte(strings.ReplaceAll(s, "e", "\xe9")) }},
		{"utf-16le", "wide.txt", utf16LE},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pat := makeCred(t, cf, "github-pat", "staged-"+tt.name)
			r := smallRepo(t, map[string][]byte{"a.txt": []byte("a\n")}, "a\n")
			t.Chdir(r.Dir)
			r.write(tt.file, tt.encode("first line\nsecond line\ntoken = "+pat.Token+"\n"))
			r.Git("add", tt.file)
			res := gitctxRun(nil, "pack", "--staged", "--fail-on-secrets", "--out", t.TempDir(), "--progress", "never")
			if res.code != exitSecrets {
				t.Errorf("exit %d, want %d\nstderr: %s", res.code, exitSecrets, res.stderr)
			}
			if want := tt.file + ":3: github-pat"; !strings.Contains(res.stderr, want) {
				t.Errorf("stderr does not name %s:\n%s", want, res.stderr)
			}
			if l := leak(pat, res.stderr+res.stdout, 12); l != "" {
				t.Errorf("stderr holds %s of the credential", l)
			}
		})
	}
}

// TestPackKubernetesSecret: the data of a Kubernetes Secret is redacted
// even under a key no generic rule knows: gitleaks' kubernetes-secret-yaml
// rule is for *.yaml files, and the gate must apply it.
func TestPackKubernetesSecret(t *testing.T) {
	value := expandCred(t, "kubernetes-secret-yaml", "{alnum:20}", "k8s-value")
	b64 := base64.StdEncoding.EncodeToString([]byte(value.Token))
	enc := cred{Rule: value.Rule, Token: b64, Random: make([]bool, len(b64))}
	for i := range enc.Random {
		enc.Random[i] = true
	}
	r := smallRepo(t, map[string][]byte{"k8s/db.yaml": []byte("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  connection: " + b64 + "\n")}, "db\n")
	t.Chdir(r.Dir)
	o := packTo(t, "markdown", nil)
	noLeak(t, o, enc, value)
}
