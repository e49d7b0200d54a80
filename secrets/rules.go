package secrets

// extraRules are gitctx's additions to gitleaks' default rules, for what
// those cannot see: a password in the user information of a URL
// (postgres://app:s3cret@db), which no default rule covers. The whole URL
// is the match, so the whole URL is replaced. Brackets, which a URL's user
// information cannot hold unencoded, are left out so that a placeholder
// never looks like a password.
const extraRules = `
[[rules]]
id = "uri-credentials"
description = "A password in the user information of a URL"
regex = '''(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@'"<>\[\]]{1,100}:([^\s/@'"<>\[\]]{3,200})@[^\s/'"<>]{2,}'''
secretGroup = 1
keywords = ["://"]
`
