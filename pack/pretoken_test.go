package pack

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// The expressions tiktoken-go splits with (codec/o200k_base.go and
// codec/cl100k_base.go); the hand-written pre-tokenizers must find the
// same pieces.
const (
	o200kPattern  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

type pretokenizer struct {
	name    string
	piece   func(s string, i int) int
	pattern string
}

func pretokenizers() []pretokenizer {
	return []pretokenizer{
		{"o200k_base", o200kPiece, o200kPattern},
		{"cl100k_base", cl100kPiece, cl100kPattern},
	}
}

func piecesOf(s string, piece func(string, int) int) []string {
	var out []string
	for i := 0; i < len(s); {
		end := piece(s, i)
		if end == i {
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
			continue
		}
		out = append(out, s[i:end])
		i = end
	}
	return out
}

func regexpPieces(t testing.TB, re *regexp2.Regexp, s string) []string {
	var out []string
	m, err := re.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		out = append(out, m.String())
	}
	if err != nil {
		t.Fatalf("regexp2: %v", err)
	}
	return out
}

// pretokenCases are texts chosen for the expressions' corners: the
// optional prefix, letters in both of o200k's sets, contractions in every
// case, runs of digits, white space before a line break, a word and the
// end of the text, and the scripts whose letters are neither upper nor
// lower.
var pretokenCases = []string{
	"",
	"a",
	"func (p *Parser) Parse(src []byte) error {\n\treturn nil\n}\n",
	"HTTPServer parseURL XMLHttpRequest iOS ABC. ABCdef abcDEF",
	"don't DON'T it's IT'S we're WE'RE I've I'VE I'm I'M we'll WE'LL he'd HE'D 'twas 'S 'x",
	"the ſ: it'ſ, IT'ſ and 'ſ",
	"12345678 1,234.5 x1 ²³ ½ 𝟘𝟙𝟚𝟛",
	"a  b   c\t\td \n\n  e \r\n f\n",
	"trailing   ",
	"   \n",
	" \u00a0\u2003x\u0085y\u3000",
	"  !!\n// comment\n/* c */ a/b//c\r\n",
	"Ǆemo ǅemo ǆemo ʰʱ ʰA Aʰ ʰa",
	"日本語のテキスト 中文 한국어",
	"e\u0301t\u00e9 \u0301a \u0301\u0301 A\u0301B x\u0301\u0301Y",
	"Ωmega ΣΑΣ σας ß SS İstanbul",
	"'s'S'",
	"x'",
	"\u0300",
	"é",
	"👍🏽 😀 a😀b",
	"<|endoftext|> ${HOME} $(x) @decorator #include <stdio.h>",
	"\x7f a\x7fb !\x7f! \x7f\n",
}

// TestPretokenizersMatchRegexp: on the cases above and on every file of
// this module, each pre-tokenizer splits exactly as tiktoken-go's
// expression does.
func TestPretokenizersMatchRegexp(t *testing.T) {
	texts := append(slices.Clone(pretokenCases), moduleTexts(t)...)
	for _, p := range pretokenizers() {
		re := regexp2.MustCompile(p.pattern, regexp2.None)
		for _, s := range texts {
			got, want := piecesOf(s, p.piece), regexpPieces(t, re, s)
			if !slices.Equal(got, want) {
				i := 0
				for i < min(len(got), len(want)) && got[i] == want[i] {
					i++
				}
				t.Errorf("%s: piece %d of %.60q: got %q, regexp2 %q", p.name, i, s, got[i:min(i+3, len(got))], want[i:min(i+3, len(want))])
			}
		}
	}
}

// TestCountMatchesCodec: counting piece by piece gives what the codec
// gives for the whole text, valid UTF-8 or not.
func TestCountMatchesCodec(t *testing.T) {
	texts := append(slices.Clone(pretokenCases), moduleTexts(t)...)
	texts = append(texts, "invalid \xff\xfe UTF-8 \xc3", "\xed\xa0\x80 a surrogate")
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		c := newTiktoken(t, enc)
		total := 0
		for _, s := range texts {
			got, want := c.count(s), codecCount(c.codec(), s)
			if got != want {
				t.Errorf("%s: count of %.60q = %d, the codec counts %d", enc, s, got, want)
			}
			total += got
		}
		if total < 100_000 {
			t.Errorf("%s: only %d tokens compared", enc, total)
		}
	}
}

func newTiktoken(t testing.TB, encoding string) *tiktoken {
	c, err := NewCounter(encoding, 1)
	if err != nil {
		t.Fatal(err)
	}
	return c.(*tiktoken)
}

// moduleTexts returns every UTF-8 file of this module under 256 KB:
// Go, Markdown, YAML, JSON, shell and test data.
func moduleTexts(t testing.TB) []string {
	var texts []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 256<<10 {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if utf8.Valid(b) {
			texts = append(texts, string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(texts) < 300 {
		t.Fatalf("only %d texts: the walk of the module found too few files", len(texts))
	}
	return texts
}

// FuzzPretokenizers holds both pre-tokenizers to tiktoken-go's
// expressions on any valid UTF-8, and both counters to the codec's count.
func FuzzPretokenizers(f *testing.F) {
	for _, s := range pretokenCases {
		f.Add(s)
	}
	res := map[string]*regexp2.Regexp{}
	counters := map[string]*tiktoken{}
	for _, p := range pretokenizers() {
		res[p.name] = regexp2.MustCompile(p.pattern, regexp2.None)
		counters[p.name] = newTiktoken(f, p.name)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, c := range counters {
			if got, want := c.count(s), codecCount(c.codec(), s); got != want {
				t.Errorf("%s: count of %q = %d, the codec counts %d", name, s, got, want)
			}
		}
		if !utf8.ValidString(s) {
			return
		}
		for _, p := range pretokenizers() {
			got, want := piecesOf(s, p.piece), regexpPieces(t, res[p.name], s)
			if !slices.Equal(got, want) {
				t.Errorf("%s(%q) = %q, regexp2 %q", p.name, s, got, want)
			}
			if strings.Join(got, "") != strings.ReplaceAll(s, "\x7f", "") {
				t.Errorf("%s(%q): the pieces do not make up the text", p.name, s)
			}
		}
	})
}
