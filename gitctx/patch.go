package gitctx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// Patch is the unified diff of one file.
type Patch struct {
	Hunks    []Hunk
	Binary   bool  // git found the content binary; there are no hunks
	Oversize bool  // the patch text is over the size limit; there are no hunks
	Size     int64 // bytes of patch text git printed for the file
	Added    int   // lines added
	Deleted  int   // lines deleted
}

// Hunk is one "@@ -a,b +c,d @@" block of a patch.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Section            string // what git printed after the second "@@" (the enclosing function)
	Lines              []Line
}

// Line is one line of a hunk.
type Line struct {
	Op        byte   // ' ' context, '+' added, '-' deleted
	Text      string // without its newline; raw bytes, not necessarily UTF-8
	NoNewline bool   // the file ends here without a newline
}

// Patches streams the patches of the change's files in the order of Files
// and calls fn for each file for which want returns true. Patches of other
// files are read past without being parsed. A patch whose text is over
// maxBytes (> 0) is not parsed either: fn gets it with Oversize set and
// only its line counts, as it gets a large untracked file's (see
// LargeFile), which git never prints.
func (c *Change) Patches(ctx context.Context, want func(*File) bool, maxBytes int64, fn func(*File, *Patch) error) error {
	if c.repo == nil || c.diffArgs == nil {
		for _, f := range c.Files {
			if f.patch != nil && want(f) {
				if err := fn(f, f.patch); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if ok, err := c.readPending(ctx, want, maxBytes, fn); ok {
		return err
	}
	fn, flush := c.withLargePatches(want, fn)
	read := func(out io.Reader) error {
		return splitPatches(ctx, out, c.Files, want, maxBytes, fn)
	}
	args := append(append([]string{"diff", "-p"}, patchFlags...), diffFlags...)
	args = append(append(args, c.diffArgs...), "--")
	g := c.repo.git
	g.env = append(slices.Clip(g.env), c.diffEnv...)
	if err := g.stream(ctx, read, args...); err != nil {
		return err
	}
	return flush()
}

// patchFlags are the flags of every patch gitctx reads.
var patchFlags = []string{"-U3", "--full-index", "--src-prefix=a/", "--dst-prefix=b/"}

// splitPatches cuts git's patch output into one chunk per file. Every
// content line of a git patch starts with ' ', '+', '-' or '\', so a line
// starting with "diff --git " always begins the next file. Chunks come in
// the order of the raw listing; each is checked against the expected file
// and, if it does not match, parsed and matched by name.
func splitPatches(ctx context.Context, out io.Reader, files []*File, want func(*File) bool, maxBytes int64, fn func(*File, *Patch) error) error {
	rd := bufio.NewReaderSize(out, 64<<10)
	next := 0
	var (
		chunk   bytes.Buffer
		current *File
		keep    bool
		over    *lineCounter // the running counts of an oversize patch
	)
	flush := func() error {
		defer chunk.Reset()
		switch {
		case current == nil || !keep:
			return nil
		case over != nil:
			return fn(current, over.p)
		}
		p, err := parseChunk(chunk.Bytes())
		if err != nil {
			return fmt.Errorf("parse the diff of %s: %w", current.Path, err)
		}
		p.Size = int64(chunk.Len())
		return fn(current, p)
	}
	for {
		line, err := readLine(rd)
		if len(line) > 0 {
			// A type change (a file becoming a link) comes as two chunks with
			// the same header: the second continues the first.
			header := bytes.HasPrefix(line, []byte("diff --git "))
			again := header && current != nil && string(bytes.TrimRight(line, "\n")) == gitHeader(current)
			if header && !again {
				if ferr := flush(); ferr != nil {
					return ferr
				}
				if cerr := ctx.Err(); cerr != nil {
					return cerr
				}
				current, next = matchHeader(line, files, next)
				keep, over = current != nil && want(current), nil
			}
			if again && over != nil {
				over.inHunk = false
			}
			switch {
			case !keep:
			case over != nil:
				over.p.Size += int64(len(line))
				over.count(line)
			default:
				chunk.Write(line)
				if maxBytes > 0 && int64(chunk.Len()) > maxBytes {
					over = &lineCounter{p: &Patch{Oversize: true, Size: int64(chunk.Len())}}
					for _, l := range bytes.SplitAfter(chunk.Bytes(), []byte("\n")) {
						if bytes.HasPrefix(l, []byte("diff --git ")) {
							over.inHunk = false
						}
						over.count(l)
					}
					chunk.Reset()
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return flush()
		}
		if err != nil {
			return fmt.Errorf("read git diff: %w", err)
		}
	}
}

// readLine reads one line of any length, with its newline.
func readLine(rd *bufio.Reader) ([]byte, error) {
	line, err := rd.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	long := append([]byte{}, line...)
	rest, err := rd.ReadBytes('\n')
	return append(long, rest...), err
}

// lineCounter counts the added and deleted lines of patch text as it
// streams by, without parsing it.
type lineCounter struct {
	p      *Patch
	inHunk bool // past the first "@@": "+++" and "---" are content now
}

func (c *lineCounter) count(line []byte) {
	switch {
	case bytes.HasPrefix(line, []byte("@@")):
		c.inHunk = true
	case !c.inHunk:
	case bytes.HasPrefix(line, []byte("+")):
		c.p.Added++
	case bytes.HasPrefix(line, []byte("-")):
		c.p.Deleted++
	}
}

// matchHeader finds the file a "diff --git" line belongs to, starting at
// files[next], and returns it with the index after it.
func matchHeader(line []byte, files []*File, next int) (*File, int) {
	got := strings.TrimRight(string(line), "\n")
	for i := next; i < len(files); i++ {
		if got == gitHeader(files[i]) {
			return files[i], i + 1
		}
	}
	for i := range min(next, len(files)) { // out of order: looked for from the start
		if got == gitHeader(files[i]) {
			return files[i], next
		}
	}
	return nil, next
}

// gitHeader is the "diff --git" line git prints for f.
func gitHeader(f *File) string {
	oldPath := f.Path
	if f.OldPath != "" {
		oldPath = f.OldPath
	}
	return "diff --git " + quoteC("a/"+oldPath) + " " + quoteC("b/"+f.Path)
}

// quoteC quotes a path the way git does with core.quotePath=false: only
// when it holds a double quote, a backslash or a control character.
func quoteC(s string) string {
	needs := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 || c == 0x7f {
			needs = true
			break
		}
	}
	if !needs {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// parseChunk parses the patch of one file (two parts, for a type change).
func parseChunk(chunk []byte) (*Patch, error) {
	files, _, err := gitdiff.Parse(&lineReader{chunk})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 || len(files) > 2 {
		return nil, fmt.Errorf("expected the patch of one file, found %d", len(files))
	}
	p := convert(files[0])
	for _, f := range files[1:] {
		q := convert(f)
		p.Hunks = append(p.Hunks, q.Hunks...)
		p.Added += q.Added
		p.Deleted += q.Deleted
		p.Binary = p.Binary || q.Binary
	}
	return p, nil
}

// lineReader hands go-gitdiff a patch a line at a time, straight from its
// bytes: given a plain reader, go-gitdiff wraps it in a 4 KB buffer of its
// own, one for each of the thousands of files of a large change.
type lineReader struct{ b []byte }

func (r *lineReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// ReadString is bufio.Reader's: the bytes up to and including delim, or
// the rest and io.EOF.
func (r *lineReader) ReadString(delim byte) (string, error) {
	if len(r.b) == 0 {
		return "", io.EOF
	}
	i := bytes.IndexByte(r.b, delim)
	if i < 0 {
		s := string(r.b)
		r.b = nil
		return s, io.EOF
	}
	s := string(r.b[:i+1])
	r.b = r.b[i+1:]
	return s, nil
}

// convert turns a go-gitdiff file into a Patch.
func convert(f *gitdiff.File) *Patch {
	p := &Patch{Binary: f.IsBinary}
	for _, frag := range f.TextFragments {
		h := Hunk{
			OldStart: int(frag.OldPosition), OldLines: int(frag.OldLines),
			NewStart: int(frag.NewPosition), NewLines: int(frag.NewLines),
			Section: frag.Comment,
			Lines:   make([]Line, 0, len(frag.Lines)),
		}
		for _, l := range frag.Lines {
			text, hadNewline := strings.CutSuffix(l.Line, "\n")
			op := byte(' ')
			switch l.Op {
			case gitdiff.OpAdd:
				op = '+'
				p.Added++
			case gitdiff.OpDelete:
				op = '-'
				p.Deleted++
			}
			h.Lines = append(h.Lines, Line{Op: op, Text: text, NoNewline: !hadNewline})
		}
		p.Hunks = append(p.Hunks, h)
	}
	return p
}
