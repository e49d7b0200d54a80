package pack

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// riskKindsLineByLine is riskKindsOf as first written, one line and one
// kind at a time: what the faster search must agree with.
func riskKindsLineByLine(e *entry) []string {
	var kinds []string
	seen := make([]bool, len(riskKinds))
	n := 0
scan:
	for _, h := range e.patch.Hunks {
		for _, l := range h.Lines {
			if l.Op == ' ' {
				continue
			}
			if n++; n > maxRiskLines || len(kinds) == len(riskKinds) {
				break scan
			}
			lower := strings.ToLower(l.Text)
			for i, k := range riskKinds {
				if !seen[i] && risky(l.Text, lower, i) {
					seen[i] = true
					kinds = append(kinds, k.name)
				}
			}
		}
	}
	if changed := e.additions() + e.deletions(); changed >= bigChange {
		kinds = append(kinds, "large change ("+thousands(changed)+" lines)")
	}
	return kinds
}

// risky reports whether a changed line touches a kind of risk, as
// riskKindsLineByLine asks.
func risky(line, lower string, kind int) bool {
	k := riskKinds[kind]
	for _, w := range k.words {
		if strings.Contains(lower, w) {
			return k.re.MatchString(line)
		}
	}
	return false
}

// TestRiskKindsAgree compares riskKindsOf with the line-by-line search on
// random changes made of risky words, their near misses and odd bytes.
func TestRiskKindsAgree(t *testing.T) {
	words := []string{"password := x", "Token", "select a from b", "SELECT * FROM t", "update t set a", "updated",
		"exec.Command(", "os/exec", "md5.Sum", "random.random()", "verify = False", "verify=True", "crypto/tls",
		"İstanbul", "to\u212Aen", "se\u017F\u017Fion", "session", "sessions", "evaluate", "eval(x)", "plain text", "ÀÉ token", "\xff\xfe", "tls.Config",
		"login", "Authorization", "authenticate", "hashlib", "insert into t", "delete from t", "query(", ".query(x)",
		// words inside identifiers, and the words the patterns need after others
		"accessToken", "_token", "9login", "\u212Atoken", "resourceUpdate(x)", "Update(ctx)", "bcrypt", "scrypt", "xmd5",
		"a.query(", "update", "set", "from", "into", "deleteFrom", "UPDATE users", "SET x", "selected", "insertInto", "reverify = False"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 500 {
		var hunks []gitctx.Hunk
		added := 0
		for range 1 + rng.IntN(3) {
			var h gitctx.Hunk
			for range rng.IntN(40) {
				var parts []string
				for range 1 + rng.IntN(3) {
					parts = append(parts, words[rng.IntN(len(words))])
				}
				op := []byte{' ', '+', '-'}[rng.IntN(3)]
				if op != ' ' {
					added++
				}
				h.Lines = append(h.Lines, gitctx.Line{Op: op, Text: strings.Join(parts, " ")})
			}
			hunks = append(hunks, h)
		}
		e := &entry{patch: &gitctx.Patch{Hunks: hunks, Added: added * rng.IntN(20)}}
		if got, want := riskKindsOf(e), riskKindsLineByLine(e); !slices.Equal(got, want) {
			t.Fatalf("round %d: riskKindsOf = %q, line by line %q", round, got, want)
		}
	}
}

// TestRiskWordsIndexFits: the word index numbers its byte pairs in a byte.
func TestRiskWordsIndexFits(t *testing.T) {
	if n := len(riskWords.lists); n == 0 || n > 255 {
		t.Fatalf("the risk words start with %d byte pairs; the index holds 1 to 255", n)
	}
}

// FuzzRiskKinds: riskKindsOf finds in any changed line what the
// line-by-line search finds.
func FuzzRiskKinds(f *testing.F) {
	for _, s := range []string{"password := x", "accessToken", "update t set a", "resourceUpdate(x) set", "bcrypt", "\u212Atoken", "a.query(", "select a from b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		e := &entry{patch: &gitctx.Patch{Hunks: []gitctx.Hunk{{Lines: []gitctx.Line{{Op: '+', Text: line}}}}}}
		if got, want := riskKindsOf(e), riskKindsLineByLine(e); !slices.Equal(got, want) {
			t.Errorf("%q: riskKindsOf = %q, line by line %q", line, got, want)
		}
	})
}
