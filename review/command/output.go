package command

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"unicode"
)

// errTooLarge stops a command whose answer is over maxOutput bytes.
var errTooLarge = errors.New("the answer is larger than 32 MiB")

// escapes matches terminal escape sequences: CSI (colours, cursor
// movement) and OSC (titles, hyperlinks) ones.
var escapes = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?`)

// capped keeps standard output up to maxOutput bytes; a write beyond
// fails, which ends the copy and makes the command's write fail too.
type capped struct {
	buf  bytes.Buffer
	full bool
}

func (c *capped) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > maxOutput {
		c.full = true
		return 0, errTooLarge
	}
	return c.buf.Write(p)
}

func (c *capped) String() string { return c.buf.String() }

// tail keeps the last stderrTail bytes written to it.
type tail struct{ buf []byte }

func (t *tail) Write(p []byte) (int, error) {
	if len(p) >= stderrTail {
		t.buf = append(t.buf[:0], p[len(p)-stderrTail:]...)
		return len(p), nil
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > stderrTail {
		t.buf = t.buf[:copy(t.buf, t.buf[len(t.buf)-stderrTail:])]
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.buf) }

// clean makes a command's standard error safe to show on a terminal and
// in a log: escape sequences and control characters other than newline
// and tab removed, invalid UTF-8 (a cut rune, say) replaced.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = escapes.ReplaceAllString(s, "")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}
