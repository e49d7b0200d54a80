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
