package pack

import (
	"reflect"
	"strings"
	"testing"
)

// TestContextQuery ranks the repository's files against a description: the
// doc about it first, with its score as the reason; nothing unrelated,
// nothing excluded or binary, no changed file.
func TestContextQuery(t *testing.T) {
	ch := contextRepo(t).change("HEAD~1..HEAD")
	tests := []struct {
		name  string
		query string
		limit int
		want  []string
	}{
		{"greetings", "how greetings and salutations are composed", 0,
			[]string{"docs/salutations.md", "src/greeter/compose_greeting.go"}},
		{"the best only", "how greetings and salutations are composed", 1, []string{"docs/salutations.md"}},
		{"an identifier", "ComposeGreeting", 0, []string{"src/greeter/compose_greeting.go", "docs/salutations.md"}},
		{"invoices", "Where are invoices made?", 0, []string{"docs/billing.md"}},
		{"nothing matches", "kubernetes helm chart", 0, nil},
		{"stop words only", "how and the", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := buildContext(t, ch, ContextOptions{Query: tt.query, QueryLimit: tt.limit, ErrorMode: ErrorStrict})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			last := 1e9
			for _, f := range res.Record.Files {
				if f.Role != RoleContext {
					continue
				}
				got = append(got, f.Path)
				if f.Score == nil || *f.Score <= 0 || *f.Score > last || !strings.HasPrefix(f.Reason, "query score ") {
					t.Errorf("%s: score %v, reason %q; want a positive score, not above the one before, as the reason", f.Path, f.Score, f.Reason)
				} else {
					last = *f.Score
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("chosen %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTerms checks the tokenizer: words, identifiers split at camelCase
// and snake_case (and kept whole), plurals, stop words.
func TestTerms(t *testing.T) {
	tests := []struct{ in, want string }{
		{"How greetings and salutations are composed", "greeting salutation composed"},
		{"parseHTTPRequest", "parse http request parsehttprequest"},
		{"snake_case_name", "snake case name snakecasename"},
		{"docs/salutations.md", "doc salutation md"},
		{"libraries v2 x", "library v2"},
		{"Grüße an alle", "grüße alle"},
		{"ID2Name", "id2 name id2name"},
	}
	for _, tt := range tests {
		var got []string
		terms(tt.in, func(s string) { got = append(got, s) })
		if strings.Join(got, " ") != tt.want {
			t.Errorf("terms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestBM25 checks the ranking against values worked out by hand, and its
// shape: a rarer term weighs more, a longer document less.
func TestBM25(t *testing.T) {
	q := []string{"salutation", "greeting"}
	docs := []queryDoc{
		{path: "a", length: 10, tf: map[string]int{"salutation": 1}},
		{path: "b", length: 10, tf: map[string]int{"greeting": 1}},
		{path: "c", length: 10, tf: map[string]int{"greeting": 1}},
		{path: "d", length: 30, tf: map[string]int{"greeting": 1}},
		{path: "e", length: 20, tf: map[string]int{}},
	}
	s := bm25(docs, q)
	// N 5, avg length 16: idf(salutation) = ln(1 + 4.5/1.5) = ln 4;
	// a: ln 4 · 2.2 / (1 + 1.2·(0.25 + 0.75·10/16)) = 1.3863 · 2.2 / 1.8625
	if want := 1.3863 * 2.2 / 1.8625; s[0] < want-0.001 || s[0] > want+0.001 {
		t.Errorf("score of a = %.4f, want %.4f", s[0], want)
	}
	if !(s[0] > s[1] && s[1] == s[2] && s[2] > s[3] && s[4] == 0) {
		t.Errorf("scores %v: want a > b = c > d > e = 0", s)
	}
}
