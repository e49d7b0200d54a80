package secrets

// extraRules are gitctx's additions to gitleaks' default rules, for what
// those cannot see.
//
// uri-credentials: a password in the user information of a URL
// (postgres://app:s3cret@db, redis://:s3cret@cache), which no default rule
// covers. The whole URL is the match, so the whole URL is replaced.
// Brackets, which a URL's user information cannot hold unencoded, are
// left out so that a placeholder never looks like a password. Without a
// user, the password holds no colon: cvs://:pserver:anoncvs@host is a
// CVS root, not a password. A password that is plainly none
// (postgresql://user:password@db, see notAPassword) is left as it is, and
// so is one with no letter or digit but in percent-escapes
// (http://%25:%25@host, user:%3D%5B~$%25*@host: a URL parser's tests).
//
// password-assignment and password-setting: a value given to a name that
// says it is a password, which gitleaks' generic rule misses when it is
// short, has little entropy or holds a character outside its value class
// ('Summer2024!', 'hunter42', POSTGRES_PASSWORD: polar). The first takes a
// quoted literal, set, passed, compared or subscripted
// ($db['password'] = 'x'), one passed after a constant's name
// (define('DB_PASSWORD', 'x')), a password in a query or connection
// string (?password=x&, ;Password=x;, ;Pwd=x;), an XML element's
// (<password>x</password>) and a proxy setting's user:password@host:port;
// the second an unquoted value: one that ends its line after a colon
// (YAML), after = for an upper-case name (env, shell, Dockerfile), or
// after = with no space before it for a name that starts the line (ini,
// properties), and netrc's (machine h login u password x, or a line of
// password and a random-looking value). Only the value is replaced (see
// secretOnly), and the allowlist keeps what is plainly not a password (see
// notAPassword). They redact; they never block a commit (see redactOnly).
//
// aws-secret-access-key: 40 characters of base64 given to a name that
// says it is AWS' secret key (aws_secret_access_key, SecretAccessKey,
// secret_key). The generic rule takes a value that starts with a letter or
// a digit, and so misses one in 32 of these keys, those that start with +
// or /. Only the key is replaced; it blocks a commit as a token does.
//
// The token rules: API keys of services that gitleaks' rules do not know
// yet, and that a repository using language models holds more often than
// most (Groq, xAI, Replicate, OpenRouter, LangSmith, Tavily, Pinecone), and
// a few other common ones (Docker Hub, Google OAuth client secrets,
// Supabase, Discord webhooks). Each is a prefix and a run of a fixed
// alphabet, ended as gitleaks' token rules are once strengthened
// (looserEnd), with some entropy so that a placeholder of one repeated
// letter is not one.
//
// The form rules (formRules): credentials that a header, a command line
// or a file's layout gives away, HTTP Basic credentials, passwords in
// flags, .pgpass lines, PuTTY keys and Django's insecure keys.
const extraRules = `
[[rules]]
id = "uri-credentials"
description = "A password in the user information of a URL"
regex = '''(?i)\b[a-z][a-z0-9+.-]{1,20}://(?:[^\s:/@'"<>\[\]]{1,100}:([^\s/@'"<>\[\]]{3,200})|:([^\s:/@'"<>\[\]]{3,200}))@[^\s/'"<>]{2,}'''
keywords = ["://"]
` + notAPassword + `  '''^(?:%[0-9A-Fa-f]{2}|[^A-Za-z0-9%])+$''',
]

[[rules]]
id = "groq-api-key"
description = "A Groq API key"
regex = '''\b(gsk_[a-zA-Z0-9]{52})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["gsk_"]

[[rules]]
id = "xai-api-key"
description = "An xAI API key"
regex = '''\b(xai-[a-zA-Z0-9]{80})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["xai-"]

[[rules]]
id = "replicate-api-token"
description = "A Replicate API token"
regex = '''\b(r8_[a-zA-Z0-9]{37})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["r8_"]

[[rules]]
id = "openrouter-api-key"
description = "An OpenRouter API key"
regex = '''\b(sk-or-v1-[a-f0-9]{64})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["sk-or-v1-"]

[[rules]]
id = "langsmith-api-key"
description = "A LangSmith API key"
regex = '''\b(lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["lsv2_"]

[[rules]]
id = "tavily-api-key"
description = "A Tavily API key"
regex = '''\b(tvly-(?:dev-|prod-)?[a-zA-Z0-9]{32})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["tvly-"]

[[rules]]
id = "pinecone-api-key"
description = "A Pinecone API key"
regex = '''\b(pcsk_[a-zA-Z0-9]{4,8}_[a-zA-Z0-9]{40,80})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["pcsk_"]

[[rules]]
id = "dockerhub-pat"
description = "A Docker Hub personal access token"
regex = '''\b(dckr_pat_[a-zA-Z0-9_-]{27})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["dckr_pat_"]

[[rules]]
id = "google-oauth-client-secret"
description = "A Google OAuth client secret"
regex = '''\b(GOCSPX-[a-zA-Z0-9_-]{28})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["gocspx-"]

[[rules]]
id = "supabase-secret-key"
description = "A Supabase access token or secret key"
regex = '''\b(sbp_[a-f0-9]{40}|sb_secret_[a-zA-Z0-9_-]{20,64})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["sbp_", "sb_secret_"]

[[rules]]
id = "discord-webhook-url"
description = "A Discord webhook URL: whoever has it can post to the channel"
regex = '''(https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/[a-zA-Z0-9_-]{60,80})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["/api/webhooks/"]

[[rules]]
id = "aws-secret-access-key"
description = "An AWS secret access key: 40 characters of base64 given to a name that says what it is"
regex = '''(?i)(?:aws[_.-]?secret|secret[_.-]?(?:access[_.-]?)?key)[\w.-]{0,20}?["']?[ \t]{0,5}(?:=>|:=|=|:|,)[ \t]{0,5}["'\x60]?([a-z0-9+/]{40})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["aws_secret", "aws-secret", "aws.secret", "awssecret", "secret_access", "secret-access", "secret.access", "secretaccess", "secret_key", "secret-key", "secret.key", "secretkey"]
[[rules.allowlists]]
description = "the example key of AWS' documentation"
regexes = ['''EXAMPLEKEY$''']

[[rules]]
id = "password-assignment"
description = "A quoted literal given to a name that says it is a password"
regex = '''` + passwordAssignmentRegex + `'''
keywords = ["pass", "pwd", "secret", "proxy"]
` + notAPassword + notAPassphrase + `]

[[rules]]
id = "password-setting"
description = "An unquoted value of a setting whose name says it is a password"
regex = '''` + passwordSettingRegex + `'''
keywords = ["pass"]
` + notAPassword + `  '''^(?:[A-Z][a-z]+){2,4}\??$''',
]
[[rules.allowlists]]
description = "a line of netrc's password and a value that does not look random"
regexTarget = "match"
regexes = ['''^[ \t]*password[ \t]+(?:[^A-Z\s:=]+|[^a-z\s:=]+|[^0-9\s:=]+)[ \t]*\r?$''']
` + formRules

// notAPassword opens the password rules' allowlist: placeholders,
// versions, paths, ${…} references (not one with a default, which may be
// a password), member names, and stand-in and type words. A path is one
// that starts with /, ./ or ~/ and goes on with another / or ends in a
// file extension, or is one segment without an upper-case letter, a
// lower-case one or a digit: "/Cqq8x2cQ0" is a password. The setting rule
// adds type names (SecretStr); a quoted HelloWorld may be a password.
// gitleaks joins an allowlist's expressions into one, so a flag is kept
// to its group ((?i:…)): a leading (?i) would reach the expressions after
// it.
const notAPassword = `[[rules.allowlists]]
description = "plainly not a password"
regexes = [
  '''\[REDACTED:[a-z0-9-]+''',
  '''^[~^<>=v]*\d+(?:\.\d+)+''',
  '''^(?:/|\./|~/)[^/]*/''',
  '''^(?:/|\./|~/)[^/]*\.[A-Za-z0-9]{1,5}$''',
  '''^(?:/|\./|~/)(?:[^A-Z]*|[^a-z]*|[^0-9]*)$''',
  '''^\$\{[^}:\s]+\}$''',
  '''^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$''',
  '''^(?i:` + plainWords + `)\??$''',
`

// plainWords are values of a name that says it is a password that are
// plainly none: the name itself, stand-ins, and type words.
const plainWords = `password|passwd|passphrase|passcode|pass|secret|changeme|change_me|example|placeholder|dummy|redacted|hidden|required|optional|confirmed|none|null|nil|undefined|true|false|yes|no|allow|deny|warn|fail|skip|string|str|text|int|integer|number|bool|boolean|object|any|bytes|option`

// notAPassphrase goes on password-assignment's allowlist that
// notAPassword opens: a value with a space is a passphrase only if it has
// upper-case and lower-case letters and digits, 12 characters or more,
// and no plain word (a word in lower case or capitalized, an upper-case
// one or a number): "1pEx Qrn7 L84k" is one, "Use 8 or more characters"
// is not.
const notAPassphrase = `  '''^[^0-9]* [^0-9]*$''',
  '''^[^A-Z]* [^A-Z]*$''',
  '''^[^a-z]* [^a-z]*$''',
  '''^\S{3} \S{3} \S{3}$''',
  '''(?:^|\s)(?:[A-Z]?[a-z]+|[A-Z]+|\d+)[.,:;!?]?\s|\s(?:[A-Z]?[a-z]+|[A-Z]+|\d+)[.,:;!?]?$''',
`

// The password rules' expressions (see extraRules and passRegions), in
// parts. Every match lies on one line.
const (
	passwordAssignmentRegex = `(?i)` + passwordQuoted + `|` + passwordArgument + `|` + passwordInQuery + `|` + passwordElement + `|` + proxyPassword
	passwordSettingRegex    = `(?m)(?:(?:` + passwordSettingName + `)[ \t]*([^\s"'\x60#,;()<>\[\]{}]{4,200})[ \t]*(?:#.*)?$|` + netrcPassword + `|` + passwordLine + `)`

	// passwordName is a name that says it is a password: one with
	// password, passwd, passphrase or passcode in it, or pass as a word or
	// after a _, . or - (db_pass, but not bypass).
	passwordName = `(?:passw(?:or)?d|passphrase|passcode)[\w.-]{0,20}?|(?:\b|[_.-])pass(?:[_.-][\w.-]{0,20}?)?`

	// passwordQuoted is a quoted literal set, passed, compared or
	// subscripted: password = 'x', "password": "x", pw != "x",
	// $db['password'] = 'x'.
	passwordQuoted = `(?:` + passwordName + `)["']?\]?[ \t]{0,5}(?:===|!==|==|!=|=>|:=|=|:)[ \t]{0,5}(?:"([^"\s]{4,200})"|'([^'\s]{4,200})'|\x60([^\x60\s]{4,200})\x60|"(` + passphraseWords + `)"|'(` + passphraseWords + `)')`

	// passphraseWords is a quoted value of 3 to 8 words apart by single
	// spaces, each of 3 or more characters: a passphrase if the
	// allowlist does not find a plain word in it (see notAPassphrase).
	passphraseWords = `[^"'\s]{3,40}(?: [^"'\s]{3,40}){2,7}`

	// passwordArgument is a quoted literal passed after a quoted
	// upper-case name (a constant's or an environment variable's) that a
	// function's first argument holds: one ending in PASSWORD, or in _PASS,
	// _PWD or _SECRET: define('DB_PASSWORD', 'x'), env('DB_PASS', 'x').
	// Lower-case names are left (__('Password', 'my-plugin') is a
	// translation), and so are PASS alone (Colorizer('PASS', 'green')) and
	// a tuple's ('CLIENT_SECRET', 'clientSecret'): the ( follows a
	// function's name. It is \w\(, not \b\(: gitleaks reads the secret from
	// the match alone, where a \b before ( would not hold.
	passwordArgument = `\w\([ \t]*["'](?-i:[A-Z0-9_]{0,40}(?:PASSWORD|PASSWD|PASSPHRASE)|[A-Z0-9_]{0,40}_(?:PASS|PWD|SECRET))["'][ \t]*,[ \t]*(?:"([^"\s]{4,200})"|'([^'\s]{4,200})')`

	// passwordInQuery is a password in a query or connection string:
	// ?password=x&, ;Password=x;, ;Pwd=x; (ODBC, SQL Server). After pwd= a
	// value may not start with $, as a shell's "PWD=$PWD" does.
	passwordInQuery = `[?&;"'](?:passw(?:or)?d|pass)=([^;&\s"'<>#]{4,200})|[?&;"']pwd=([^;&\s"'<>#$][^;&\s"'<>#]{3,199})`

	// passwordElement is an XML element's: <password>x</password>.
	passwordElement = `<(?:[\w-]+:)?[\w.-]*?(?:passw(?:or)?d|passphrase)>([^<\s]{4,200})</`

	// proxyPassword is the password in the user:password@host:port of a
	// proxy setting without a scheme (pip's proxy = u:p@host:3128; with a
	// scheme, uri-credentials finds it).
	proxyPassword = `proxy[\w.-]{0,20}?["']?[ \t]{0,5}[=:][ \t]{0,5}["']?[^\s:/@'"]{1,100}:([^\s/@'"]{3,200})@[\w.-]{2,100}:\d{2,5}\b`

	// passwordSettingName is a setting's name, and what sets it, before an
	// unquoted value that ends its line: a name and a colon (YAML), an
	// upper-case name and = (env, shell, Dockerfile), or a name that
	// starts the line and = with no space before it (ini, properties).
	passwordSettingName = `(?i:` + passwordName + `)[ \t]*:|\b(?:[A-Z0-9_]*PASS(?:WORD|WD|PHRASE|CODE)|(?:[A-Z0-9]+_)*PASS)(?:_[A-Z0-9]+)*[ \t]*=|^[ \t]*(?i:[\w.-]{0,50}?(?:passw(?:or)?d|passphrase|passcode|pass)[\w.-]{0,20}?)=`

	// netrcPassword is netrc's password in a line that says it is
	// netrc, its tokens apart by spaces, tabs or a literal \n (an echo or a
	// printf): machine h login u password x, default login u password x.
	// A value that starts with $, <, { or % stands for one.
	netrcPassword = `(?:\bmachine` + netrcSpace + `[^\s"'\x60\\]{1,253}|\bdefault)` + netrcSpace + `login` + netrcSpace + `[^\s"'\x60\\]{1,100}` + netrcSpace + `password` + netrcSpace + `([^\s"'\x60\\$<{%][^\s"'\x60\\]{3,199})`
	netrcSpace    = `(?:[ \t]|\\n){1,10}`

	// passwordLine is a line that holds nothing but password and a value
	// (a netrc file's machine over several lines); the rule's allowlist
	// keeps a value that does not look random (see extraRules): a Go
	// field's password string is not one.
	passwordLine = `^[ \t]*password[ \t]+([^\s"'\x60<>(){}\[\]]{8,200})[ \t]*\r?$`
)

// passwordRule reports whether a rule is one of gitctx's password rules
// (see extraRules).
func passwordRule(rule string) bool {
	return rule == "password-assignment" || rule == "password-setting"
}

// secretOnly reports whether a rule's finding replaces its secret alone,
// not its whole match: the name before a password or a key says what was
// there. gitleaks' curl rules match from a curl up to five lines above its
// -u or -H: whole, they would replace a command's other lines, and other
// commands'.
func secretOnly(rule string) bool {
	switch rule {
	case "aws-secret-access-key", "basic-auth", "password-flag", "password-option", "pgpass-password", "putty-private-key", terraformPassword, "curl-auth-header", "curl-auth-user":
		return true
	}
	return passwordRule(rule)
}

// redactOnly reports whether a rule redacts but never blocks a commit:
// whether a change adds a credential is gitleaks' verdict, and these rules
// are gitctx's wider net for what leaves the machine.
func redactOnly(rule string) bool {
	switch rule {
	case "basic-auth", "password-flag", "password-option", "pgpass-password", "django-insecure-key":
		return true
	}
	return passwordRule(rule)
}

// decodedRule reports whether a rule is run on decoded text too. The password
// rules are not: they look for a name and its value in the text as it is,
// and read like the generic rule, slowly; gitleaks' rules find the tokens
// that encoding hides.
func decodedRule(rule string) bool { return !passwordRule(rule) }
