package secrets

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"
)

// genericRule's expression as the default rules hold it, compiled.
var genericExpr = sync.OnceValue(func() *regexp.Regexp {
	cfg, err := defaultsForTests()
	if err != nil {
		panic(err)
	}
	return cfg.Rules[genericRule].Regex
})

func TestMayHoldGeneric(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"an assignment", `api_key = "AKzx81nvq02nvaq18cnw"`, true},
		{"a colon and a long value", "secret: 8ahdg31nd81nd81ndla\n", true},
		{"a Go short assignment", `token := "x9vn1Nq0zv81naqkd7"`, true},
		{"base64 after a comma", "auth, dGhpcyBpcyBhIHNlY3JldA==", true},
		{"=> and a value", "passwd => 'Zq81nv0aqJd81nzk'", true},
		{"no value", `token, err := f()`, false},
		{"a short value", `key = "abc"`, false},
		{"no assignment", "the keyboard layout is read from the access list", false},
		{"a word too far from its assignment", "token" + strings.Repeat("x", 21) + "=zzzzzzzzzzzzzzzz", false},
		{"a word just near enough", "token" + strings.Repeat("x", 20) + "=zzzzzzzzzzzzzzzz", true},
		{"no word", "value = 81nvq02nvaq18cnw", false},
		{"a Kelvin sign", "to\u212Aen = 81nvq02nvaq18cnw", true},
		{"a long s", "\u017fecret = 81nvq02nvaq18cnw", true},
		{"other bytes outside ASCII", "func f() { … } // tökén: ünïcödé", false},
		{"an assignment beside other bytes outside ASCII", "é token = \"81nvq02nvaq18cnw\" …", true},
		{"a byte outside ASCII breaks the value", "token = 81nvq…02nvaq18cnw", false},
		{"empty", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mayHoldGeneric(tc.text); got != tc.want {
				t.Errorf("mayHoldGeneric(%q) = %v, want %v", tc.text, got, tc.want)
			}
			if !mayHoldGeneric(tc.text) && genericExpr().MatchString(tc.text) {
				t.Errorf("the rule matches %q, mayHoldGeneric says it cannot", tc.text)
			}
		})
	}
}

// TestGenericFoldsOutsideASCII: the only characters outside ASCII that
// the expression's letters, words and classes match under (?i) are the
// Kelvin sign and the long s, which mayHoldGeneric looks for. Each one is
// tried as every class of the expression, and as each of its words'
// letters.
func TestGenericFoldsOutsideASCII(t *testing.T) {
	classes := []*regexp.Regexp{}
	for _, c := range []string{`[\w.-]`, `[ \t\w.-]`, `[\s'"]`, `[\x60'"\s=]`, `[\w.=-]`, `[a-z0-9]`, `[a-z0-9+/]`,
		`[\x60'"\s;),&<.}\]>]`, `[=>:|?,]`, `[acdehiklnoprstuwy]`} {
		classes = append(classes, regexp.MustCompile(`(?i)^`+c+`$`))
	}
	var found []rune
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		for _, re := range classes {
			if re.MatchString(string(r)) {
				found = append(found, r)
				break
			}
		}
	}
	if want := []rune{'\u017f', '\u212a'}; !slices.Equal(found, want) {
		t.Errorf("characters outside ASCII the expression can match: %q, want %q", found, want)
	}
}
