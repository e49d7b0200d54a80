package secrets

import (
	"cmp"
	"fmt"
	"go/build"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/zricethezav/gitleaks/v8/config"
)

// defaultRule is a default rule's compiled expression.
func defaultRule(t testing.TB, id string) *regexp.Regexp {
	t.Helper()
	cfg, err := defaultsForTests()
	if err != nil {
		t.Fatal(err)
	}
	r, ok := cfg.Rules[id]
	if !ok || r.Regex == nil {
		t.Fatalf("no default rule %s", id)
	}
	return r.Regex
}

var defaultsForTests = sync.OnceValues(func() (config.Config, error) {
	rs, err := buildDefaults()
	return rs.cfg, err
})

// TestCostlyRulesKnown: every costly rule's check was written for the
// default rule's expression (a new gitleaks that changes one turns its
// check off), and keepRules splits the rules without losing or sharing
// one.
func TestCostlyRulesKnown(t *testing.T) {
	cfg, err := defaultsForTests()
	if err != nil {
		t.Fatal(err)
	}
	active := activeCostly(cfg)
	if len(active) != len(costlyRules()) {
		for _, c := range costlyRules() {
			if got := cfg.Rules[c.id].Regex.String(); got != c.regex {
				t.Errorf("the default %s is not the expression its check was written for:\n%s", c.id, got)
			}
		}
	}
	costly := map[string]bool{}
	for _, c := range active {
		costly[c.id] = true
		alone := keepRules(cfg, func(id string) bool { return id == c.id })
		if len(alone.Rules) != 1 || len(alone.OrderedRules) > 1 {
			t.Errorf("%s alone: %d rules", c.id, len(alone.Rules))
		}
		for _, k := range cfg.Rules[c.id].Keywords {
			if _, ok := alone.Keywords[strings.ToLower(k)]; !ok {
				t.Errorf("%s alone lacks its keyword %q", c.id, k)
			}
		}
	}
	cheap := keepRules(cfg, func(id string) bool { return !costly[id] })
	if len(cheap.Rules)+len(active) != len(cfg.Rules) {
		t.Errorf("cheap holds %d rules, want %d", len(cheap.Rules), len(cfg.Rules)-len(active))
	}
	if len(cfg.Rules) != len(cheap.Rules)+len(costly) {
		t.Errorf("keepRules changed the rule set it was given")
	}
}

// TestCostlyChecks: examples each way for every check, and the rule itself
// never matching where its check says it cannot.
func TestCostlyChecks(t *testing.T) {
	for _, tc := range []struct {
		rule, text string
		want       bool
	}{
		{"vault-service-token", "token: s.Zq81nv0aqJd81nzkWq0xAbCd\n", true},
		{"vault-service-token", "VAULT=hvs." + strings.Repeat("aB3_-", 19) + "\n", true},
		{"vault-service-token", "os.Exit(1); s.count += 1; s.Zq81nv0aqJd81nzkWq0x", false},
		{"vault-service-token", "x = s.\u212aq81nv0aqJd81nzkWq0xAbCd", true},
		{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc", true},
		{"jwt", "key eyJhbGciOiJIUzI1NiJ9 eyJzdWIiOiIxMjM0NTY3ODkwIn0", false},
		{"jwt", "they eyed the keys", false},
		{"lob-api-key", "lob_key = test_" + strings.Repeat("0a1b2c3d4e", 4) + "\n", true},
		{"lob-api-key", "LOB = LIVE_" + strings.Repeat("ABCDEF0123", 4), true},
		{"lob-api-key", "func test_helper() { live_value := 1 }", false},
		{"lob-api-key", "lob: te\u017ft_" + strings.Repeat("0a1b2c3d4e", 4), true},
		{"password-assignment", "let password = 'Summer2024!';", true},
		{"password-assignment", `if conf.DB_Passwd != "hunter22" {`, true},
		{"password-assignment", "if ok:\n    pass\nbypass(x) # passes 'hunter22'", false},
		{"password-assignment", "pa\u017f\u017fword = 'Summer2024!'", true},
		{"password-setting", "export PGPASSWORD=polar9\n", true},
		{"password-setting", "  POSTGRES_PASSWORD : polar\n", true},
		{"password-setting", "if ok:\n    pass\nbypass(p)\n", false},
	} {
		c := costlyByID(t, tc.rule)
		if got := c.mayHold(tc.text); got != tc.want {
			t.Errorf("%s check of %q = %v, want %v", tc.rule, tc.text, got, tc.want)
		}
		if !c.mayHold(tc.text) && defaultRule(t, tc.rule).MatchString(tc.text) {
			t.Errorf("%s matches %q, its check says it cannot", tc.rule, tc.text)
		}
	}
}

func costlyByID(t testing.TB, id string) costlyRule {
	t.Helper()
	for _, c := range costlyRules() {
		if c.id == id {
			return c
		}
	}
	t.Fatalf("no costly rule %s", id)
	return costlyRule{}
}

// TestCostlyChecksRealFiles holds every check (mayHoldGeneric's too) to its
// rule on every file of the module and of the toolchain's net/http and
// crypto/x509, whole, line by line and in 1 KB pieces, and checks that each
// rules out most pieces that hold one of the rule's words (else it saves
// nothing).
func TestCostlyChecksRealFiles(t *testing.T) {
	type count struct{ words, ruledOut int }
	counts := map[string]*count{}
	for _, c := range costlyRules() {
		counts[c.id] = &count{}
	}
	cfg, err := defaultsForTests()
	if err != nil {
		t.Fatal(err)
	}
	check := func(p, piece string) {
		lower := strings.ToLower(piece)
		for _, c := range costlyRules() {
			r := cfg.Rules[c.id]
			word := false
			for _, k := range r.Keywords {
				word = word || strings.Contains(lower, strings.ToLower(k))
			}
			if !word {
				continue
			}
			counts[c.id].words++
			if err := sameInRegions(r.Regex, c, piece); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if !c.mayHold(piece) {
				counts[c.id].ruledOut++
				if r.Regex.MatchString(piece) {
					t.Fatalf("%s: %s matches %.200q, its check says it cannot", p, c.id, piece)
				}
			}
		}
	}
	roots := []string{"..", filepath.Join(build.Default.GOROOT, "src", "net", "http"), filepath.Join(build.Default.GOROOT, "src", "crypto", "x509")}
	eachRealFile(t, roots, func(p, text string) {
		check(p, text)
		for _, line := range strings.SplitAfter(text, "\n") {
			check(p, line)
		}
		for i := 0; i < len(text); i += 1024 {
			check(p, text[i:min(len(text), i+1024)])
		}
	})
	for id, c := range counts {
		if c.words == 0 || c.ruledOut < c.words/2 {
			t.Errorf("%s: the check ruled out %d of %d pieces holding one of its words, want at least half", id, c.ruledOut, c.words)
		}
	}
}

// FuzzCostlyChecks: wherever a costly rule matches, its check must say it
// may.
func FuzzCostlyChecks(f *testing.F) {
	for _, s := range []string{
		"token: s.Zq81nv0aqJd81nzkWq0xAbCd\n", "VAULT=hvs." + strings.Repeat("aB3_-", 19),
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc", "lob_key = test_" + strings.Repeat("0a1b2c3d4e", 4),
		"x = s.\u212aq81nv0aqJd81nzkWq0xAbCd", "lob: te\u017ft_" + strings.Repeat("0a1b2c3d4e", 4),
		`api_key = "AKzx81nvq02nvaq18cnw"`, "secret: 8ahdg31nd81nd81ndla\n", `token, err := f()`,
		"passwd => 'Zq81nv0aqJd81nzk'", "auth, dGhpcyBpcyBhIHNlY3JldA==", "creds:::=`abcdefghijk0`",
		"ACCESS || abcdefghij;", "key ?= 0123456789", "to\u212Aen = 81nvq02nvaq18cnw",
		"\u017fecret = 81nvq02nvaq18cnw", "func f() { … } // token … = 81nvq02nvaq18cnw", "é token = \"81nvq02nvaq18cnw\" …",
		"x\napi_key \n\n\n=\n\n\n\n\n81nvq02nvaq18cnw\ny", "a\ntoken = 81nvq02nvaq18cnw\nkey: 'abcdefghijkl'\n\n\n\n\n\n\n\n\n\nb",
		"secret =\n\n\n\n\n\n81nvq02nvaq18cnw", "key=aaaaaaaaaaaa\nkey=bbbbbbbbbbbbbbb\n",
		"let password = 'Summer2024!';", "x\n  POSTGRES_PASSWORD: polar # db\ny", "export PGPASSWORD=polar9",
		"a\ndb.password=s3cr3t\r\nb", "PASS_WORD_X = hunter2", `"pass'" : "abcd"`, "pa\u017f\u017f = 'abcd'",
	} {
		f.Add(s)
	}
	cfg, err := defaultsForTests()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range costlyRules() {
			if !c.mayHold(text) && cfg.Rules[c.id].Regex.MatchString(text) {
				t.Fatalf("%s matches %q, its check says it cannot", c.id, text)
			}
			if err := sameInRegions(cfg.Rules[c.id].Regex, c, text); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// sameInRegions checks that a rule's expression matches in its regions of
// a text just where it matches in the whole text.
func sameInRegions(re *regexp.Regexp, c costlyRule, text string) error {
	if c.regions == nil {
		return nil
	}
	var inRegions [][]int
	regions := c.regions(text)
	for i, r := range regions {
		if r.start < 0 || r.start >= r.end || r.end > len(text) || i > 0 && r.start <= regions[i-1].end {
			return fmt.Errorf("%s: regions %v of a text of %d bytes", c.id, regions, len(text))
		}
		for _, m := range re.FindAllStringIndex(text[r.start:r.end], -1) {
			inRegions = append(inRegions, []int{m[0] + r.start, m[1] + r.start})
		}
	}
	if whole := re.FindAllStringIndex(text, -1); !slices.EqualFunc(whole, inRegions, slices.Equal) {
		return fmt.Errorf("%s matches %v in %q, %v in its regions %v", c.id, whole, text, inRegions, regions)
	}
	if len(regions) > 0 != c.mayHold(text) {
		return fmt.Errorf("%s: regions %v of %q, but its check says %v", c.id, regions, text, c.mayHold(text))
	}
	return nil
}

// TestGateWithoutCostlyRules: past skipAfter bytes the costly rules cannot
// match, a text each cannot match is scanned without it, which still finds
// what every other rule finds; a text one can match is still scanned by
// it.
func TestGateWithoutCostlyRules(t *testing.T) {
	g, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	clean := strings.Repeat("func add(a, b int) int { return a + b }\n", 40)
	for range skipAfter/len(clean) + 2 {
		if _, err := g.Scan(t.Context(), clean); err != nil {
			t.Fatal(err)
		}
		clean += "\n" // a text of its own each time: the run's memo would answer the same one
	}
	ds, err := g.detectors()
	if err != nil {
		t.Fatal(err)
	}
	if n := ds.skippable.Load(); n <= skipAfter {
		t.Fatalf("%d bytes counted, want more than %d", n, skipAfter)
	}
	aws := token(t, "AKIA{b32:16}", "without costly rules")
	for _, tc := range []struct {
		text, rule string
		detectors  int
	}{
		{"the id " + aws + " is here\n", "aws-access-token", 1},
		{`api_key = "Zq81nv0aqJd81nzkWq0x"` + "\n", genericRule, 2},
		{"lob = live_" + strings.Repeat("0a1b2c3d4e", 3) + "abcde\n", "lob-api-key", 2},
		// a JSON web token decodes: the detector that decodes scans it, with every rule
		{"the token is eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijk\n", "jwt", 1},
	} {
		if n := len(ds.passesFor(tc.text)); n != tc.detectors {
			t.Errorf("%q is scanned by %d detectors, want %d", tc.text, n, tc.detectors)
		}
		spans, err := g.Scan(t.Context(), tc.text)
		if err != nil {
			t.Fatal(err)
		}
		if len(spans) != 1 || spans[0].Rule != tc.rule {
			t.Errorf("Scan(%q) = %+v, want one %s", tc.text, spans, tc.rule)
		}
	}
}

// TestPassesFindAsOne: the passes passesFor picks past skipAfter (every
// rule but the costly ones, then each costly rule that may match, the
// generic one in its regions alone) find what one detector of every rule
// finds, gitleaks' precedence of a specific rule over a generic one on the
// same line included: on the corpus in the forms credentials are written
// in, the corpus in one text, and the module's own files.
func TestPassesFindAsOne(t *testing.T) {
	one, split := newGate(t, Options{}), newGate(t, Options{})
	for g, skipped := range map[*Gate]int64{one: math.MinInt64 / 2, split: skipAfter + 1} {
		ds, err := g.detectors()
		if err != nil {
			t.Fatal(err)
		}
		ds.skippable.Store(skipped)
	}
	splits := 0
	check := func(name, text string) {
		want, err := one.detect(t.Context(), text)
		if err != nil {
			t.Fatal(err)
		}
		got, err := split.detect(t.Context(), text)
		if err != nil {
			t.Fatal(err)
		}
		sortFindings(want)
		sortFindings(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: split passes find %+v, one detector %+v", name, got, want)
		}
		ds, _ := split.detectors()
		if len(ds.passesFor(text)) > 1 {
			splits++
		}
	}
	fs := corpus(t)
	all, _ := corpusText(fs)
	check("the corpus", all)
	for _, f := range fs {
		for _, form := range []string{"%s\n", "x = \"%s\"\n", "a:\n  b: %s\n", "first\r\nx = '%s'\r\nlast\r\n", "api_key = %s\n"} {
			check(f.Rule, fmt.Sprintf(form, f.Token))
		}
	}
	eachRealFile(t, []string{".."}, check)
	if splits < 100 {
		t.Errorf("only %d texts were scanned in split passes", splits)
	}
}

func sortFindings(fs []finding) {
	slices.SortFunc(fs, func(a, b finding) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end), strings.Compare(a.rule, b.rule))
	})
}
