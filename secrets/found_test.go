package secrets

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFoundValues: a credential a rule finds is redacted, with the same
// placeholder, where it appears again in the same text without anything a
// rule knows it by; in other texts only once the gate looks everywhere
// (and then in every text, RedactFound included). A value shorter than
// minFoundValue is not looked for.
func TestFoundValues(t *testing.T) {
	ctx := context.Background()
	g, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	const pw = "Tr0ub4dor0536!q"
	red, _, err := g.RedactString(ctx, "db_password = \""+pw+"\"\nlogin(\"admin\", \""+pw+"\")\n")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(red.String(), "\n")
	if strings.Contains(red.String(), pw) || !strings.HasPrefix(lines[0], `db_password = "[REDACTED:`) {
		t.Fatalf("the same text, redacted:\n%s", red)
	}
	placeholder := lines[0][len(`db_password = "`) : len(lines[0])-1]
	if lines[1] != `login("admin", "`+placeholder+`")` {
		t.Errorf("the value again in the same text: %q, want the placeholder %s", lines[1], placeholder)
	}

	other := "rotate to " + pw + " today"
	if red, _, _ := g.RedactString(ctx, other); red.String() != other {
		t.Errorf("another text before Everywhere: %q, want it as it was", red)
	}
	if g.Known() != 0 {
		t.Errorf("Known() = %d before Everywhere, want 0", g.Known())
	}
	g.Everywhere()
	if g.Known() != 1 {
		t.Errorf("Known() = %d, want 1", g.Known())
	}
	want := "rotate to " + placeholder + " today"
	if red, hits, _ := g.Dry().RedactString(ctx, other); !strings.HasPrefix(red.String(), "rotate to [REDACTED:password") || len(hits) != 1 {
		t.Errorf("another text after Everywhere, a dry gate: %q, %v", red, hits)
	}
	if red, _, _ := g.RedactString(ctx, other); red.String() != want {
		t.Errorf("another text after Everywhere: %q, want %q", red, want)
	}
	if red, hits := g.RedactFound(other); red.String() != want || len(hits) != 1 {
		t.Errorf("RedactFound = %q, %v; want %q", red, hits, want)
	}
	if red, _ := g.RedactFound("db_password = \"" + pw + "\""); !strings.Contains(red.String(), placeholder) {
		t.Errorf("RedactFound left the value where a rule would find it: %q", red)
	}

	for _, v := range []string{"short1!", "        "} {
		if got := valueOf(v, finding{kind: kindLiteral, secretStart: 0, secretEnd: len(v)}); got != "" {
			t.Errorf("valueOf(%q) = %q, want none", v, got)
		}
	}
}

// TestLooksMade: the values looked for by value look made to be
// credentials; words and identifiers a rule took for one do not.
func TestLooksMade(t *testing.T) {
	for v, want := range map[string]bool{
		"Tr0ub4dor0536!q":                  true,
		"SvjElv1mWkeqg2yr1XxIbinQYiJVcsYL": true,
		"password123":                      true,
		"sk-proj-abc123":                   true,
		"SvjElvmWkeqgyrXxIbinQYiJVcsYL":    true,
		"123456789012":                     true,
		"password":                         false,
		"changeme":                         false,
		"my_secret_key":                    false,
		"getPassword":                      false,
		"some-kebab-name":                  false,
		"12345678":                         false,
		"correct horse battery":            false,
	} {
		if got := looksMade(v); got != want {
			t.Errorf("looksMade(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestFoundValueRuleOrder: a value two rules found is named by the first
// rule by name, whichever scan found it first.
func TestFoundValueRuleOrder(t *testing.T) {
	const text = "Tr0ub4dor0536!q"
	f := func(rule string) []finding {
		return []finding{{secretStart: 0, secretEnd: len(text), rule: rule, kind: kindLiteral}}
	}
	for _, order := range [][2]string{{"zz-rule", "aa-rule"}, {"aa-rule", "zz-rule"}} {
		fv := newFoundValues()
		fv.learn(text, f(order[0]))
		fv.learn(text, f(order[1]))
		if got := fv.rule[text]; got != "aa-rule" {
			t.Errorf("learnt by %v: rule %q, want aa-rule", order, got)
		}
	}
}

// TestFoundValuesMany: in a text of more findings than are looked for one
// by one (maxValuesOneByOne), each value is still found again wherever it
// is repeated.
func TestFoundValuesMany(t *testing.T) {
	g, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var assign, repeat strings.Builder
	var values []string
	for i := range 3 * maxValuesOneByOne {
		v := fmt.Sprintf("Q%dx7Kp2Lm9Vr4Tz%02d", i, i) // made: letters and digits
		values = append(values, v)
		fmt.Fprintf(&assign, "db_password_%d = \"%s\"\n", i, v)
		fmt.Fprintf(&repeat, "login(\"svc%d\", \"%s\")\n", i, v)
	}
	red, _, err := g.RedactString(context.Background(), assign.String()+repeat.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range values {
		if strings.Contains(red.String(), v) {
			t.Errorf("%s is left in:\n%s", v, red)
			break
		}
	}
}

// TestValueIndex: a valueIndex finds what looking for each value does.
func TestValueIndex(t *testing.T) {
	values := []string{"abcdefgh", "abcdefghij", "bcdefghi", "zzzzzzzz", "abcdefgX"}
	text := "xxabcdefghijyy abcdefgX zzzzzzzzz bcdefghi abcdefg"
	var got, want []string
	newValueIndex(values).each(text, func(start, i int) { got = append(got, fmt.Sprint(start, values[i])) })
	for at := range text {
		for _, v := range values {
			if strings.HasPrefix(text[at:], v) {
				want = append(want, fmt.Sprint(at, v))
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("each found %v, want %v", got, want)
	}
}
