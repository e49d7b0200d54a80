package pack

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// TestStartSides: while the diff streams, the old sides of files whose
// new sides are at hand are made from them and their patches, and are
// git's; a file whose work-tree copy is edited still gets its old side
// made, from its content as read from git; a file added or deleted, or
// whose diff deletes nothing, gets none.
func TestStartSides(t *testing.T) {
	r := newRepo(t, "oldsides")
	r.WriteAll(map[string]string{
		"a.go":      "package a\n\nfunc A() int { return 1 }\n",
		"b.txt":     "one\ntwo\nthree\n",
		"grows.txt": "one\n",
		"gone.txt":  "bye\n",
		"crlf.txt":  "x\r\ny\r\n",
	})
	r.Commit("one")
	r.WriteAll(map[string]string{
		"a.go":      "package a\n\nfunc A() int { return 2 }\n",
		"b.txt":     "one\n2\nthree\n",
		"grows.txt": "one\ntwo\n",
		"new.txt":   "new\n",
		"crlf.txt":  "x\r\nz\r\n",
	})
	r.Git("rm", "-q", "gone.txt")
	r.Commit("two")
	if err := os.WriteFile(filepath.Join(r.Dir, "b.txt"), []byte("edited since\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	ch := r.change("HEAD~1..HEAD")
	opts := options(counter(t), Markdown, 0)
	opts.defaults()
	b := newBuilder(ch, opts)
	b.classify()
	patches, _, parsed := b.startPatches(ctx)
	if err := b.readContents(ctx); err != nil {
		t.Fatal(err)
	}
	wait := b.startSides(ctx, parsed)
	if _, err := patches(); err != nil {
		t.Fatal(err)
	}
	wait()
	made := map[string]bool{}
	for _, e := range b.entries {
		if e.ahead[1] == nil {
			continue
		}
		made[e.path] = true
		_, data, err := ch.Read(ctx, e.file, gitctx.Old, -1)
		if err != nil {
			t.Fatal(err)
		}
		if want := b.imageText(e, data); e.ahead[1].text != *want {
			t.Errorf("%s: old side made %q, git's is %q", e.path, e.ahead[1].text, *want)
		}
	}
	for path, want := range map[string]bool{"a.go": true, "b.txt": true, "crlf.txt": true, "grows.txt": false, "new.txt": false, "gone.txt": false} {
		if made[path] != want {
			t.Errorf("%s: old side made ahead: %v, want %v", path, made[path], want)
		}
	}

	// a change over maxAheadChange gets none made ahead
	b = newBuilder(ch, opts)
	b.classify()
	patches, _, parsed = b.startPatches(ctx)
	if err := b.readContents(ctx); err != nil {
		t.Fatal(err)
	}
	b.readBytes = maxAheadChange + 1
	wait = b.startSides(ctx, parsed)
	if _, err := patches(); err != nil {
		t.Fatal(err)
	}
	wait()
	for _, e := range b.entries {
		if e.ahead[1] != nil {
			t.Errorf("%s: old side made ahead for a change over maxAheadChange", e.path)
		}
	}
}
