package pack

import (
	"context"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gitctx/gitctx/gitctx/neighbours"
)

// Limits of the review focus. (The key files' are Options.KeyFiles.)
const (
	maxHotspots  = 25
	bigChange    = 200 // changed lines that make a file a hotspot by size alone
	maxRiskLines = 4000
)

// keyCategories are the kinds of key files, in the order they are listed,
// each with the pattern a file's name (lower case) is matched against, and
// the words one of which every name it matches holds: most names hold
// none, and looking for a few words is much cheaper than trying an
// unanchored pattern at every byte (70 ms for terraform's last 1,000
// commits).
var keyCategories = []struct {
	name    string
	words   []string
	pattern *regexp.Regexp
}{
	{"config", []string{"package.json", "config", "setup.", "go.mod", ".toml", "pom.xml", "build.gradle", "gemfile",
		"dockerfile", "makefile", "docker-compose.", ".gitctx.", ".ini", ".conf", "settings/", ".github/workflows/"},
		regexp.MustCompile(`(^|/)(package\.json|tsconfig\.json|pyproject\.toml|setup\.(py|cfg)|go\.mod|cargo\.toml|pom\.xml|build\.gradle(\.kts)?|gemfile|dockerfile|makefile|docker-compose\.ya?ml|\.gitctx\.ya?ml|[^/]*\.(toml|ini|conf))$|(^|/)(config|configs|settings)/|(^|/)\.github/workflows/`)},
	{"entrypoint", []string{"main.", "__main__.", "index.", "app.", "server.", "manage."},
		regexp.MustCompile(`(^|/)(main|index|app|server|__main__|manage)\.[a-z]+$|(^|/)cmd/[^/]+/main\.go$`)},
	{"auth", []string{"auth", "login", "session", "jwt", "password", "credential"},
		regexp.MustCompile(`auth|login|session|jwt|oauth|password|credential`)},
	{"api", []string{"route", "controller", "handler", "api", "endpoint", "graphql", "grpc"},
		regexp.MustCompile(`route|controller|handler|(^|[/_.-])api([/_.-]|$)|endpoint|graphql|grpc`)},
	{"database", []string{"model", "schema", "migration", "db", "database", "repository", "store", "dao", ".sql"},
		regexp.MustCompile(`model|schema|migration|(^|[/_.-])(db|database|repository|store|dao)([/_.-]|$)|\.sql$`)},
	{"security", []string{"permission", "rbac", "acl", "crypto", "security", "policy", "sanitiz", "csrf", "cors"},
		regexp.MustCompile(`permission|rbac|acl|crypto|security|policy|sanitiz|csrf|cors`)},
}

// isFixture reports whether a lower-case path is a test's input rather
// than the project's: test data (neighbours.IsTestData: a main.tf or a
// package.json there is no entry point or configuration), or a mock.
func isFixture(lower string) bool {
	return neighbours.IsTestData(lower) || slices.Contains(strings.Split(path.Dir(lower), "/"), "__mocks__")
}

// isKeyFile reports whether a lower-case name is a key file of category c.
func isKeyFile(c int, lower string) bool {
	k := keyCategories[c]
	for _, w := range k.words {
		if strings.Contains(lower, w) {
			return k.pattern.MatchString(lower)
		}
	}
	return false
}

// riskKinds are what a changed line can touch that deserves a reviewer's
// closer look: lower-case words a line must hold before the (slower)
// pattern is tried.
var riskKinds = []struct {
	name  string
	words []string
	re    *regexp.Regexp
}{
	{"auth", []string{"passw", "token", "jwt", "oauth", "session", "login", "authori", "authent"},
		regexp.MustCompile(`(?i)\b(password|passwd|token|jwt|oauth|session|login|authori[sz]|authenticat)`)},
	{"crypto", []string{"crypt", "hashlib", "argon2", "sha1", "md5", "aes", "rsa", "hmac", "tls.", "x509", "insecureskipverify", "verify", "random"},
		regexp.MustCompile(`(?i)\b(crypto|hashlib|bcrypt|scrypt|argon2|sha1|md5|aes|rsa|hmac|tls\.|x509|InsecureSkipVerify|verify\s*=\s*False|random\.random)`)},
	{"sql", []string{"select", "insert", "update", "delete", "query(", "exec(", "execute(", "sql"},
		regexp.MustCompile(`(?i)\b(select\s.+\sfrom|insert\s+into|update\s+\w+\s+set|delete\s+from|\.query\(|\.exec\(|execute\(|raw\s*sql|sqlx?\.)`)},
	{"exec", []string{"exec", "subprocess", "child_process", "system(", "eval(", "shell", "runtime.getruntime", "popen("},
		regexp.MustCompile(`(?i)(os/exec|exec\.Command|subprocess|child_process|\bsystem\(|\beval\(|shell\s*=\s*True|Runtime\.getRuntime|\bpopen\()`)},
}

// keyFile is a key file of the change, by category.
type keyFile struct {
	category string
	e        *entry
}

// hotspot is a changed file whose change touches something risky.
type hotspot struct {
	e          *entry
	indicators []string
}

// keyFiles picks the changed files that match a key-file category, at most
// lim.MaxPerCategory per category and lim.MaxTotal in all, shallow paths
// first.
func keyFiles(entries []*entry, lim KeyFiles) []keyFile {
	var changed []*entry
	var lower []string
	for _, e := range entries {
		if l := strings.ToLower(e.path); e.included() && e.role == RoleChanged && !isFixture(l) {
			changed = append(changed, e)
			lower = append(lower, l)
		}
	}
	var out []keyFile
	for c, cat := range keyCategories {
		var hits []*entry
		for i, e := range changed {
			if isKeyFile(c, lower[i]) {
				hits = append(hits, e)
			}
		}
		sort.SliceStable(hits, func(i, j int) bool {
			di, dj := strings.Count(hits[i].path, "/"), strings.Count(hits[j].path, "/")
			if di != dj {
				return di < dj
			}
			return hits[i].path < hits[j].path
		})
		for i, e := range hits {
			if i == lim.MaxPerCategory || len(out) == lim.MaxTotal {
				break
			}
			out = append(out, keyFile{cat.name, e})
		}
	}
	return out
}

// hotspots finds the changed files whose added or removed lines touch
// authentication, cryptography, SQL or command execution, or that change a
// great deal: at most maxHotspots, the riskiest first; modified files
// written by tools are not among them. Files are read on every core.
func hotspots(ctx context.Context, entries []*entry, kindsOf func(*entry) []string) []hotspot {
	var todo []int
	for i, e := range entries {
		if e.included() && e.role == RoleChanged && e.patch != nil && !e.diffOnly() {
			todo = append(todo, i) // a generated file's changed lines are its tool's
		}
	}
	kinds := make([][]string, len(entries))
	// fn never fails, and a cancelled run stops at its next step
	_ = parallel(ctx, todo, func(i int) error {
		kinds[i] = kindsOf(entries[i])
		return nil
	})
	var out []hotspot
	for _, i := range todo {
		if len(kinds[i]) > 0 {
			out = append(out, hotspot{entries[i], kinds[i]})
		}
	}
	// the files that touch the most kinds of risk, then the biggest changes
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].indicators) != len(out[j].indicators) {
			return len(out[i].indicators) > len(out[j].indicators)
		}
		return out[i].e.additions()+out[i].e.deletions() > out[j].e.additions()+out[j].e.deletions()
	})
	return out[:min(len(out), maxHotspots)]
}

// riskKindsOf lists the kinds of risk an entry's changed lines touch (at
// most maxRiskLines of them are read), in the order a reader meets them,
// and a large change.
func riskKindsOf(e *entry) []string { return riskNames(riskOrder(e), e) }

// riskOrder lists the riskKinds an entry's changed lines touch, by index,
// in the order a reader meets them. Each line is searched for all the
// kinds' words in one pass (see riskWords), and a kind's pattern is tried
// only on a line that holds one of its words.
func riskOrder(e *entry) []int {
	var order []int
	seen := make([]bool, len(riskKinds))
	found := make([]bool, len(riskKinds)) // kinds whose words a line holds
	n := 0
scan:
	for _, h := range e.patch.Hunks {
		for _, l := range h.Lines {
			if l.Op == ' ' {
				continue
			}
			if n++; n > maxRiskLines || len(order) == len(riskKinds) {
				break scan
			}
			clear(found)
			riskWords.find(l.Text, found)
			for i, k := range riskKinds {
				if found[i] && !seen[i] && k.re.MatchString(l.Text) {
					seen[i] = true
					order = append(order, i)
				}
			}
		}
	}
	return order
}

// riskNames names the kinds of order, and a large change.
func riskNames(order []int, e *entry) []string {
	var kinds []string
	for _, i := range order {
		kinds = append(kinds, riskKinds[i].name)
	}
	if changed := e.additions() + e.deletions(); changed >= bigChange {
		kinds = append(kinds, "large change ("+thousands(changed)+" lines)")
	}
	return kinds
}

// wordIndex finds many short words in a text in one pass: a table of the
// byte pairs words start with rules out most positions at a glance.
type wordIndex struct {
	pairs [1 << 16]uint8 // 1 + where in lists the words starting with a pair are; 0: none
	lists [][]riskWord
}

type riskWord struct {
	word string
	kind int
	// what else a line needs, for the kind's pattern to match where the
	// word is: a word boundary right before it (its alternatives start
	// with the word, after the pattern's \b), and another word after it
	// ("set" after "update"). They spare the pattern the many lines that
	// name a word inside an identifier (accessToken, resourceUpdate).
	atWordStart bool
	then        string
}

// riskWordNeeds are the words whose riskWord needs more, by kind: those
// the kind's pattern matches only at a word's start, and those it
// matches only with another word after them.
var riskWordNeeds = map[string]struct {
	atWordStart []string
	then        map[string]string
}{
	"auth":   {atWordStart: []string{"passw", "token", "jwt", "oauth", "session", "login", "authori", "authent"}},
	"crypto": {atWordStart: []string{"hashlib", "argon2", "sha1", "md5", "aes", "rsa", "hmac", "tls.", "x509", "insecureskipverify", "verify", "random"}},
	"sql": {atWordStart: []string{"select", "insert", "update", "delete", "execute("},
		then: map[string]string{"select": "from", "insert": "into", "update": "set", "delete": "from"}},
}

// riskWords indexes the words of riskKinds; it is built once and only
// read.
var riskWords = newWordIndex()

func newWordIndex() *wordIndex {
	x := &wordIndex{}
	for i, k := range riskKinds {
		needs := riskWordNeeds[k.name]
		for _, w := range k.words {
			p := uint16(w[0])<<8 | uint16(w[1])
			if x.pairs[p] == 0 {
				x.lists = append(x.lists, nil)
				x.pairs[p] = uint8(len(x.lists)) // a few dozen words: far from 255 pairs
			}
			rw := riskWord{word: w, kind: i, atWordStart: slices.Contains(needs.atWordStart, w), then: needs.then[w]}
			x.lists[x.pairs[p]-1] = append(x.lists[x.pairs[p]-1], rw)
		}
	}
	return x
}

// find marks in found the kinds whose words text holds, in any case. An
// ASCII text is read as it is, each byte lowered as it is looked at; any
// other is lowered first (strings.ToLower: a Kelvin sign is a k).
//
// A word marks its kind only where the line also has what riskWord says
// the kind's pattern needs there. (A lowered text is read without word
// boundaries: lowering may turn what stood before a word into a letter, a
// Kelvin sign into k.)
func (x *wordIndex) find(text string, found []bool) {
	lowered := false
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			text, lowered = strings.ToLower(text), true
			break
		}
	}
	for i := 0; i+1 < len(text); i++ {
		p := uint16(lowerASCII(text[i]))<<8 | uint16(lowerASCII(text[i+1]))
		k := x.pairs[p]
		if k == 0 {
			continue
		}
		for _, w := range x.lists[k-1] {
			if found[w.kind] || len(text)-i < len(w.word) || !equalFoldASCII(text[i:], w.word) {
				continue
			}
			if w.atWordStart && !lowered && i > 0 && isWordByte(text[i-1]) {
				continue // inside a word: \b does not hold
			}
			if w.then != "" && !containsFoldASCII(text[i+len(w.word):], w.then) {
				continue
			}
			found[w.kind] = true
		}
	}
}

// containsFoldASCII reports whether text holds word (lower-case ASCII) in
// any ASCII case.
func containsFoldASCII(text, word string) bool {
	for i := 0; i+len(word) <= len(text); i++ {
		if lowerASCII(text[i]) == word[0] && equalFoldASCII(text[i:], word) {
			return true
		}
	}
	return false
}

// focusText is the review focus of a Summary pack, as markdown list items.
func focusText(keys []keyFile, spots []hotspot) (string, string) {
	var k, h strings.Builder
	for _, kf := range keys {
		k.WriteString("- " + kf.category + ": " + kf.e.name() + "\n")
	}
	for _, s := range spots {
		h.WriteString("- " + s.e.name() + ": " + strings.Join(s.indicators, ", ") + "\n")
	}
	return k.String(), h.String()
}
