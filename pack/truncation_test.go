package pack

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// countedLines is a text of n lines "<word> 001" …, with a fake token on the
// lines named in secretAt (from 1).
func countedLines(word string, n int, secretAt ...int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %03d", word, i)
		if slices.Contains(secretAt, i) {
			b.WriteString(" token in prose: " + fakeGitHub)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Where truncRepo's notes.txt holds a credential: in the head and the
// tail that every case of TestTruncationLines shows, in the middle, and
// where only a head and tail longer than the defaults reach (118, 225): a
// line shown but not put through the gate would show the credential.
var noteSecrets = []int{2, 118, 150, 225, 299}

// truncRepo has guide files of every kind (a 300-line README.md among
// them) and a change that adds a line to notes.txt, now 300 lines with a
// credential on each of noteSecrets (its diff shows lines 297 to 300
// only), and adds wide.txt, 10 lines of 6,000 bytes each.
func truncRepo(t *testing.T) *gitctx.Change {
	t.Helper()
	r := newRepo(t, "trunc")
	r.WriteAll(map[string]string{
		"AGENTS.md":       "Run the tests.\n",
		"CLAUDE.md":       "See AGENTS.md.\n",
		"README.md":       countedLines("readme", 300),
		"CONTRIBUTING.md": "Send patches.\n",
		"go.mod":          "module example.com/trunc\n\ngo 1.22\n",
		"package.json":    "{\"name\": \"trunc\"}\n",
		"notes.txt":       countedLines("note", 299, noteSecrets...),
	})
	r.Commit("base")
	r.WriteAll(map[string]string{
		"notes.txt": countedLines("note", 300, noteSecrets...),
		"wide.txt":  strings.Repeat(strings.Repeat("w", 5999)+"\n", 10),
	})
	r.Commit("notes")
	return r.change("HEAD~1..HEAD")
}

// packed is what a JSON pack and its record say of each file.
type packed struct {
	rec      *Record
	content  map[string][]string // the lines of each file's content
	rep      map[string]string   // each file's representation in the record
	redacted map[string][]int    // the lines of each file's content with a placeholder
	diff     map[string]string   // each file's diff as the pack shows it
}

func buildPacked(t *testing.T, ch *gitctx.Change, opts Options) packed {
	t.Helper()
	res := build(t, ch, opts)
	p, err := parseJSON(res.Text)
	if err != nil {
		t.Fatalf("parse the pack: %v", err)
	}
	out := packed{rec: res.Record, content: map[string][]string{}, rep: map[string]string{}, redacted: map[string][]int{}, diff: map[string]string{}}
	for _, d := range p.Diff {
		out.diff[d.Path] = d.Patch
	}
	for _, c := range p.Contents {
		out.content[c.Path] = strings.Split(strings.TrimSuffix(c.Content, "\n"), "\n")
	}
	for _, f := range res.Record.Files {
		out.rep[f.Path] = f.Representation
	}
	for _, it := range res.Record.Redactions.Items {
		if it.Side == "new" {
			out.redacted[it.Path] = append(out.redacted[it.Path], it.Line)
		}
	}
	if strings.Contains(res.Text, "line withheld") {
		t.Errorf("a shown line was not through the gate:\n%s", res.Text)
	}
	if strings.Contains(res.Text, fakeGitHub) {
		t.Errorf("the pack holds the credential")
	}
	return out
}

// checkCut checks that lines are the head and tail of a text of n lines
// "<word> NNN" with a marker between them that contains why.
func checkCut(t *testing.T, lines []string, word string, n, head, tail int, why string) {
	t.Helper()
	var want []int
	for i := 1; i <= n; i++ {
		if i <= head || i > n-tail {
			want = append(want, i)
		}
	}
	if len(lines) != len(want)+1 {
		t.Fatalf("%d lines shown (%q … %q), want %d and a marker", len(lines), lines[0], lines[len(lines)-1], len(want))
	}
	marker := lines[head]
	lines = slices.Delete(slices.Clone(lines), head, head+1)
	if wantMarker := fmt.Sprintf("... [gitctx: %d lines omitted here", n-head-tail); !strings.HasPrefix(marker, wantMarker) || !strings.Contains(marker, why) {
		t.Errorf("marker %q, want %q… saying %q", marker, wantMarker, why)
	}
	for i, l := range lines {
		if prefix := fmt.Sprintf("%s %03d", word, want[i]); !strings.HasPrefix(l, prefix) {
			t.Fatalf("shown line %d is %q, want line %q", i+1, l, prefix)
		}
	}
}

// TestTruncationLines checks that HeadLines and TailLines decide what a
// cut file shows, in a Full pack (notes.txt over a tiny MaxFileBytes) and
// in a Summary (README.md, a long guide file): its lines, the marker, and
// which of its credentials are shown (and so recorded) as placeholders.
func TestTruncationLines(t *testing.T) {
	ch := truncRepo(t)
	c := counter(t)
	for _, tc := range []struct {
		name       string
		trunc      Truncation
		mode       string
		head, tail int
	}{
		{"defaults", Truncation{MaxFileBytes: 1}, "", 100, 50},
		{"10 and 5", Truncation{MaxFileBytes: 1, HeadLines: 10, TailLines: 5}, "", 10, 5},
		{"1 and 1", Truncation{MaxFileBytes: 1, HeadLines: 1, TailLines: 1}, "", 1, 1},
		{"120 and 80, more than the defaults", Truncation{MaxFileBytes: 1, HeadLines: 120, TailLines: 80}, "", 120, 80},
		{"only the head is set", Truncation{MaxFileBytes: 1, HeadLines: 3}, "", 3, 50},
		{"summary, 4 and 3", Truncation{HeadLines: 4, TailLines: 3}, "summary", 4, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := options(c, JSON, 0)
			opts.Mode, opts.Truncation = tc.mode, tc.trunc
			p := buildPacked(t, ch, opts)
			if tc.mode == "summary" {
				if got := p.rep["README.md"]; got != RepTruncated {
					t.Fatalf("README.md is %s, want truncated", got)
				}
				checkCut(t, p.content["README.md"], "readme", 300, tc.head, tc.tail, "to fit the token budget")
				return
			}
			if p.rec.Pack.Type != "full" {
				t.Fatalf("a %s pack (%s), want full", p.rec.Pack.Type, p.rec.Pack.SelectionReason)
			}
			if got := p.rep["notes.txt"]; got != RepTruncated {
				t.Fatalf("notes.txt is %s, want truncated", got)
			}
			checkCut(t, p.content["notes.txt"], "note", 300, tc.head, tc.tail, "over the 1-byte limit for whole files")
			var want []int
			for _, n := range noteSecrets {
				if n <= tc.head || n > 300-tc.tail {
					want = append(want, n)
				}
			}
			if got := p.redacted["notes.txt"]; !reflect.DeepEqual(got, want) {
				t.Errorf("placeholders on lines %v of notes.txt, want %v", got, want)
			}
		})
	}
}

// TestTruncationThreshold checks Truncation.MaxFileBytes: a Full pack
// shows a file larger than it by its head and tail, and a file of that
// size or less whole. A file with no more lines than the head and tail
// keep has nothing to cut: it is shown whole whatever its size (within
// Options.MaxFileBytes).
func TestTruncationThreshold(t *testing.T) {
	ch := truncRepo(t)
	c := counter(t)
	notes := len(countedLines("note", 300, noteSecrets...))
	for _, tc := range []struct {
		name      string
		max       int64
		notes     string // what notes.txt is shown as
		truncated int    // files the record counts as truncated
	}{
		{"default 51,200 bytes", 0, RepFull, 0},
		{"one byte under notes.txt", int64(notes - 1), RepTruncated, 1},
		{"exactly notes.txt", int64(notes), RepFull, 0},
		{"1,000 bytes", 1000, RepTruncated, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := options(c, JSON, 0)
			opts.Truncation.MaxFileBytes = tc.max
			p := buildPacked(t, ch, opts)
			if p.rec.Pack.Type != "full" {
				t.Fatalf("a %s pack (%s), want full", p.rec.Pack.Type, p.rec.Pack.SelectionReason)
			}
			if got := p.rep["notes.txt"]; got != tc.notes {
				t.Errorf("notes.txt is %s, want %s", got, tc.notes)
			}
			if got := p.rep["wide.txt"]; got != RepFull {
				t.Errorf("wide.txt (10 lines of 60,000 bytes) is %s, want full", got)
			}
			if got := p.rec.Stats.TruncatedFiles; got != tc.truncated {
				t.Errorf("%d files truncated, want %d", got, tc.truncated)
			}
			if tc.notes == RepFull && len(p.content["notes.txt"]) != 300 {
				t.Errorf("notes.txt shows %d lines, want all 300", len(p.content["notes.txt"]))
			}
		})
	}

	// The design's default cuts a long file over 51,200 bytes.
	r := newRepo(t, "big")
	r.Write("a.txt", "a\n")
	r.Commit("base")
	r.Write("big.txt", strings.Repeat(strings.Repeat("b", 299)+"\n", 200)) // 60,000 bytes
	r.Commit("big")
	p := buildPacked(t, r.change("HEAD~1..HEAD"), options(c, JSON, 0))
	if p.rec.Pack.Type != "full" || p.rep["big.txt"] != RepTruncated {
		t.Errorf("big.txt (60,000 bytes, 200 lines) is %s in a %s pack, want truncated in a full pack", p.rep["big.txt"], p.rec.Pack.Type)
	}
	if lines := p.content["big.txt"]; len(lines) != 151 || !strings.Contains(lines[100], "the file is 60,000 bytes, over the 51,200-byte limit") {
		t.Errorf("big.txt shows %d lines, want 100 + marker + 50", len(lines))
	}
}
