package neighbours

import (
	"fmt"
	"go/build"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// eachGoFile calls fn with every Go file of this module and of the
// toolchain's sources of a few packages (go/…, net/…, encoding/…, runtime,
// types2; not with -short): Go written every way it may be.
func eachGoFile(t *testing.T, fn func(path string, src []byte)) {
	t.Helper()
	roots := []string{".."}
	if !testing.Short() {
		src := filepath.Join(build.Default.GOROOT, "src")
		for _, dir := range []string{"go", "net", "encoding", "runtime", "cmd/compile/internal/types2"} {
			roots = append(roots, filepath.Join(src, dir))
		}
	}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fn(p, src)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestScanGoAgreesWithParser: on every Go file that parses (eachGoFile:
// some 1,900 files, 15.6 MB), scanGo reads what the syntax tree says (parseGo):
// the package, the imports, the top-level names and the selectors.
func TestScanGoAgreesWithParser(t *testing.T) {
	files, bytes := 0, 0
	eachGoFile(t, func(p string, src []byte) {
		if _, err := parser.ParseFile(token.NewFileSet(), p, src, parser.SkipObjectResolution); err != nil {
			return // scanGo reads broken files too, but need not agree there
		}
		files++
		bytes += len(src)
		want, got := parseGo(p, src), scanGo(p, src)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: scanGo and the parser differ\n%s", p, goFileDiff(got, want))
		}
	})
	if files < 10 {
		t.Fatalf("only %d Go files compared", files)
	}
	t.Logf("%d files, %d bytes", files, bytes)
}

func goFileDiff(got, want *goFile) string {
	var b strings.Builder
	if got.pkg != want.pkg {
		b.WriteString("pkg " + got.pkg + " want " + want.pkg + "\n")
	}
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"defines", got.defines, want.defines}, {"uses", got.uses, want.uses}, {"selectors", got.selectors, want.selectors},
		{"named", got.named, want.named}, {"imports", got.imports, want.imports}, {"aliases", got.aliases, want.aliases},
	} {
		if !reflect.DeepEqual(f.got, f.want) {
			b.WriteString(f.name + ":\n  got  " + short(f.got) + "\n  want " + short(f.want) + "\n")
		}
	}
	return b.String()
}

func short(v any) string {
	s := strings.ReplaceAll(fmtValue(v), "\n", " ")
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}

func fmtValue(v any) string { return fmt.Sprintf("%v", v) }

// TestScanGoOddCode: declarations and selectors written in the forms the
// toolchain's sources rarely use.
func TestScanGoOddCode(t *testing.T) {
	for _, src := range []string{
		"package a\nfunc (p (T)) M() {}\nfunc (s []T) N() {}\nfunc (m *pkg.T) O() {}\nfunc (**T) P() {}\nfunc (r *G[K, V]) Q() {}\n",
		"package a\nfunc (a, b T) M() {}\nfunc () N() {}\n",
		"package a\nvar (\n\tx, y = func() (int, int) { var z = 1; return z, z }()\n\t_ = 3\n)\nconst ( A = iota; B; C )\n",
		"package a\ntype (\n\tS struct{ f func(); g struct{ h int } }\n\tI interface{ M() }\n)\ntype F func(x.Y) z.W\n",
		"package a\nimport (\n\t\"runtime\"\n\t. \"runtime\"\n\tr \"runtime\"\n\t_ \"embed\"\n)\nvar _ = runtime.GOOS + r.GOARCH + GOOS\n",
		"package a\nfunc f() { a.b.c(); (x).y(); f().g; v := x.(T); _ = T.M; _ = (*T).M; p.q[r.s].t = u.\nv }\n",
		"package a\nvar v = struct{ a int }{a: 1}\nfunc g[T any](x T) T { return x }\nvar w = g[int]\n",
	} {
		want, got := parseGo("a.go", []byte(src)), scanGo("a.go", []byte(src))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: scanGo and the parser differ\n%s", src, goFileDiff(got, want))
		}
	}
}

// BenchmarkReadGo reads net/http's Go files as a seed is read: with the
// syntax tree (the reference) and with scanGo.
func BenchmarkReadGo(b *testing.B) {
	dir := filepath.Join(build.Default.GOROOT, "src", "net", "http")
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(paths) == 0 {
		b.Skipf("no Go files in %s", dir)
	}
	var srcs [][]byte
	total := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs, total = append(srcs, src), total+len(src)
	}
	for _, r := range []struct {
		name string
		read func(string, []byte) *goFile
	}{{"parser", parseGo}, {"scanner", scanGo}} {
		b.Run(r.name, func(b *testing.B) {
			b.SetBytes(int64(total))
			for b.Loop() {
				for _, src := range srcs {
					r.read("x.go", src)
				}
			}
		})
	}
}

// scannerTokens lists src's tokens with go/scanner, merged as goTokens
// merges them: the reference goTokens is held to.
func scannerTokens(src []byte) []goToken {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, func(token.Position, string) {}, 0)
	var toks []goToken
	depth := int32(0)
	for {
		pos, tok, lit := s.Scan()
		switch {
		case tok == token.EOF:
			return toks
		case tok.IsLiteral() && tok != token.IDENT:
			tok = token.STRING
		case tok.IsOperator() && !slices.Contains([]token.Token{token.LPAREN, token.RPAREN, token.LBRACK, token.RBRACK,
			token.LBRACE, token.RBRACE, token.COMMA, token.SEMICOLON, token.PERIOD, token.ELLIPSIS, token.MUL, token.INC, token.DEC}, tok):
			tok = token.ADD
		}
		t := goToken{kind: uint8(tok)}
		if tok == token.IDENT {
			t.start = int32(file.Offset(pos))
			t.end = t.start + int32(len(lit))
		}
		switch tok {
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth = max(0, depth-1)
		}
		t.depth = depth
		toks = append(toks, t)
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		}
	}
}

// mergeOperators merges each run of token.ADD into one: goTokens reads
// "==" as two operators where go/scanner reads one.
func mergeOperators(toks []goToken) []goToken {
	return slices.CompactFunc(slices.Clone(toks), func(a, b goToken) bool { return a.tok() == token.ADD && b.tok() == token.ADD })
}

// tokensDiffer describes where two token lists part, "" if they do not.
func tokensDiffer(got, want []goToken) string {
	got, want = mergeOperators(got), mergeOperators(want)
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("token %d: got %v, want %v (after %v)", i, got[i], want[i], want[max(0, i-3):i])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d tokens, want %d", len(got), len(want))
	}
	return ""
}

// TestGoTokensAgreeWithScanner: goTokens lists what go/scanner lists, on
// odd inputs and on every file of eachGoFile, broken ones too.
func TestGoTokensAgreeWithScanner(t *testing.T) {
	for _, src := range goTokenSeeds {
		if d := tokensDiffer(goTokens([]byte(src)), scannerTokens([]byte(src))); d != "" {
			t.Errorf("%q: %s", src, d)
		}
	}
	eachGoFile(t, func(p string, src []byte) {
		if d := tokensDiffer(goTokens(src), scannerTokens(src)); d != "" {
			t.Errorf("%s: %s", p, d)
		}
	})
}

var goTokenSeeds = []string{
	"", "\uFEFFpackage a", "x\n", "return\n", "x++\ny--\n", "a.b.c\n", "f(xs...)\n", "x := .5 + 1.e3 + 0x1p-2 + 0b101 + 0o17 + 1_000i + 0x1e+2\n",
	"s := \"a\\\"b\" + 'c' + '\\'' + `raw\nstring`\n", "s := \"unterminated\nx", "r := 'x\ny", "/* a */ x /* b\n */ y // c\nz",
	"x /* no line end */ y\n", "x /* unterminated", "x // end", "a <- -1; b <--1; c<-d\n", "<<--0", "x <<= <-c\n", "a*=b; **p; x&^=y\n",
	"é := ünï.cödé\n", "x # y\n", "x #\ny", "x \x00 y\n", "x \x00\n", "x \xff y\n", "x\u00a0y\n", "\"\\\n\"", "1..2", "x.\ny", "3.method\n",
}

// FuzzGoTokens: goTokens lists what go/scanner lists, on any input.
func FuzzGoTokens(f *testing.F) {
	for _, s := range goTokenSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if d := tokensDiffer(goTokens([]byte(src)), scannerTokens([]byte(src))); d != "" {
			t.Errorf("%q: %s", src, d)
		}
	})
}
