package pack

import (
	"strings"
	"testing"
)

// TestHeldText: readSides takes a new side from the entry instead of
// reading it again only where the entry holds it as imageText would make
// it from the file: a text file's content, not yet dropped.
func TestHeldText(t *testing.T) {
	whole := Truncation{MaxFileBytes: 1 << 20, HeadLines: 100, TailLines: 50}
	long := strings.Repeat("line\n", 400)
	for _, tc := range []struct {
		name string
		make func() *entry
		want string // "" for none
	}{
		{"text", func() *entry { e := &entry{kind: KindText}; e.setText("a\nb\n", whole); return e }, "a\nb\n"},
		{"long, held", func() *entry { e := &entry{kind: KindText}; e.setText(long, whole); return e }, long},
		{"long, held after a Full pack could show it", func() *entry {
			e := &entry{kind: KindText}
			e.setText(long, whole)
			(&builder{}).dropContent(e)
			return e
		}, long},
		{"long, dropped", func() *entry {
			e := &entry{kind: KindText}
			e.setText(long, whole)
			(&builder{heldBytes: maxHeldBytes - len(long) + 1}).dropContent(e)
			return e
		}, ""},
		{"over the limit", func() *entry {
			e := &entry{kind: KindText}
			e.setText(long, Truncation{MaxFileBytes: 100, HeadLines: 10, TailLines: 5})
			return e
		}, ""},
		{"empty", func() *entry { e := &entry{kind: KindText}; e.setText("", whole); return e }, ""},
		{"not read", func() *entry { return &entry{kind: KindText} }, ""},
		{"LFS pointer", func() *entry { e := &entry{kind: KindLFSPointer}; e.setText("version x\n", whole); return e }, ""},
		{"symbolic link", func() *entry { e := &entry{kind: KindSymlink}; e.setText("target", whole); return e }, ""},
		{"lock", func() *entry { e := &entry{kind: KindText, lock: true}; e.setText("a 1\n", whole); return e }, ""},
	} {
		got := tc.make().heldText()
		switch {
		case tc.want == "" && got != nil:
			t.Errorf("%s: held %q, want none", tc.name, *got)
		case tc.want != "" && (got == nil || *got != tc.want):
			t.Errorf("%s: held %v, want the content", tc.name, got)
		}
	}
}

// TestGateText: an oversize file's new side, which no pack shows whole, is
// still held for the gate while the builder has room, so that readSides
// does not read and prove it again; a lock file's is not (the gate reads
// the whole file, not the entries a pack shows).
func TestGateText(t *testing.T) {
	over := Truncation{MaxFileBytes: 100, HeadLines: 10, TailLines: 5}
	long := strings.Repeat("line\n", 400)
	for _, tc := range []struct {
		name      string
		entry     entry
		heldBytes int
		held      bool
	}{
		{"oversize", entry{kind: KindText}, 0, true},
		{"oversize, no room", entry{kind: KindText}, maxHeldBytes - len(long) + 1, false},
		{"oversize lock", entry{kind: KindText, lock: true}, 0, false},
	} {
		b := &builder{heldBytes: tc.heldBytes}
		b.opts.Truncation = over
		e := tc.entry
		b.setContent(&e, []byte(long))
		if e.heldText() != nil {
			t.Errorf("%s: the content is held, want it dropped", tc.name)
		}
		got := e.gateText()
		switch {
		case tc.held && (got == nil || *got != long):
			t.Errorf("%s: gate text %v, want the whole side", tc.name, got)
		case !tc.held && got != nil:
			t.Errorf("%s: gate text held, want none", tc.name)
		}
		if want := tc.heldBytes + map[bool]int{true: len(long)}[tc.held]; b.heldBytes != want {
			t.Errorf("%s: %d bytes held, want %d", tc.name, b.heldBytes, want)
		}
	}
	e := &entry{kind: KindText}
	e.setText("a\nb\n", Truncation{MaxFileBytes: 1 << 20, HeadLines: 100, TailLines: 50})
	if got := e.gateText(); got == nil || *got != "a\nb\n" {
		t.Errorf("short content: gate text %v, want the content", got)
	}
}
