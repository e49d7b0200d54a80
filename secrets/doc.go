// Package secrets is gitctx's egress gate: it finds credentials with
// gitleaks' rules and replaces them with placeholders before anything
// leaves the machine. It is the only importer of gitleaks and returns its
// own types.
//
// The gate is stricter than a commit scanner, because it guards what is
// sent rather than what is committed:
//
//   - the embedded default rules always apply; a repository's
//     .gitleaks.toml may add rules but never disable, replace or allowlist
//     the default ones (its allowlists, like the files gitleaks keeps a
//     rule to, decide only what blocks a commit: BlockingHits);
//   - decoding is on (base64, hex, percent and unicode escapes, five
//     levels deep, as in the gitleaks CLI);
//   - author-controlled suppressions do not apply: gitleaks:allow
//     comments, .gitleaksignore files and baselines are ignored, and text is
//     scanned without a file path, so path allowlists (lockfiles, vendor/,
//     SVGs) exempt nothing;
//   - a finding is replaced by its byte span, widened to the rule's whole
//     match (an encoded credential's whole encoded run; gitctx's password
//     rules, the value alone), never by searching for the secret's text; a
//     span over several lines leaves its placeholder on each line;
//   - gitctx adds rules for what gitleaks' cannot see (rules.go): a
//     password in a URL, and a value given to a name that says it is a
//     password; the latter redact and never block (BlockingHits);
//   - the run's own credentials are found literally, whatever the rules say.
//
// A placeholder reads [REDACTED:<rule>#<n>]; the same secret gets the same
// n within a run. Secrets are held only in memory, as map keys, for that
// numbering; nothing here logs, returns or hashes them.
package secrets

import "regexp"

// placeholderRE matches a placeholder.
var placeholderRE = regexp.MustCompile(`\[REDACTED:[a-z0-9-]+#[0-9]+\]`)
