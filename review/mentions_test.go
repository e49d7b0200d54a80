package review

import (
	"strings"
	"testing"
)

func TestQuietMentions(t *testing.T) {
	const z = "\u200b"
	for _, tt := range []struct{ in, want string }{
		{"cc @octocat and @octo-org/security-team", "cc @" + z + "octocat and @" + z + "octo-org/security-team"},
		{"@alice: please look", "@" + z + "alice: please look"},
		{"(@bob)", "(@" + z + "bob)"},
		{"mail me at dev@example.com", "mail me at dev@example.com"},
		{"the `@Override` annotation and @carol", "the `@Override` annotation and @" + z + "carol"},
		{"```java\n@Override\nvoid f() {}\n```\nthanks @dave", "```java\n@Override\nvoid f() {}\n```\nthanks @" + z + "dave"},
		{"```json\n{\"findings\": [{\"title\": \"ask @erin\"}]}\n```", "```json\n{\"findings\": [{\"title\": \"ask @" + z + "erin\"}]}\n```"},
		{"~~~\n@decorator\n~~~", "~~~\n@decorator\n~~~"},
		{"a path like src/@types/node", "a path like src/@types/node"},
		{"@@ -1,3 +1,4 @@", "@@ -1,3 +1,4 @@"},
		{"no mention: @ alone, @-dash", "no mention: @ alone, @-dash"},
	} {
		if got := quietMentions(tt.in); got != tt.want {
			t.Errorf("quietMentions(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
	if got := quietMentions("@x"); !strings.Contains(got, z) {
		t.Errorf("a mention at the start was left: %q", got)
	}
}

// FuzzQuietMentions: quieting only ever inserts zero-width spaces, each
// right after an @, and never inside a code block other than json.
func FuzzQuietMentions(f *testing.F) {
	for _, s := range []string{"cc @octocat", "```go\n@x\n```\n@y", "```json\n{\"a\": \"@b\"}\n```", "`@a` @b `c", "~~~~\n@a\n~~~\n@b\n~~~~", "a@b @-c @@d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if strings.Contains(in, "\u200b") {
			return
		}
		out := quietMentions(in)
		if strings.ReplaceAll(out, "\u200b", "") != in {
			t.Fatalf("quietMentions(%q) = %q: more than zero-width spaces changed", in, out)
		}
		if n := strings.Count(out, "@\u200b"); n != strings.Count(out, "\u200b") {
			t.Fatalf("quietMentions(%q) = %q: a zero-width space not after an @", in, out)
		}
		if !strings.Contains(in, "```") && !strings.Contains(in, "~~~") && !strings.Contains(in, "`") && mention.MatchString(in) && out == in {
			t.Fatalf("quietMentions(%q) left a mention in prose", in)
		}
	})
}
