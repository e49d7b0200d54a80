package secrets

// extraRules are gitctx's additions to gitleaks' default rules, for what
// those cannot see.
//
// uri-credentials: a password in the user information of a URL
// (postgres://app:s3cret@db), which no default rule covers. The whole URL
// is the match, so the whole URL is replaced. Brackets, which a URL's user
// information cannot hold unencoded, are left out so that a placeholder
// never looks like a password.
//
// password-assignment and password-setting: a value given to a name that
// says it is a password, which gitleaks' generic rule misses when it is
// short, has little entropy or holds a character outside its value class
// ('Summer2024!', 'hunter42', POSTGRES_PASSWORD: polar). The first takes a
// quoted literal, set, passed or compared, a password in a query or
// connection string (?password=x&, ;Password=x;) and an XML element's
// (<password>x</password>); the second an unquoted value that ends its
// line: after a colon (YAML), after = for an upper-case name
// (env, shell, Dockerfile), or after = with no space before it for a name
// that starts the line (ini, properties). Only the value is replaced (see
// secretOnly), and the allowlist keeps what is plainly not a password (see
// notAPassword). They redact; they never block a commit (see redactOnly).
//
// The token rules: API keys of services that gitleaks' rules do not know
// yet, and that a repository using language models holds more often than
// most (Groq, xAI, Replicate, OpenRouter, LangSmith, Tavily, Pinecone), and
// a few other common ones (Docker Hub, Google OAuth client secrets,
// Supabase, Discord webhooks). Each is a prefix and a run of a fixed
// alphabet, ended as gitleaks' token rules are once strengthened
// (looserEnd), with some entropy so that a placeholder of one repeated
// letter is not one.
const extraRules = `
[[rules]]
id = "uri-credentials"
description = "A password in the user information of a URL"
regex = '''(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@'"<>\[\]]{1,100}:([^\s/@'"<>\[\]]{3,200})@[^\s/'"<>]{2,}'''
secretGroup = 1
keywords = ["://"]

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
id = "password-assignment"
description = "A quoted literal given to a name that says it is a password"
regex = '''` + passwordAssignmentRegex + `'''
keywords = ["pass"]
` + notAPassword + `]

[[rules]]
id = "password-setting"
description = "An unquoted value, ending its line, of a setting whose name says it is a password"
regex = '''` + passwordSettingRegex + `'''
keywords = ["pass"]
` + notAPassword + `  '''^(?:[A-Z][a-z]+){2,4}\??$''',
]
`

// notAPassword opens the password rules' allowlist: placeholders,
// versions, paths, ${…} references (not one with a default, which may be
// a password), member names, and stand-in and type words. The setting
// rule adds type names (SecretStr); a quoted HelloWorld may be a password.
// gitleaks joins an allowlist's expressions into one, so a flag is kept
// to its group ((?i:…)): a leading (?i) would reach the expressions after
// it.
const notAPassword = `[[rules.allowlists]]
description = "plainly not a password"
regexes = [
  '''\[REDACTED:[a-z0-9-]+''',
  '''^[~^<>=v]*\d+(?:\.\d+)+''',
  '''^(?:/|\./|~/)''',
  '''^\$\{[^}:\s]+\}$''',
  '''^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$''',
  '''^(?i:password|passwd|passphrase|passcode|pass|secret|changeme|change_me|example|placeholder|dummy|redacted|hidden|required|optional|confirmed|none|null|nil|undefined|true|false|yes|no|allow|deny|warn|fail|skip|string|str|text|int|integer|number|bool|boolean|object|any|bytes|option)\??$''',
`

// passwordAssignmentRegex and passwordSettingRegex are the expressions
// of the password rules (see extraRules and passRegions).
const (
	passwordAssignmentRegex = `(?i)(?:(?:passw(?:or)?d|passphrase|passcode)[\w.-]{0,20}?|(?:\b|[_.-])pass(?:[_.-][\w.-]{0,20}?)?)["']?[ \t]{0,5}(?:===|!==|==|!=|=>|:=|=|:)[ \t]{0,5}(?:"([^"\s]{4,200})"|'([^'\s]{4,200})'|\x60([^\x60\s]{4,200})\x60)|[?&;"'](?:passw(?:or)?d|pass)=([^;&\s"'<>#]{4,200})|<(?:[\w-]+:)?[\w.-]*?(?:passw(?:or)?d|passphrase)>([^<\s]{4,200})</`
	passwordSettingRegex    = `(?m)(?:(?i:(?:passw(?:or)?d|passphrase|passcode)[\w.-]{0,20}?|(?:\b|[_.-])pass(?:[_.-][\w.-]{0,20}?)?)[ \t]*:|\b(?:[A-Z0-9_]*PASS(?:WORD|WD|PHRASE|CODE)|(?:[A-Z0-9]+_)*PASS)(?:_[A-Z0-9]+)*[ \t]*=|^[ \t]*(?i:[\w.-]{0,50}?(?:passw(?:or)?d|passphrase|passcode|pass)[\w.-]{0,20}?)=)[ \t]*([^\s"'\x60#,;()<>\[\]{}]{4,200})[ \t]*(?:#.*)?$`
)

// passwordRule reports whether a rule is one of gitctx's password rules
// (see extraRules).
func passwordRule(rule string) bool {
	return rule == "password-assignment" || rule == "password-setting"
}

// secretOnly reports whether a rule's finding replaces its secret alone,
// not its whole match: the name before a password says what was there.
func secretOnly(rule string) bool { return passwordRule(rule) }

// redactOnly reports whether a rule redacts but never blocks a commit:
// whether a change adds a credential is gitleaks' verdict, and these rules
// are gitctx's wider net for what leaves the machine.
func redactOnly(rule string) bool { return passwordRule(rule) }

// decodedRule reports whether a rule is run on decoded text too. The password
// rules are not: they look for a name and its value in the text as it is,
// and read like the generic rule, slowly; gitleaks' rules find the tokens
// that encoding hides.
func decodedRule(rule string) bool { return !passwordRule(rule) }
