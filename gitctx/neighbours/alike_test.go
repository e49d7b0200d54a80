package neighbours

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// goModOf is a go.mod whose go line and require block sit far enough
// apart that a change to one is not the same code as a change to the other.
func goModOf(goVersion, depVersion string) string {
	return "module example.com/app\n\ngo " + goVersion + "\n" + strings.Repeat("\n// spacing\n", 6) +
		"\nrequire example.com/dep " + depVersion + "\n"
}

// TestFindAlike: of two files that changed with go.mod, the one changed by
// the earlier commits whose change to go.mod was like the change (a bump
// of the go line, or of a dependency) ranks first, though the other shared
// more commits, and says which commit was like it.
func TestFindAlike(t *testing.T) {
	const ci, notes = ".github/workflows/ci.yml", "deps/notes.txt"
	for _, tc := range []struct {
		name              string
		goBumps, depBumps int
		change            string // the new go.mod
		first, second     string
	}{
		{"a go bump", 1, 3, goModOf("1.22", "v1.3.0"), ci, notes},
		{"a dependency bump", 3, 1, goModOf("1.23", "v1.2.0"), notes, ci},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRepo(t)
			goV, depV := 20, 0
			r.commitEach(map[string]string{"go.mod": goModOf("1.20", "v1.0.0"), ci: "go-version: 1.20\n", notes: "v1.0.0\n"})
			for range tc.goBumps {
				goV++
				r.WriteAll(map[string]string{"go.mod": goModOf(fmt.Sprintf("1.%d", goV), fmt.Sprintf("v1.%d.0", depV)), ci: fmt.Sprintf("go-version: 1.%d\n", goV)})
				r.Commit("go bump")
			}
			for range tc.depBumps {
				depV++
				r.WriteAll(map[string]string{"go.mod": goModOf(fmt.Sprintf("1.%d", goV), fmt.Sprintf("v1.%d.0", depV)), notes: fmt.Sprintf("v1.%d.0\n", depV)})
				r.Commit("dependency bump")
			}
			r.WriteAll(map[string]string{"go.mod": tc.change})
			r.Commit("the change")
			ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
			ranksAbove(t, ns, tc.first, tc.second)
			if n := neighbour(t, ns, tc.first); !hasReasonMatching(n, `^changed in [0-9a-f]{12}, an earlier commit with a like change$`) {
				t.Errorf("%s reasons %q", tc.first, n.Reasons)
			}
			if n := neighbour(t, ns, tc.second); hasReasonMatching(n, `like change`) {
				t.Errorf("%s reasons %q; want no like change", tc.second, n.Reasons)
			}
		})
	}
}

// TestMostAlike: the commits whose changed words are most like the
// change's come first, a rare word counting for more than a common one;
// a commit with no word in common is left out, as is one that shares only
// a word every commit uses; at most maxAlikeCommits are kept, and all of
// those tied at the last place.
func TestMostAlike(t *testing.T) {
	commit := func(sha, text string) gitctx.HunkCommit { return gitctx.HunkCommit{SHA: sha, Changed: []byte(text)} }
	same := func(n int, text string) []gitctx.HunkCommit {
		var out []gitctx.HunkCommit
		for i := range n {
			out = append(out, commit(fmt.Sprint("s", i), text))
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		query string
		past  []gitctx.HunkCommit
		want  []string
	}{
		{"a rare word first, in any case", "Alpha beta",
			[]gitctx.HunkCommit{commit("b1", "beta\n"), commit("a", "alpha\n"), commit("b2", "beta\n"), commit("b3", "beta gamma\n"), commit("x", "delta\n")},
			[]string{"a", "b1", "b2", "b3"}},
		{"nothing in common", "alpha", []gitctx.HunkCommit{commit("x", "beta\n")}, nil},
		{"only a word every commit uses", "println(change)",
			[]gitctx.HunkCommit{commit("x", "println(a1)\n"), commit("y", "println(b1)\n")}, nil},
		{"no words", "", []gitctx.HunkCommit{commit("x", "beta\n")}, nil},
		{"ties at the last place kept", "beta", append(same(7, "beta\n"), commit("z", "zeta\n")), []string{"s0", "s1", "s2", "s3", "s4", "s5", "s6"}},
		{"at most five", "beta",
			[]gitctx.HunkCommit{commit("1", "beta\n"), commit("2", "beta one\n"), commit("3", "beta one two\n"), commit("4", "beta one two three\n"),
				commit("5", "beta one two three four\n"), commit("6", "beta one two three four five\n"), commit("7", "beta one two three four five six\n"),
				commit("z", "zeta\n")},
			[]string{"1", "2", "3", "4", "5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, m := range mostAlike([]byte(tc.query), tc.past) {
				got = append(got, m.sha)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("mostAlike = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLikeWords: names of three characters or more, and anything that
// holds a version number.
func TestLikeWords(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"go 1.22", []string{"1.22"}},
		{"toolchain go1.22.0", []string{"toolchain", "go1.22.0"}},
		{"\tgithub.com/spf13/cobra v1.8.0 // indirect", []string{"github", "com", "spf13", "cobra", "v1.8.0", "indirect"}},
		{"x := Foo_Bar(2x, 10, io)", []string{"Foo_Bar"}},
		{"end. 3. .5 1..2", []string{"end"}},
		{"", nil},
	} {
		var got []string
		likeWords([]byte(tc.text), func(w []byte) { got = append(got, string(w)) })
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("likeWords(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// FuzzMostAlike: any changed lines and past changes compare without a
// panic; every word likeWords yields is a piece of the text, and the like
// commits come most like first, each with a likeness in (0, 1].
func FuzzMostAlike(f *testing.F) {
	f.Add([]byte("-go 1.21\n+go 1.22\n"), []byte("go 1.20\ngo 1.21\n"), []byte("cobra v1.8.0\n"))
	f.Add([]byte("Alpha beta"), []byte("alpha"), []byte("beta 1..2 .5 x9.9.9"))
	f.Fuzz(func(t *testing.T, changed, a, b []byte) {
		for _, text := range [][]byte{changed, a, b} {
			likeWords(text, func(w []byte) {
				if len(w) == 0 || !bytes.Contains(text, w) {
					t.Errorf("likeWords(%q) yielded %q", text, w)
				}
			})
		}
		past := []gitctx.HunkCommit{{SHA: "a", Changed: a}, {SHA: "b", Changed: b}, {SHA: "c", Changed: []byte("zeta")}}
		got := mostAlike(changed, past)
		for i, m := range got {
			if !(m.likeness > 0 && m.likeness <= 1+1e-9) {
				t.Errorf("commit %s has likeness %v, want (0, 1]", m.sha, m.likeness)
			}
			if i > 0 && got[i-1].likeness < m.likeness {
				t.Errorf("commit %s (%v) after %s (%v)", m.sha, m.likeness, got[i-1].sha, got[i-1].likeness)
			}
		}
	})
}
