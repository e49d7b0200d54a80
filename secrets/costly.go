package secrets

import (
	"strings"

	"github.com/zricethezav/gitleaks/v8/config"
)

// A few rules cost most of a scan: their words are everywhere in code
// ("key", "token", "s.", "ey", "test_"), so gitleaks runs their
// expressions over nearly every text, and Go's engine reads about 4 MB/s
// there. Matches are rare. For each, mayHold tells in one pass over the
// bytes when a text cannot hold a match; such a text is scanned without
// the rule. Each check is written for one expression (regex): when a new
// gitleaks changes it, the rule is scanned everywhere again.
type costlyRule struct {
	id      string
	regex   string
	mayHold func(text string) bool
	// regions, when set, are the parts of a text that mayHold says may
	// hold a match, where the rule alone is run instead of over the whole
	// text: it finds there what it finds in the whole.
	regions func(text string) []region
}

// region is the bytes [start, end) of a text.
type region struct{ start, end int }

// costlyRules are the rules with a check. On the 1.75 MB prometheus' last
// 1,000 commits put through the gate, the rules but generic-api-key took
// 95 ms, and 51 without these three.
func costlyRules() []costlyRule {
	return []costlyRule{
		{genericRule, genericRegex, mayHoldGeneric, genericRegions},
		{"vault-service-token", vaultRegex, mayHoldVault, nil},
		{"jwt", jwtRegex, mayHoldJWT, nil},
		{"lob-api-key", lobRegex, mayHoldLob, nil},
		{"password-assignment", passwordAssignmentRegex, mayHoldPass, passRegions},
		{"password-setting", passwordSettingRegex, mayHoldPass, passRegions},
	}
}

// activeCostly are the costly rules of cfg whose expressions are the ones
// their checks were written for. None is active in a rule set with a
// composite rule (one that needs others near it), which must be scanned
// whole.
func activeCostly(cfg config.Config) []costlyRule {
	for _, r := range cfg.Rules {
		if len(r.RequiredRules) > 0 || r.SkipReport {
			return nil
		}
	}
	var out []costlyRule
	for _, c := range costlyRules() {
		if r, ok := cfg.Rules[c.id]; ok && r.Regex != nil && r.Regex.String() == c.regex {
			out = append(out, c)
		}
	}
	return out
}

// keepRules returns cfg with only the rules keep says yes to; the rule
// maps and order are the copy's own, the rules themselves shared.
func keepRules(cfg config.Config, keep func(id string) bool) config.Config {
	rules := make(map[string]config.Rule, len(cfg.Rules))
	for id, r := range cfg.Rules {
		if keep(id) {
			rules[id] = r
		}
	}
	var ordered []string
	for _, id := range cfg.OrderedRules {
		if keep(id) {
			ordered = append(ordered, id)
		}
	}
	keywords := map[string]struct{}{}
	for _, r := range rules {
		for _, k := range r.Keywords {
			keywords[strings.ToLower(k)] = struct{}{}
		}
	}
	cfg.Rules, cfg.OrderedRules, cfg.Keywords = rules, ordered, keywords
	return cfg
}

// foldsToASCII reports whether text holds one of the two characters that
// case folding matches as ASCII letters: the Kelvin sign (k) and the long
// s (s). A rule's check may not read past them.
func foldsToASCII(text string) bool {
	return strings.Contains(text, "\u212a") || strings.Contains(text, "\u017f")
}

// vaultRegex is vault-service-token as gitleaks v8.30.1 and strengthen
// leave it.
const vaultRegex = `\b((?:hvs\.[\w-]{90,120}|s\.(?i:[a-z0-9]{24})))(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)`

// mayHoldVault: every match holds "s." followed by 24 letters or digits,
// or "hvs." followed by 90 of [\w-].
func mayHoldVault(text string) bool {
	if foldsToASCII(text) {
		return true
	}
	return anyAt(text, "s.", func(i int) bool {
		after := text[i+2:]
		return runLen(after, isAlnum, 24) >= 24 || strings.HasSuffix(text[:i], "hv") && runLen(after, isWordOrDash, 90) >= 90
	})
}

// jwtRegex is jwt as gitleaks v8.30.1 and strengthen leave it.
const jwtRegex = `\b(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9\/\\_-]{17,}\.(?:[a-zA-Z0-9\/\\_-]{10,}={0,2})?)(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)`

// mayHoldJWT: every match holds "ey", 17 or more letters or digits, then
// ".ey" right after them (a period is no letter, so it ends the run).
func mayHoldJWT(text string) bool {
	return anyAt(text, "ey", func(i int) bool {
		after := text[i+2:]
		n := runLen(after, isAlnum, len(after))
		return n >= 17 && strings.HasPrefix(after[n:], ".ey")
	})
}

// lobRegex is lob-api-key as gitleaks v8.30.1 and strengthen leave it.
const lobRegex = `(?i)[\w.-]{0,50}?(?:lob)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}((live|test)_[a-f0-9]{35})(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)`

// mayHoldLob: every match holds "live_" or "test_", in any case, followed
// by 35 hexadecimal digits.
func mayHoldLob(text string) bool {
	if foldsToASCII(text) {
		return true
	}
	return anyAt(text, "_", func(i int) bool {
		return i >= 4 && (equalFoldASCII(text[i-4:], "live") || equalFoldASCII(text[i-4:], "test")) && runLen(text[i+1:], isHex, 35) >= 35
	})
}

// anyAt reports whether ok holds at one of the places sep is in text.
func anyAt(text, sep string, ok func(i int) bool) bool {
	for from := 0; ; {
		j := strings.Index(text[from:], sep)
		if j < 0 {
			return false
		}
		if ok(from + j) {
			return true
		}
		from += j + len(sep)
	}
}

// runLen is how many bytes at the start of s class holds, counted up to
// max.
func runLen(s string, class func(byte) bool, max int) int {
	n := 0
	for n < len(s) && n < max && class(s[n]) {
		n++
	}
	return n
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isWordOrDash(c byte) bool { return c == '_' || c == '-' || isAlnum(c) }
