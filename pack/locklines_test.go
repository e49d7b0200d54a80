package pack

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestShortenDigests(t *testing.T) {
	hex64 := strings.Repeat("0123456789abcdef", 4)
	for _, tc := range []struct {
		name, line, want string
		digest           bool
	}{
		{"uv.lock wheel",
			`{ url = "https://files.pythonhosted.org/packages/96/f0/` + hex64[:60] + `/anyio-4.13.0.tar.gz", hash = "sha256:` + hex64 + `", size = 1 },`,
			`{ url = "https://files.pythonhosted.org/packages/96/f0/0123456789abcdef…/anyio-4.13.0.tar.gz", hash = "sha256:0123456789abcdef…", size = 1 },`, true},
		{"go.sum", "golang.org/x/net v0.30.0 h1:AcW1SDZMkb8IpzCdQUaIq2sP4sZ4zw+55h6ynffypl4=",
			"golang.org/x/net v0.30.0 h1:AcW1SDZMkb8IpzCd…", true},
		{"npm integrity", `      "integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg==",`,
			`      "integrity": "sha512-v2kDEe57lecTulaD…",`, true},
		{"git commit id", `"reference": "` + hex64[:40] + `"`, `"reference": "0123456789abcdef…"`, true},
		{"short hex stays", `checksum = "0123456789abcdef0123"`, `checksum = "0123456789abcdef0123"`, false},
		{"uuid stays", `id = "123e4567-e89b-12d3-a456-426614174000" and more text`, `id = "123e4567-e89b-12d3-a456-426614174000" and more text`, false},
		{"placeholder kept", `"resolved": "https://r.example.com/x.tgz?token=[REDACTED:github-pat#1]", "integrity": "sha1-` + strings.Repeat("Ab9+", 7) + `"`,
			`"resolved": "https://r.example.com/x.tgz?token=[REDACTED:github-pat#1]", "integrity": "sha1-Ab9+Ab9+Ab9+Ab9+…"`, true},
	} {
		got, digest := shortenDigests(tc.line)
		if got != tc.want || digest != tc.digest {
			t.Errorf("%s:\n got %q, %t\nwant %q, %t", tc.name, got, digest, tc.want, tc.digest)
		}
	}
}

func TestCollapseLikeLines(t *testing.T) {
	wheel := func(op byte, host string, n int) line {
		return line{op: op, text: fmt.Sprintf(`{ url = "https://%s/p/x-%d.whl", hash = "sha256:0123…" },`, host, n), digest: true}
	}
	var in []line
	for i := range 6 {
		in = append(in, wheel('-', "files.pythonhosted.org", i))
	}
	in = append(in, line{op: '+', text: "wheels = ["})
	for i := range 5 {
		in = append(in, wheel('+', "files.pythonhosted.org", i))
	}
	in = append(in, wheel('+', "evil.example.com", 9)) // another source breaks the run
	for i := range 3 {
		in = append(in, wheel('+', "files.pythonhosted.org", i)) // too short a run
	}
	in = append(in, line{op: '+', text: "]"})
	red := wheel('+', "files.pythonhosted.org", 7)
	red.items = []RedactionItem{{Placeholder: "[REDACTED:github-pat#1]"}}
	in = append(in, wheel('+', "files.pythonhosted.org", 5), wheel('+', "files.pythonhosted.org", 6), red,
		wheel('+', "files.pythonhosted.org", 8), wheel('+', "files.pythonhosted.org", 9))

	var got []string
	for _, l := range collapseLikeLines(in) {
		got = append(got, string(rune(max(l.op, ' ')))+l.text)
	}
	marker := func(n int) string {
		return fmt.Sprintf(" ... [gitctx: %d more lines like the one above, a file from files.pythonhosted.org and its digest each] ...", n)
	}
	want := []string{
		"-" + in[0].text, marker(5),
		"+wheels = [",
		"+" + in[7].text, marker(4),
		"+" + in[12].text,
		"+" + in[13].text, "+" + in[14].text, "+" + in[15].text, "+]",
		"+" + in[17].text, "+" + in[18].text, "+" + red.text, "+" + in[20].text, "+" + in[21].text,
	}
	if !slices.Equal(got, want) {
		t.Errorf("collapsed to\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// FuzzShortenDigests checks that no digest survives whole, that a line
// without one is left as it is, and that shortening twice changes nothing.
func FuzzShortenDigests(f *testing.F) {
	for _, s := range []string{
		"golang.org/x/net v0.30.0 h1:AcW1SDZMkb8IpzCdQUaIq2sP4sZ4zw+55h6ynffypl4=",
		`"integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg=="`,
		`checksum = "` + strings.Repeat("ab12", 16) + `"`,
		"x" + strings.Repeat("0", 40) + " " + strings.Repeat("f", 33) + "_",
		"zh:" + strings.Repeat("a", 64),
	} {
		f.Add(s)
	}
	hexWord := regexp.MustCompile(`\b[0-9a-fA-F]{32,}\b`)
	f.Fuzz(func(t *testing.T, line string) {
		out, changed := shortenDigests(line)
		if !changed && out != line {
			t.Fatalf("%q became %q, but no digest was reported", line, out)
		}
		if changed && len(out) >= len(line) {
			t.Fatalf("%q became %q, no shorter", line, out)
		}
		if m := hexWord.FindString(out); m != "" {
			t.Fatalf("%q keeps the digest %q", out, m)
		}
		if again, _ := shortenDigests(out); again != out {
			t.Fatalf("shortened again: %q became %q", out, again)
		}
	})
}

// TestCollapseKeepsWhatNamesAPackage checks which runs of lock lines are
// counted: go.sum's lines name a module and a version each and are always
// shown; poetry.lock's files and a Pipfile.lock's hashes are counted.
func TestCollapseKeepsWhatNamesAPackage(t *testing.T) {
	run := func(format string) []line {
		var ls []line
		for i := range 5 {
			text, digest := shortenDigests(fmt.Sprintf(format, i, strings.Repeat(fmt.Sprint(i), 64)))
			ls = append(ls, line{op: '+', text: text, digest: digest})
		}
		return ls
	}
	for _, tc := range []struct {
		name, format, marker string // marker "": every line shown
	}{
		{"go.sum", "golang.org/x/mod%d v0.30.0 h1:%s=", ""},
		{"poetry.lock", `    {file = "charset_normalizer-3.4.%d-py3-none-any.whl", hash = "sha256:%s"},`, "4 more lines like the one above, a file and its digest each"},
		{"Pipfile.lock", `                "sha256:%[2]s",`, "4 more lines like the one above, a digest each"},
		{"terraform", `    "zh:%[2]s",`, "4 more lines like the one above, a digest each"},
	} {
		out := collapseLikeLines(run(tc.format))
		switch {
		case tc.marker == "" && len(out) != 5:
			t.Errorf("%s: %d lines shown, want all 5", tc.name, len(out))
		case tc.marker != "" && (len(out) != 2 || !strings.Contains(out[1].text, tc.marker)):
			t.Errorf("%s: shown as %+v, want a line and %q", tc.name, out, tc.marker)
		}
	}
}
