package secrets

import (
	"strings"
	"testing"
)

// The forms of a credential an audit found reaching a pack whole, each
// with what must stay as it is beside it. A want of "" is the input
// unchanged.

// redaction is one line and what it is redacted to.
type redaction struct{ in, want string }

// checkRedactions redacts each line with a gate of its own (so that every
// placeholder is #1) and compares.
func checkRedactions(t *testing.T, cases []redaction) {
	t.Helper()
	for _, tt := range cases {
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

// TestPasswordArgumentsAndSubscripts: a quoted upper-case name of a
// password passed first to a function with a quoted value (WordPress'
// define, Laravel's env), a quoted subscript given a value (PHP, Python),
// and Pwd= in an ODBC or SQL Server connection string.
func TestPasswordArgumentsAndSubscripts(t *testing.T) {
	checkRedactions(t, []redaction{
		{"define( 'DB_PASSWORD', 'Kes7f2Q9a291' );", "define( 'DB_PASSWORD', '[REDACTED:password-assignment#1]' );"},
		{`define("AUTH_SECRET", "x9Fq2LmZ");`, `define("AUTH_SECRET", "[REDACTED:password-assignment#1]");`},
		{"$p = getenv('SMTP_PASS', 'mail2024');", "$p = getenv('SMTP_PASS', '[REDACTED:password-assignment#1]');"},
		{"'password' => env('DB_PWD', 'Pw9xk2Lq'),", "'password' => env('DB_PWD', '[REDACTED:password-assignment#1]'),"},
		{`os.getenv("PGPASSWORD", "polar9")`, `os.getenv("PGPASSWORD", "[REDACTED:password-assignment#1]")`},
		{"$db['default']['password'] = 'Pin9xQ2w7!';", "$db['default']['password'] = '[REDACTED:password-assignment#1]';"},
		{"$config['smtp_pass'] = 'm4il-Relay';", "$config['smtp_pass'] = '[REDACTED:password-assignment#1]';"},
		{`settings["password"] = "hunter22"`, `settings["password"] = "[REDACTED:password-assignment#1]"`},
		{`os.environ["DB_PASSWORD"] = "Forge123!"`, `os.environ["DB_PASSWORD"] = "[REDACTED:password-assignment#1]"`},
		{`"Server=x;Uid=sa;Pwd=XBE8kq2LCI6x;"`, `"Server=x;Uid=sa;Pwd=[REDACTED:password-assignment#1];"`},
		{"Driver={ODBC Driver 18};Server=db;UID=sa;PWD=XBE8kq2LCI6x", "Driver={ODBC Driver 18};Server=db;UID=sa;PWD=[REDACTED:password-assignment#1]"},
		{"https://x.test/login?user=u&pwd=hunter2", "https://x.test/login?user=u&pwd=[REDACTED:password-assignment#1]"},
		// not a password
		{"$config['smtp_pass'] = 'xxxxxxx';", ""}, // one repeated character: gitleaks' placeholder
		{"__( 'Password', 'woocommerce' )", ""},
		{"_e('Lost your password?', 'my-plugin');", ""},
		{"define('CACHE_BYPASS', 'enabled');", ""},
		{"pass = console_attr.Colorizer('PASS', 'green')", ""},
		{"('OAUTH2_CLIENT_SECRET', 'oauth2ClientSecret'),", ""},
		{"define('PASSWORD_RESET_URL', 'account/reset');", ""},
		{"define('DB_PASSWORD', getenv('DB_PASSWORD'));", ""},
		{"env('DB_PASSWORD', '')", ""},
		{"env('JWT_SECRET', 'secret')", ""},
		{"t.Run('db password', 'x1y2z3')", ""},
		{"$errors['password'] = 'required';", ""},
		{"if ($_POST['password'] === $row['password']) {", ""},
		{"$form['password'] = $this->input->post('password');", ""},
		{`cd "$PWD"`, ""},
		{`cmd.Env = append(os.Environ(), "PWD="+dir)`, ""},
		{`echo "PWD=$PWD"`, ""},
		{`echo "PWD=$(pwd)"`, ""},
		{`env: ["PWD=/workspace"]`, ""},
		{"PWD=/workspace make test", ""},
	})
}

// TestURLCredentialsEmptyUser: a URL whose user information is a password
// alone (redis://:pw@host), and a proxy setting's user:password@host:port
// without a scheme.
func TestURLCredentialsEmptyUser(t *testing.T) {
	checkRedactions(t, []redaction{
		{"REDIS_URL=redis://:bRR8x2Kvjje@cache.internal:6379/0", "REDIS_URL=[REDACTED:uri-credentials#1]/0"},
		{`url: "rediss://:x8Kvq2Jje9@redis.example.com:6380"`, `url: "[REDACTED:uri-credentials#1]"`},
		{"amqp://:Guest2024x@mq:5672/", "[REDACTED:uri-credentials#1]/"},
		{"proxy = deploy:Pr0xyPa55@proxy.corp.example.com:3128", "proxy = deploy:[REDACTED:password-assignment#1]@proxy.corp.example.com:3128"},
		{"HTTPS_PROXY=svc:Xk29fLq@10.0.0.5:8080", "HTTPS_PROXY=svc:[REDACTED:password-assignment#1]@10.0.0.5:8080"},
		{`  https_proxy: "svc:Xk29fLq@proxy:8080"`, `  https_proxy: "svc:[REDACTED:password-assignment#1]@proxy:8080"`},
		{"postgresql+psycopg://postgres:postgres@localhost/db", "[REDACTED:uri-credentials#1]/db"},
		{"https://deploy:s3cr%40t2024@git.example.com/x", "[REDACTED:uri-credentials#2]/x"}, // the gate numbers per run
		// not a credential
		{`SQLALCHEMY_DATABASE_URL = "postgresql://user:password@postgresserver/db"`, ""},
		{"mysql://root:secret@localhost/app", ""},
		{"amqp://guest:${RABBIT_PASS}@mq:5672/", ""},
		{`assertEquals("http://%25:%25@host/%25?%25#%25", url.toString());`, ""},
		{`String urlString = "http://%6d%6D:%6d%6D@host/%6d%6D?%6d%6D#%6d%6D";`, ""},
		{`assertEquals("http://user:%3D%5B%5D%3A%3B%22~%7C%3F%23%40%5E%2F$%25*@host/", url.toString());`, ""},
		{"sqlite://:memory:", ""},
		{"  cvs://:pserver:anoncvs@sources.redhat.com:/cvs/src", ""},
		{"open http://:8080/ in a browser", ""},
		{"git clone git@github.com:org/repo.git", ""},
		{"ssh://git@github.com:22/org/repo", ""},
		{"remote = git@github.com:org/repo.git", ""},
		{"proxy = proxy.corp.example.com:3128", ""},
		{"proxy: admin@corp.example.com", ""},
		{"proxy = user@proxy.corp:3128", ""},
		{"proxy_pass http://backend:8080;", ""},
		{"Author: Jane Doe <jane@example.com>", ""},
		{"mail to: ops:team@example.com:25", ""},
		{"noproxy: localhost:8080,ci@runner", ""},
	})
}

// TestNetrcPasswords: netrc's "password VALUE", without = or :, where the
// line says it is netrc (machine … login … password) or is nothing but
// "password" and a value that looks random; prose is left.
func TestNetrcPasswords(t *testing.T) {
	checkRedactions(t, []redaction{
		{`RUN echo "machine git.corp.example.com login deploy password LIp3x9KMni" > ~/.netrc`,
			`RUN echo "machine git.corp.example.com login deploy password [REDACTED:password-setting#1]" > ~/.netrc`},
		{"machine git.corp.example.com login deploy password hunter22", "machine git.corp.example.com login deploy password [REDACTED:password-setting#1]"},
		{"default login anonymous password guest1234", "default login anonymous password [REDACTED:password-setting#1]"},
		{`printf "machine git.example.com\nlogin ci\npassword Zq81nv0aqJd\n" > ~/.netrc`, `printf "machine git.example.com\nlogin ci\npassword [REDACTED:password-setting#1]\n" > ~/.netrc`},
		{"  password NfK2x8qboHN", "  password [REDACTED:password-setting#1]"},
		{"password Tr0ub4dor3xQ", "password [REDACTED:password-setting#1]"},
		{"\tpassword\tNfK2x8qboHN  ", "\tpassword\t[REDACTED:password-setting#1]  "},
		// not a password
		{`printf 'machine %s login %s password %s\n' "$H" "$U" "$P" > ~/.netrc`, ""},
		{`RUN echo "machine github.com login x-access-token password ${GH_TOKEN}" > ~/.netrc`, ""},
		{"machine $HOST login $USER password $TOKEN", ""},
		{"machine example.com login me password <token>", ""},
		{"the password is stored in the vault", ""},
		{"  password string", ""},
		{"\tpassword [32]byte", ""},
		{"\tpassword complex128", ""},
		{"  password VARCHAR2", ""},
		{"password hashing", ""},
		{"password Reset", ""},
		{"# password protected", ""},
		{"log in with your password manager", ""},
		{"the machine login page has a password field", ""},
		{"password NfK2x8qboHN and more", ""},
		{"  password HelloWorld", ""},
	})
}

// TestPasswordsLikePaths: a quoted password that starts with / or ./ but
// is one random-looking segment (mixed case and digits, no extension) is a
// password; a path is not.
func TestPasswordsLikePaths(t *testing.T) {
	checkRedactions(t, []redaction{
		{`ADMIN_PASSWORD="/Cqq8x2cQ0"`, `ADMIN_PASSWORD="[REDACTED:password-assignment#1]"`},
		{`password = "./VGv7xnwV"`, `password = "[REDACTED:password-assignment#1]"`},
		{"password: /Xk9vQ2mLp", "password: [REDACTED:password-setting#1]"},
		{"export PGPASSWORD=~/Zq8xW2v", "export PGPASSWORD=[REDACTED:password-setting#1]"},
		// paths
		{`password_file = "/etc/secret/db.pass"`, ""},
		{`password = "./config/pw.txt"`, ""},
		{`PASSWORD_FILE="/run/secrets/db"`, ""},
		{`password = "/tmp"`, ""},
		{"password: ~/.pgpass", ""},
		{`password = "./Secret.txt"`, ""},
		{`password = "/Key2.pem"`, ""},
		{`password = "/etc/Conf2/pw"`, ""},
		{"PASSWORD_DIR=/Users/Ann2", ""},
	})
}

// TestAWSSecretAccessKeys: an AWS secret access key is redacted whatever
// its first character (the generic rule's value must start with a letter
// or digit), by a rule of its own that leaves its name readable.
func TestAWSSecretAccessKeys(t *testing.T) {
	plus := "+" + token(t, "{b64:39}", "aws plus")
	slash := "/" + token(t, "{b64:39}", "aws slash")
	alnum := "Q" + token(t, "{b64:39}", "aws alnum")
	const red = "[REDACTED:aws-secret-access-key#1]"
	checkRedactions(t, []redaction{
		{"aws_secret_access_key = " + plus, "aws_secret_access_key = " + red},
		{"AWS_SECRET_ACCESS_KEY=" + slash, "AWS_SECRET_ACCESS_KEY=" + red},
		{`export AWS_SECRET_ACCESS_KEY="` + slash + `"`, `export AWS_SECRET_ACCESS_KEY="` + red + `"`},
		{`  "SecretAccessKey": "` + plus + `",`, `  "SecretAccessKey": "` + red + `",`},
		{"  secret_key = '" + plus + "'", "  secret_key = '" + red + "'"},
		{"awsSecretAccessKey: " + alnum, "awsSecretAccessKey: " + red},
		{"aws_secret_access_key = " + alnum, "aws_secret_access_key = " + red},
		// not a key
		{"aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}", ""},
		{"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""},
		{`secret_key_file = "/run/secrets/aws_secret_access_key"`, ""},
		{"secret_key = " + strings.Repeat("A", 40), ""},
		{"aws_secret_access_key = " + plus + "x", ""}, // 41 characters: not AWS's
	})
}

// TestNewFormsBlocking: the password rules' new forms redact and never
// block; an AWS secret access key blocks, as a token does.
func TestNewFormsBlocking(t *testing.T) {
	g := newGate(t, Options{})
	for _, text := range []string{
		"define( 'DB_PASSWORD', 'Kes7f2Q9a291' );\n",
		"  password NfK2x8qboHN\n",
		"proxy = deploy:Pr0xyPa55@proxy.corp.example.com:3128\n",
	} {
		if hits, err := g.BlockingHits(t.Context(), "x", text); err != nil || len(hits) != 0 {
			t.Errorf("BlockingHits(%q) = %+v, %v; want nothing", text, hits, err)
		}
	}
	text := "aws_secret_access_key = +" + token(t, "{b64:39}", "aws blocks") + "\n"
	hits, err := g.BlockingHits(t.Context(), "x", text)
	if err != nil || len(hits) != 1 || hits[0].Rule != "aws-secret-access-key" {
		t.Errorf("BlockingHits = %+v, %v; want one aws-secret-access-key", hits, err)
	}
}

// TestPasswordChecksNewForms: the password rules' check says a text with
// a new form may hold a match, and their regions find what the rule finds
// in the whole text.
func TestPasswordChecksNewForms(t *testing.T) {
	for _, text := range []string{
		"define( 'DB_PASSWORD', 'Kes7f2Q9a291' );",
		"x\ndefine(\"AUTH_SECRET\", \"x9Fq2LmZ\");\ny",
		"env('DB_PWD', 'Pw9xk2Lq')",
		"$db['default']['password'] = 'Pin9xQ2w7!';",
		`"Server=x;Uid=sa;Pwd=XBE8kq2LCI6x;"`,
		"a\nproxy = deploy:Pr0xyPa55@proxy.corp.example.com:3128\nb",
		"HTTPS_PROXY=svc:Xk29fLq@10.0.0.5:8080",
		`RUN echo "machine h.example.com login deploy password LIp3x9KMni" > ~/.netrc`,
		"machine h login u\n  password NfK2x8qboHN\r\n",
		`printf "machine git.example.com\nlogin ci\npassword Zq81nv0aqJd\n"`,
		"a\npassword = \"1pEx Qrn7 L84k\"\nb",
		"x\n  DB_PASSWORD: 'x9Kq 2LmZ pQ7w Tz3e'\r\n",
	} {
		for _, id := range []string{"password-assignment", "password-setting"} {
			c := costlyByID(t, id)
			re := defaultRule(t, id)
			if re.MatchString(text) && !c.mayHold(text) {
				t.Errorf("%s matches %q, its check says it cannot", id, text)
			}
			if err := sameInRegions(re, c, text); err != nil {
				t.Error(err)
			}
		}
	}
	for _, text := range []string{"the password is stored in the vault\n", "secrets.New(opts)\n", "proxy := httputil.NewSingleHostReverseProxy(u)\n", "cd $PWD\n"} {
		if mayHoldPass(text) {
			t.Errorf("mayHoldPass(%q) = true, want false", text)
		}
	}
}
