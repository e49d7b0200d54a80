package secrets

import (
	"strings"
	"testing"
)

// More forms of a credential an audit found reaching a pack whole: HTTP
// Basic credentials, passwords on command lines, .pgpass lines, PuTTY
// keys, passphrases with spaces and Django's insecure keys. A want of ""
// is the input unchanged (see checkRedactions).

// TestBasicAuth: the base64 credentials after Basic in an Authorization
// header, in any case, or opening a quoted string; a word after Basic, a
// stand-in or an expression is left.
func TestBasicAuth(t *testing.T) {
	const red = "[REDACTED:basic-auth#1]"
	checkRedactions(t, []redaction{
		{"Authorization: Basic YWRtaW46cGFzc3dvcmQxMjM=", "Authorization: Basic " + red},
		{"authorization: basic YWRtaW46cGFzc3dvcmQxMjM=\r", "authorization: basic " + red + "\r"},
		{"  -H 'Authorization: Basic dXNlcjpIdW50ZXIyMDI0' \\", "  -H 'Authorization: Basic " + red + "' \\"},
		{`req.Header.Set("Authorization", "Basic c3ZjOlhrMjlzTHE4")`, `req.Header.Set("Authorization", "Basic ` + red + `")`},
		{`headers = {"Authorization": "Basic c3ZjOlhrMjlzTHE4"}`, `headers = {"Authorization": "Basic ` + red + `"}`},
		{"headers['Authorization'] = 'BASIC c3ZjOlhrMjlzTHE4'", "headers['Authorization'] = 'BASIC " + red + "'"},
		{"Proxy-Authorization: Basic c3ZjOlhrMjlzTHE4", "Proxy-Authorization: Basic " + red},
		{`const auth = "Basic c3ZjOlhrMjlzTHE4";`, `const auth = "Basic ` + red + `";`},
		{`wget --header="Authorization: Basic c3ZjOlhrMjlzTHE4" https://x.test/`, `wget --header="Authorization: Basic ` + red + `" https://x.test/`},
		// not a credential
		{"Authorization: Basic <credentials>", ""},
		{"Authorization: Basic base64(user:password)", ""},
		{"Authorization: Basic ${BASIC_AUTH}", ""},
		{`req.Header.Set("Authorization", "Basic "+creds)`, ""},
		{`fmt.Sprintf("Basic %s", enc)`, ""},
		{"The client sends Authorization: Basic credentials encoded in base64.", ""},
		{`title: "Basic Authentication"`, ""},
		{`"Basic configuration"`, ""},
		{"Authorization: Basic xxxxxxxxxxxxxxxx", ""},
		{"WWW-Authenticate: Basic realm=\"api\"", ""},
		{"# Basic usage", ""},
	})
}

// TestPasswordFlags: a flag whose name ends in password, pass, secret,
// token or api-key, and a value that looks random; a variable, a stand-in,
// another flag, a word or a path is left, and so is a flag that takes no
// value.
func TestPasswordFlags(t *testing.T) {
	const red = "[REDACTED:password-flag#1]"
	checkRedactions(t, []redaction{
		{"app --db-password 3K1x9D3q", "app --db-password " + red},
		{"app --password 3K1x9D3q --verbose", "app --password " + red + " --verbose"},
		{"mysql -h db --password=Blu3x9Kq2 app", "mysql -h db --password=" + red + " app"},
		{"./run --api-key=Zt83kQm2Lx0p", "./run --api-key=" + red},
		{`  --token "Xk29sLq8Zt" \`, `  --token "` + red + `" \`},
		{"vault login --client-secret 'A9x!k2Lq8z'", "vault login --client-secret '" + red + "'"},
		{`args: "--github_token=Qm2Lx0pZt83k"`, `args: "--github_token=` + red + `"`},
		{"Connect-Thing -AccessToken Qm2Lx0pZt83k", "Connect-Thing -AccessToken " + red},
		{"java -jar app.jar -password s3cr3tpw", "java -jar app.jar -password " + red},
		{"tool --dbpassword s3cr3tpw", "tool --dbpassword " + red},
		{"openssl enc -aes256 -pass pass:Xk29sLq8 -in f", "openssl enc -aes256 -pass " + red + " -in f"},
		{`sh -c "deploy --token Qm2Lx0pZt83k"`, `sh -c "deploy --token ` + red + `"`},
		// not a password
		{`app --password "$DB_PASSWORD"`, ""},
		{"app --password ${DB_PASSWORD}", ""},
		{`app --password "$(cat /run/secrets/db)"`, ""},
		{"app --password <password>", ""},
		{"app --password - < pw.txt", ""},
		{"app --password --verbose", ""},
		{"docker login --password-stdin", ""},
		{"gh auth login --with-token < token.txt", ""},
		{"  --token TOKEN        the API token", ""},
		{"  --api-key string     the key", ""},
		{"--password=PASSWORD", ""},
		{"--token=ghp_xxxxxxxxxxxx", ""},
		{"--token=your-token-here", ""},
		{"app --password /run/secrets/db_pass", ""},
		{"app --token @token.txt", ""},
		{"app --token %GH_TOKEN%", ""},
		{"app --token {{ .Token }}", ""},
		{"app --password myPassword", ""},
		{"--no-password db01", ""},
		{"ssh-add --ask-password host01", ""},
		{"--bypass Xk29sLq8", ""},
		{"--max-tokens 100000", ""},
		{"--token-file tok3n.txt", ""},
		{`parser.add_argument("--token", default=None)`, ""},
		{`cmd.SetArgs([]string{"--token", tok})`, ""},
		{`args := "--token=" + tok`, ""},
		{"use --token to pass a token", ""},
		{"openssl enc -pass env:SECRET -in f", ""},
		{"openssl enc -pass file:pw.txt -in f", ""},
		{"--secret ********", ""},
		{"7za a -mhe=on -ppassword test.7z dir", ""},
		{"app --token Xk29sLq8.json", ""},
		{"gcloud builds triggers update t --secret=projects/my-project/secrets/my-secret/versions/2", ""},
		{`  --page-token="ala9glealanal908"`, ""},
		{"aws s3api list-objects --next-token eyJ2IjoxfQ2", ""},
	})
}

// TestPasswordOptions: a tool's short flag that is a password (mysql's
// attached -p, sshpass -p, a registry login's -p, mongo's -p, redis-cli's
// -a, sqlcmd's -P); elsewhere -p is a port, parents or a preserve.
func TestPasswordOptions(t *testing.T) {
	const red = "[REDACTED:password-option#1]"
	checkRedactions(t, []redaction{
		{"mysql -uroot -pBlu3x9Kq2", "mysql -uroot -p" + red},
		{"mysql -h db -P 3306 -u root -pdbpass1 app < dump.sql", "mysql -h db -P 3306 -u root -p" + red + " app < dump.sql"},
		{`mysqldump -u app -p"Blu3x9Kq2" app > app.sql`, `mysqldump -u app -p"` + red + `" app > app.sql`},
		{"mysqladmin -uroot -p'Blu3 x9' status", ""}, // a space: not one word
		{`sshpass -p "Xk29sLq8" ssh deploy@host`, `sshpass -p "` + red + `" ssh deploy@host`},
		{"sshpass -pXk29sLq8 scp f host:", "sshpass -p" + red + " scp f host:"},
		{"docker login -u bot -p Xk29sLq8Zt registry.example.com", "docker login -u bot -p " + red + " registry.example.com"},
		{"podman login -u bot -p Xk29sLq8Zt quay.io", "podman login -u bot -p " + red + " quay.io"},
		{"oc login -u admin -p Xk29sLq8 https://api:6443", "oc login -u admin -p " + red + " https://api:6443"},
		{"mongo admin -u root -p Xk29sLq8 --authenticationDatabase admin", "mongo admin -u root -p " + red + " --authenticationDatabase admin"},
		{"mongosh --host db -u app -p 'Xk29sLq8'", "mongosh --host db -u app -p '" + red + "'"},
		{"redis-cli -h cache -a Xk29sLq8 ping", "redis-cli -h cache -a " + red + " ping"},
		{"sqlcmd -S localhost -U sa -P 'Str0ng!Passw0rd'", "sqlcmd -S localhost -U sa -P '" + red + "'"},
		// not a password
		{"mysql -u root -p app", ""},
		{"mysql -u root -p -e 'select 1'", ""},
		{`mysql -uroot -p"$MYSQL_ROOT_PASSWORD"`, ""},
		{"mysql -uroot -p${MYSQL_PWD}", ""},
		{"mysql -uroot -pPASSWORD", ""},
		{"mysql -uroot -ppassword", ""},
		{"mysql -h db -P 3306 app", ""},
		{"mkdir -p /var/lib/mysql", ""},
		{"chown mysql:mysql /data && cp -pr src dst", ""},
		{"docker run -p 8080:80 nginx", ""},
		{"docker login -u bot -p $TOKEN", ""},
		{"docker login -u bot --password-stdin", ""},
		{"ssh -p 2222 deploy@host", ""},
		{"sshpass -f pw.txt ssh host", ""},
		{`sshpass -p "$PASS" ssh host`, ""},
		{"redis-cli -h cache -a $REDIS_PASSWORD", ""},
		{"psql -h db -p 5432 -U app", ""},
		{"mongod --port 27017 -p 27017", ""},
		{"sqlcmd -S localhost -U sa -P $SA_PASSWORD", ""},
		{"git push -u origin main -p", ""},
		{"tar -pxzf mysql.tgz", ""},
	})
}

// TestPgpassLines: a .pgpass line's password, where the port is a number
// or *, and the password looks random; a line in an echo too.
func TestPgpassLines(t *testing.T) {
	const red = "[REDACTED:pgpass-password#1]"
	checkRedactions(t, []redaction{
		{"db.internal:5432:app:appuser:nWc8x2Kq9Ib", "db.internal:5432:app:appuser:" + red},
		{"*:*:*:postgres:Xk29sLq8Zt", "*:*:*:postgres:" + red},
		{`echo "db:6432:app:svc:nWc8x2Kq9Ib" >> ~/.pgpass`, `echo "db:6432:app:svc:` + red + `" >> ~/.pgpass`},
		{"localhost:5433:*:app:Pg2024secret", "localhost:5433:*:app:" + red},
		// not a password
		{"hostname:port:database:username:password", ""},
		{"localhost:5432:mydb:myuser:mypassword", ""},
		{"*:*:*:postgres:postgres", ""},
		{"db:5432:app:app:${PGPASSWORD}", ""},
		{"db:5432:app:app:CHANGEME", ""},
		{"fe80::1:5432:db:user:Xk29sLq8Zt", ""},
		{"root:x:0:0:root:/root:/bin/bash", ""},
		{"a:1:b:c:abcdefgh", ""},
		{"00:1a:2b:3c:4d:5e", ""},
		{"12:30:45:123:Ab12cd34ef", ""}, // no pgpass word, no known port, no *
	})
}

// puttyKey is a PuTTY private key file, its private lines and MAC made
// from a label.
func puttyKey(t *testing.T, label string) (key string, private []string, mac string) {
	t.Helper()
	for i := range 3 {
		private = append(private, token(t, "{b64:64}", label+" private "+string(rune('a'+i))))
	}
	private = append(private, token(t, "{b64:20}", label+" private end")+"==")
	mac = token(t, "{hex:64}", label+" mac")
	key = "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 2\n" +
		"AAAAC3NzaC1lZDI1NTE5AAAAIDv2Qk0pFQ3Rt3m7H1u7u9mN4bXrYw6Wk0hQyV5K\nq9Zp\n" +
		"Private-Lines: " + string(rune('0'+len(private))) + "\n" + strings.Join(private, "\n") + "\nPrivate-MAC: " + mac
	return key, private, mac
}

// TestPuttyPrivateKey: a PuTTY key's private lines and MAC are replaced,
// line by line, its header and public lines kept; the key blocks a commit.
func TestPuttyPrivateKey(t *testing.T) {
	key, private, mac := puttyKey(t, "putty")
	g := newGate(t, Options{})
	for _, text := range []string{key + "\n", key, strings.ReplaceAll(key, "\n", "\r\n") + "\r\n", "keys:\n  ci: |\n" + indent(key, "    ") + "\n"} {
		out, hits := redactAll(t, g, text)
		for _, secret := range append(private, mac) {
			if strings.Contains(out, secret) {
				t.Errorf("%q survives in\n%s", secret[:12], out)
			}
		}
		for _, kept := range []string{"PuTTY-User-Key-File-3: ssh-ed25519", "Private-Lines: 4", "AAAAC3NzaC1lZDI1NTE5"} {
			if !strings.Contains(out, kept) {
				t.Errorf("%q is gone from\n%s", kept, out)
			}
		}
		if strings.Count(out, "\n") != strings.Count(text, "\n") {
			t.Errorf("line count changed:\n%s", out)
		}
		if got := len(hitLines(hits, "putty-private-key")); got != len(private)+1 {
			t.Errorf("%d putty-private-key hits, want %d (%+v)", got, len(private)+1, hits)
		}
	}
	for _, prefix := range []string{"+", "-"} { // a diff's lines, with their layout byte kept
		text := indent(key, prefix) + "\n"
		red, _, err := g.RedactAll(t.Context(), text, 1)
		if err != nil {
			t.Fatal(err)
		}
		out := red.String()
		if strings.Contains(out, private[0][1:]) || strings.Contains(out, mac) {
			t.Errorf("a key in a diff survives:\n%s", out)
		}
		if strings.Count(out, "\n"+prefix) != strings.Count(text, "\n"+prefix) {
			t.Errorf("a diff line lost its %s:\n%s", prefix, out)
		}
	}
	// a key replaced, as a diff shows it: the old lines and MAC, then the new
	newKey, newPrivate, newMAC := puttyKey(t, "putty new")
	_, after, _ := strings.Cut(newKey, "Private-Lines: 4\n")
	diff := " Private-Lines: 4\n" + indent(strings.Join(append(private, "Private-MAC: "+mac), "\n"), "-") + "\n" + indent(after, "+") + "\n"
	red, _, err := g.RedactAll(t.Context(), diff, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range append(append(private, mac), append(newPrivate, newMAC)...) {
		if strings.Contains(red.String(), secret[1:]) {
			t.Errorf("a replaced key survives in its diff:\n%s", red)
		}
	}
	escaped := `const k = "` + strings.ReplaceAll(key, "\n", `\n`) + `\n"`
	if out, _ := redactAll(t, g, escaped+"\n"); strings.Contains(out, private[0]) || strings.Contains(out, mac) {
		t.Errorf("an escaped key survives: %s", out)
	}
	if hits, err := g.BlockingHits(t.Context(), "id.ppk", key+"\n"); err != nil || len(hitLines(hits, "putty-private-key")) == 0 {
		t.Errorf("BlockingHits = %+v, %v; want putty-private-key", hits, err)
	}
	checkRedactions(t, []redaction{
		{"Private-Lines: 14", ""},
		{"The Private-Lines: header counts the lines that follow.", ""},
		// hunk headers' sections, joined: no MAC
		{"Comment: ci\nPrivate-Lines: 3\nAAAAC3NzaC1lZDI1NTE5AAAAIDv2Qk0pFQ3Rt3m7H1u7u9mN4bXrYw6Wk0hQyV5K\nPublic-Lines: 1", ""},
	})
}

// TestPassphrases: a quoted password of three or more words each mixing
// cases or digits; a sentence or a few plain words is left.
func TestPassphrases(t *testing.T) {
	const red = "[REDACTED:password-assignment#1]"
	checkRedactions(t, []redaction{
		{`password = "1pEx Qrn7 L84k"`, `password = "` + red + `"`},
		{"DB_PASSWORD: 'x9Kq 2LmZ pQ7w Tz3e'", "DB_PASSWORD: '" + red + "'"},
		{`"passphrase": "Vr4 tK9q Lm2x",`, `"passphrase": "` + red + `",`},
		// not a password
		{`password = "Enter your password"`, ""},
		{`password = "Use 8 or more characters"`, ""},
		{`password: "Password must be 12 chars"`, ""},
		{`pass_label = "Log In Now 2"`, ""},
		{`password = "Ab1 Cd2 Ef3"`, ""}, // 11 characters
		{`password = "x9kq 2lmz pq7w"`, ""},
		{`password = "{{ .Values.pw }} x"`, ""},
	})
}

// TestDjangoInsecureKeys: a startproject key is redacted whole, with the
// characters gitleaks' generic rule stops at.
func TestDjangoInsecureKeys(t *testing.T) {
	const key = "django-insecure-x9#k2!m@q8z$w^p3&r*t(v-b_n=c+y)h4j5l6d7f8g9s0a1e2u"
	const red = "[REDACTED:django-insecure-key#1]"
	checkRedactions(t, []redaction{
		{"SECRET_KEY = '" + key[:66] + "'", "SECRET_KEY = '" + red + "'"},
		{`SECRET_KEY = "` + key[:60] + `"`, `SECRET_KEY = "` + red + `"`},
		{"DJANGO_SECRET_KEY=" + key[:66], "DJANGO_SECRET_KEY=" + red},
		// not a key
		{"SECRET_KEY = 'django-insecure-change-me'", ""},
		{"# keys that start with django-insecure- are for development only", ""},
	})
}

// TestMoreFormsBlocking: the new rules redact and never block, but for a
// PuTTY key (see TestPuttyPrivateKey).
func TestMoreFormsBlocking(t *testing.T) {
	g := newGate(t, Options{})
	for _, text := range []string{
		"Authorization: Basic YWRtaW46cGFzc3dvcmQxMjM=\n",
		"app --db-password 3K1x9D3q\n",
		"mysql -uroot -pBlu3x9Kq2\n",
		"db.internal:5432:app:appuser:nWc8x2Kq9Ib\n",
		`password = "1pEx Qrn7 L84k"` + "\n",
		"SECRET_KEY = 'django-insecure-x9#k2!m@q8z$w^p3&r*t(v-b_n=c+y)h4j5l6d7f8g9s0a1e2u'\n",
	} {
		if hits, err := g.BlockingHits(t.Context(), "x", text); err != nil || len(hits) != 0 {
			t.Errorf("BlockingHits(%q) = %+v, %v; want nothing", text, hits, err)
		}
	}
}
