package secrets

import (
	"context"
	"testing"
)

// TestPasswordRules: a value given to a name that says it is a password is
// redacted, the value alone, where gitleaks' rules miss it (short, little
// entropy, a character outside the generic rule's value class); what is
// plainly not a password is left as it is.
func TestPasswordRules(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		// quoted literals: set, passed, compared
		{"let password = 'Summer2024!';", "let password = '[REDACTED:password-assignment#1]';"},
		{"'password' => 'hunter42',", "'password' => '[REDACTED:password-assignment#1]',"},
		{`"db_password": "pa$$w0rd&x",`, `"db_password": "[REDACTED:password-assignment#1]",`},
		{`if conf.Password != "supersecret" {`, `if conf.Password != "[REDACTED:password-assignment#1]" {`},
		{`auth = BasicAuth(username="u", password="hunter2!")`, `auth = BasicAuth(username="u", password="[REDACTED:password-assignment#1]")`},
		{"create login u with password = 'Passw0rd'", "create login u with password = '[REDACTED:password-assignment#1]'"},
		{`smtp_pass: "abcd1234"`, `smtp_pass: "[REDACTED:password-assignment#1]"`},
		{"pass = `hunter22`", "pass = `[REDACTED:password-assignment#1]`"},
		{`passphrase := "x<y>z&w"`, `passphrase := "[REDACTED:password-assignment#1]"`},
		// query and connection strings
		{`"Server=.;Database=app;User Id=sa;Password=Forge123!;"`, `"Server=.;Database=app;User Id=sa;Password=[REDACTED:password-assignment#1];"`},
		{"jdbc:mysql://db/app?user=u&password=hunter2&ssl=1", "jdbc:mysql://db/app?user=u&password=[REDACTED:password-assignment#1]&ssl=1"},
		{"curl 'https://x.test/login?pass=hunter2'", "curl 'https://x.test/login?pass=[REDACTED:password-assignment#1]'"},
		{"https://x.test/?password=${PASSWORD}&a=1", ""},
		{"?password=<password>", ""},
		// XML elements
		{"<password>Forge1!</password>", "<password>[REDACTED:password-assignment#1]</password>"},
		{"  <db:Password>hunter2</db:Password>", "  <db:Password>[REDACTED:password-assignment#1]</db:Password>"},
		{"<keyStorePassword>hunter2</keyStorePassword>", "<keyStorePassword>[REDACTED:password-assignment#1]</keyStorePassword>"},
		{"<passwordPolicy>strict</passwordPolicy>", ""},
		{`password = "${DB_PASSWORD:Forge1!}"`, `password = "[REDACTED:password-assignment#1]"`}, // a default
		{`password = "${db.password}"`, ""},
		{"<password>${env.PW}</password>", ""},
		// unquoted settings that end their line
		{"  POSTGRES_PASSWORD: polar", "  POSTGRES_PASSWORD: [REDACTED:password-setting#1]"},
		{"export PGPASSWORD=polar9", "export PGPASSWORD=[REDACTED:password-setting#1]"},
		{"ENV DB_PASS=hunter2 # for tests", "ENV DB_PASS=[REDACTED:password-setting#1] # for tests"},
		{"db.password=s3cr3t", "db.password=[REDACTED:password-setting#1]"},
		{"password: Forge123!", "password: [REDACTED:password-setting#1]"},
		// plainly not a password
		{"password: SecretStr", ""},
		{"password: string;", ""},
		{"    password: Optional[str] = None", ""},
		{"password = user.password", ""},
		{"self.password_hash = password_hash,", ""},
		{"const PASSWORD_RESET = 'passwords.reset';", ""},
		{`"pbkdf2-password": "1.2.1",`, ""},
		{"parse-passwd: 1.0.0", ""},
		{`password = "${DB_PASSWORD}"`, ""},
		{`password: "{{ .Values.password }}"`, ""},
		{`password: "example"`, ""},
		{`"password": "string",`, ""}, // an OpenAPI example
		{"password_file: /run/secrets/db", ""},
		{"password = getPassword()", ""},
		{`password = "abc"`, ""},
		{`passenger: "Jane Doe"`, ""},
		{`bypass: "abcd"`, ""},
		{"COMPASS_HOME=/opt/compass", ""},
		{"compass_dir = 'assets'", ""},
		{"        pass", ""},
		{"expect ? 'pass' : 'fail'", ""},
		{"- password: the user's password", ""},
	} {
		out, hits := redactAll(t, newGate(t, Options{}), tt.in+"\n")
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if out != want+"\n" {
			t.Errorf("%q\n got %q\nwant %q (hits %+v)", tt.in, out, want+"\n", hits)
		}
	}
}

// TestPasswordRulesNeverBlock: the password rules redact, and leave the
// verdict on a commit to gitleaks' rules: a password literal does not
// block; a token in the same place does, by its own rule.
func TestPasswordRulesNeverBlock(t *testing.T) {
	g := newGate(t, Options{})
	hits, err := g.BlockingHits(context.Background(), "app.js", "let password = 'Summer2024!';\n")
	if err != nil || len(hits) != 0 {
		t.Errorf("BlockingHits = %+v, %v; want nothing", hits, err)
	}
	pat := fake(t, "github-pat", "password")
	hits, err = g.BlockingHits(context.Background(), "app.js", "let password = '"+pat.Token+"';\n")
	if err != nil || len(hits) != 1 || hits[0].Rule != "github-pat" {
		t.Errorf("BlockingHits = %+v, %v; want one github-pat", hits, err)
	}
}
