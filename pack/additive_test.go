package pack

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gitctx/gitctx/gitctx"
)

// Token additivity is what lets the shaper count a pack piece by piece: the
// count of the whole pack must be the sum of its segments' counts, which
// holds only while every segment is valid (see segment).

// awkward are pieces of content that start or end the way a segment must
// not: white space, slashes, line breaks, CRLF, letters that join,
// combining marks, backticks.
var awkward = []string{
	"  two leading spaces\n", "/slash first\n", "// comment first\n", "\n\nleading newlines\n",
	"crlf\r\nline\r\n", "lone cr\r", "\ttab first\n", "unicode: héllo wörld 日本語 🎉\n",
	"```\nbackticks\n```\n", "````four````\n", "no trailing newline", "#heading\n", "<tag>\n",
	"{\"json\": 1}\n", ",comma\n", "\u00a0nbsp first\n", "\u200bzero width\n", "\u0301combining first\n",
	"123 digits\n", "'s contraction\n", "trailing spaces   \n", "   ", "\n", "'", "\u3000ideographic space\n",
	"func main() {\n\tprintln(\"hi\")\n}\n", "- list\n- items\n", "| a | b |\n",
}

// awkwardNames are file names that must be shown quoted or escaped.
var awkwardNames = []string{
	"plain.go", "dir/with space.txt", "ünï/çödé.py", " lead.txt", "trail.txt ", "tab\tname.txt",
	"nl\nname.md", "bidi\u202etxt.exe", "`tick`.md", "pipe|name.md", "a/b/c/deep.rs", "quote\"name.txt",
}

// randomContent glues a few awkward pieces together.
func randomContent(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.Intn(5) {
		b.WriteString(awkward[rng.Intn(len(awkward))])
	}
	return b.String()
}

// awkwardRepos builds repositories whose changes hold awkward content, and
// returns their changes: a range, a staged change on an unborn branch, and
// a work tree with untracked files.
func awkwardRepos(t *testing.T, seed int64) map[string]*gitctx.Change {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	changes := map[string]*gitctx.Change{}

	r := newRepo(t, "ranged")
	for _, name := range awkwardNames {
		r.Write(name, randomContent(rng))
	}
	r.Commit("base")
	for i, name := range awkwardNames {
		switch i % 3 {
		case 0:
			r.Write(name, randomContent(rng)+randomContent(rng))
		case 1:
			r.Write("new/"+name, randomContent(rng))
		}
	}
	r.Git("rm", "-q", awkwardNames[2])
	r.Commit("change\n\n  indented body with ``` and /slashes\n")
	changes["range"] = r.change("HEAD~1..HEAD")

	s := newRepo(t, "staged")
	for _, name := range awkwardNames[:6] {
		s.Write(name, randomContent(rng))
	}
	s.Git("add", "-A")
	changes["staged"] = s.change("--staged")

	w := newRepo(t, "worktree")
	w.Write("tracked.txt", randomContent(rng))
	w.Commit("base")
	w.Write("tracked.txt", randomContent(rng))
	w.Write("untracked/ new.txt", randomContent(rng))
	changes["worktree"] = w.change("--worktree")
	return changes
}

func TestTokensAdditive(t *testing.T) {
	c := counter(t)
	types := map[string]int{}
	for seed := int64(1); seed <= 3; seed++ {
		for kind, ch := range awkwardRepos(t, seed) {
			for _, f := range formats {
				for _, limit := range []int{0, 2500, 1200, 700} {
					name := fmt.Sprintf("seed%d/%s/%s/%d", seed, kind, f, limit)
					t.Run(name, func(t *testing.T) { types[checkAdditive(t, c, ch, options(c, f, limit))]++ })
				}
			}
		}
	}
	if types["full"] == 0 || types["summary"] == 0 {
		t.Errorf("pack types built: %v, want both full and summary packs", types)
	}
}

// checkAdditive builds a pack and checks that its count is the sum of its
// segments' counts, that each stored count is right and each segment
// valid. It returns the pack's type.
func checkAdditive(t *testing.T, c Counter, ch *gitctx.Change, opts Options) string {
	t.Helper()
	res, err := Build(t.Context(), ch, opts)
	if errors.Is(err, ErrBudget) {
		t.Skipf("no pack fits %d tokens", opts.Budget.Limit)
	}
	if err != nil {
		t.Fatal(err)
	}
	whole := c.Count(res.Text)
	if whole != res.Record.Pack.Tokens {
		t.Errorf("Count(pack) = %d, record says %d tokens", whole, res.Record.Pack.Tokens)
	}
	segs, err := shapeSegments(t, ch, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := join(segs); got != res.Text {
		t.Fatalf("the segments are not Build's pack:\n%s", textDiff(got, res.Text))
	}
	sum := 0
	for _, s := range segs {
		if !s.valid() {
			t.Errorf("segment %s is not valid: starts %q, ends %q", s.key, head(s.str(), 12), tail(s.str(), 12))
		}
		if n := c.Count(s.str()); n != s.tokens {
			t.Errorf("segment %s holds a stale count: %d, Count says %d", s.key, s.tokens, n)
		}
		sum += c.Count(s.str())
	}
	if sum != whole {
		t.Errorf("sum of segment counts = %d, Count(pack) = %d", sum, whole)
	}
	if !utf8.ValidString(res.Text) {
		t.Errorf("the pack is not valid UTF-8")
	}
	return res.Record.Pack.Type
}

func head(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func TestSegmentValid(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"## Files\n", true},
		{"<file>\n", true},
		{",{}\n", true},
		{"", false},
		{"no newline", false},
		{" leading space\n", false},
		{"\nleading newline\n", false},
		{"\tleading tab\n", false},
		{"\u00a0nbsp\n", false},
		{"/slash\n", false},
		{"\u3000ideographic space\n", false},
	}
	for _, tt := range tests {
		if got := newSegment("k", tt.text).valid(); got != tt.want {
			t.Errorf("valid(%q) = %t, want %t", tt.text, got, tt.want)
		}
	}
}

// FuzzSegmentsAdditive checks the claim behind segment: two valid segments
// count, together, the sum of their counts.
func FuzzSegmentsAdditive(f *testing.F) {
	for _, s := range awkward {
		f.Add(s, "x")
	}
	f.Add("  ", "/")
	f.Add("a's", "'s")
	f.Add("\r", "\n")
	f.Add("🎉", "\u0301")
	c := counter(f)
	f.Fuzz(func(t *testing.T, x, y string) {
		if !utf8.ValidString(x) || !utf8.ValidString(y) {
			t.Skip("a pack is valid UTF-8")
		}
		for _, pair := range [][2]string{
			{"### x\n" + x + "\n", "### y\n" + y + "\n"},
			{"<a>" + x + "\n", ",{" + y + "\n"},
			{"\"k\":" + x + "\n", "```" + y + "\n"},
		} {
			a, b := newSegment("a", pair[0]), newSegment("b", pair[1])
			if !a.valid() || !b.valid() {
				t.Fatalf("test segments not valid: %q %q", a.str(), b.str())
			}
			if got, want := c.Count(a.str()+b.str()), c.Count(a.str())+c.Count(b.str()); got != want {
				t.Errorf("Count(%q + %q) = %d, sum of counts = %d", a.str(), b.str(), got, want)
			}
		}
	})
}
