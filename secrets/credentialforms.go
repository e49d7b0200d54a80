package secrets

// formRules are gitctx's rules for credentials that a name beside them
// does not give away, but the form around them does: a header, a command
// line, a file's layout. Each needs a word that is rare outside that form
// (its keywords), so that gitleaks runs it over few texts.
//
// basic-auth: the base64 credentials of HTTP Basic authentication, after
// an Authorization header's name (a header, curl -H, a map's key or a
// setter's first argument) or opening a quoted string ("Basic dXNl…").
// gitleaks' curl-auth-header finds them only after curl.
//
// password-flag: the value of a command-line flag whose name ends in
// password, passwd, passphrase, pass, secret, token or api-key
// (--db-password 3K1x9D3q, --token=x, -Password 'x'). A flag names its
// value but not whether the value is given or stands for one, so the value
// must look random (see looksRandom); a name that says the flag takes no
// value (--no-password, --ask-password), a page's token (--page-token)
// and a path (--secret=projects/p/secrets/s) are left.
//
// password-option: a short flag that is a password for the tool before it
// on the command: mysql's -pVALUE (attached: -p alone prompts, and after
// a space comes the database), sshpass -p, a registry login's -p (docker,
// podman, buildah, nerdctl, skopeo, oras, crane, oc, az, helm registry),
// the mongo tools' -p, redis-cli -a and sqlcmd's or bcp's -P. The tool
// and its flag are on one command: no ; | or & between them.
//
// pgpass-password: the password of a .pgpass line,
// host:port:database:user:password, whose port is a number or *, in a text
// that names pgpass or holds the port 5432, 5433 or 6432 or a * field; the
// value must look random, so that a:1:b:c:word is not one.
//
// putty-private-key: the private lines of a PuTTY key (.ppk) and the MAC
// that ends them, which with a passphrase lets one test guesses of it
// offline. gitleaks' private-key rule takes PEM and OpenSSH keys only.
//
// django-insecure-key: a Django SECRET_KEY as startproject writes it,
// django-insecure- and 50 characters that may hold !@#$%^&*(-_=+), where
// gitleaks' generic rule stops at the first of those.
//
// All but putty-private-key redact and never block a commit (see
// redactOnly), as the password rules do; those that follow a name or a
// flag replace the value alone (see secretOnly).
const formRules = `
[[rules]]
id = "basic-auth"
description = "The credentials of HTTP Basic authentication"
regex = '''(?i)(?:\bauthorization["']?\]?[ \t]{0,5}(?:=>|[:=,])[ \t]{0,5}["'\x60]?|["'\x60])basic[ \t]+([a-z0-9+/]{8,200}={0,2})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)'''
secretGroup = 1
entropy = 2.5
keywords = ["basic ", "basic\t"]
[[rules.allowlists]]
description = "a word, not base64"
regexes = ['''^[A-Z]?[a-z]+(?:[A-Z][a-z]+)*$''', '''^[A-Z]+$''']

[[rules]]
id = "password-flag"
description = "A command-line flag whose name says it is a password, a secret, a token or an API key, and a value that looks random"
regex = '''(?i)(?:^|[\s"'\x60(\[,=])--?(?:[a-z0-9]+[_-])*(?:[a-z0-9]*(?:password|passwd|passphrase|secret|token|api[_-]?key)|pass)(?:=|[ \t]+)` + flagValue + `'''
keywords = ["-pass", "password", "passwd", "passphrase", "secret", "token", "apikey", "api-key", "api_key"]
` + notAPassword + looksRandom + notAFlagValue + `]
[[rules.allowlists]]
description = "a flag that takes no value, or a page's token"
regexTarget = "match"
regexes = [
  '''^[\s"'\x60(\[,=]?--?(?i:no|ask|prompt|show|print|skip|generate|gen|use|with|stdin|read|require|allow|enable|disable|verify|check|list|delete|remove|rm)[_-]''',
  '''^[\s"'\x60(\[,=]?--?(?i:[a-z0-9_-]*(?:page|next|continuation|sync|resume|pagination)[_-]?token)[= \t]''',
]

[[rules]]
id = "password-option"
description = "A short flag that is a password for the tool before it on the command"
regex = '''` + passwordOptionFlag + flagValue + `'''
keywords = ["mysql", "mariadb", "sshpass", "docker login", "podman login", "buildah login", "nerdctl login", "skopeo login", "oras login", "crane login", "oc login", "az login", "acr login", "registry login", "mongo", "redis-cli", "sqlcmd", "bcp "]
` + notAPassword + `]

[[rules]]
id = "pgpass-password"
description = "The password of a .pgpass line"
regex = '''(?:^|[\s"'\x60])[^\s:#"'\x60]{1,253}:(?:\d{1,5}|\*):[^\s:"'\x60]{1,100}:[^\s:"'\x60]{1,100}:([^\s:"'\x60\\]{8,200})(?:["'\x60\s]|\\[nr]|$)'''
keywords = ["pgpass", ":5432:", ":5433:", ":6432:", ":*:"]
` + notAPassword + looksRandom + `]

[[rules]]
id = "putty-private-key"
description = "The private lines of a PuTTY private key, and its MAC"
regex = '''Private-Lines:[ \t]*\d{1,4}[ \t]*` + keyLineBreak + `(` + puttyPrivate + `)(?:` + lineBreak + `|\r?$|[\x60'"])'''
secretGroup = 1
entropy = 3
keywords = ["private-lines:"]

[[rules]]
id = "django-insecure-key"
description = "A Django secret key as startproject writes it"
regex = '''\b(django-insecure-[a-z0-9!@#$%^&*(\-_=+)]{40,60})(?:[\x60'"\s;,]|\\[nr]|$)'''
secretGroup = 1
entropy = 3
keywords = ["django-insecure-"]
`

// passwordOptionFlag is a tool's name and, later on its command, the
// short flag that is its password, up to where the value starts (see
// password-option in formRules).
const passwordOptionFlag = `(?:` +
	`\b(?:mysql(?:dump|admin|import|check|show|pump|sh)?|mariadb(?:-?dump|-?admin)?)\b[^\n;|&]*?[ \t]-p` +
	`|\bsshpass\b[^\n;|&]*?[ \t]-p[ \t]*` +
	`|\b(?:(?:docker|podman|buildah|nerdctl|skopeo|oras|crane|oc)[ \t]+|helm[ \t]+registry[ \t]+|az[ \t]+(?:acr[ \t]+)?)login\b[^\n;|&]*?[ \t]-p[ \t]+` +
	`|\bmongo(?:sh|dump|restore|export|import|stat|top|files)?\b[^\n;|&]*?[ \t]-p[ \t]+` +
	`|\bredis-cli\b[^\n;|&]*?[ \t]-a[ \t]+` +
	`|\b(?:sqlcmd|bcp)\b[^\n;|&]*?[ \t]-P[ \t]*` +
	`)`

// flagValue is a flag's value, quoted or not: none that starts with -
// (another flag), $ (a variable, $(…) a command), <, {, % or @ (stand-ins
// and file references), and in double quotes none holding a $. Unquoted,
// it ends where the shell ends a word.
const flagValue = `(?:"([^"\s$<{%@-][^"\s$]{3,199})"|'([^'\s$<{%@-][^'\s]{3,199})'|([^\s"'\x60;|&<>(){}$\\%@-][^\s"'\x60;|&<>(){}$\\]{3,199})(?:[\s"'\x60;|&)]|\\[nr]|$))`

// puttyPrivate is a PuTTY key's private lines and the MAC after them:
// lines of base64, then Private-MAC and its hex. Where a diff shows a
// key replaced, the new lines and MAC follow the old ones and are taken
// with them. Without its MAC it is not one: lines that only look like a
// key's (hunk headers' sections joined) are left.
const puttyPrivate = `(?:[A-Za-z0-9+/]{4,128}={0,2}[ \t]*` + keyLineBreak + `)+` + puttyMAC +
	`(?:` + keyLineBreak + `(?:[A-Za-z0-9+/]{4,128}={0,2}[ \t]*` + keyLineBreak + `)+` + puttyMAC + `)*`

const puttyMAC = `Private-MAC:[ \t]*[0-9a-fA-F]{40,128}[ \t]*`

// lineBreak ends a line of a key: a newline, or a literal \n in a
// string. keyLineBreak goes on to the next line's text, past a diff
// line's +, - or space and indentation.
const (
	lineBreak    = `(?:\r?\n|(?:\\r)?\\n)`
	keyLineBreak = lineBreak + `[+ -]?[ \t]*`
)

// looksRandom goes on an allowlist that notAPassword opens: a value of
// fewer than 6 characters, or one that does not hold two of upper-case
// letters, lower-case letters and digits, or is a word in camel case
// (myToken), is not taken for a secret.
const looksRandom = `  '''^.{0,5}$''',
  '''^[^A-Z0-9]*$''',
  '''^[^a-z0-9]*$''',
  '''^[^A-Za-z]*$''',
  '''^[A-Z]?[a-z]+(?:[A-Z][a-z]+)*$''',
`

// notAFlagValue goes on password-flag's allowlist that notAPassword
// opens: openssl's env:VAR, file:path and fd:N name where a password is,
// and so does a lower-case path or resource name
// (projects/p/secrets/s/versions/2); a file's name (7za's -ppassword
// test.7z) is an argument after the flag.
const notAFlagValue = `  '''^(?:env|file|fd):''',
  '''^[a-z0-9._-]+(?:/[a-z0-9._-]+)+$''',
  '''^[\w-]+(?:\.[\w-]+)*\.[a-z0-9]{1,5}$''',
`
