package neighbours

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// streamOf is a closed patch stream of the change's patches, in the order
// of its files, as the pack hands them on.
func streamOf(ch *gitctx.Change, patches map[*gitctx.File]*gitctx.Patch) chan FilePatch {
	s := make(chan FilePatch, len(patches))
	for _, c := range ch.Files {
		if p, ok := patches[c]; ok {
			s <- FilePatch{File: c, Patch: p}
		}
	}
	close(s)
	return s
}

// goFiles is n Go files, each defining and calling names of its own.
func goFiles(n int, body string) map[string]string {
	files := map[string]string{}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "package p\n\nfunc %sDefined%d() {\n\t%sCalled%dFirst()\n\t%sCalled%dSecond()\n}\n", body, i, body, i, body, i)
		fmt.Fprintf(&b, "\nfunc %sOther%d() {}\n", body, i)
		files[fmt.Sprintf("p/f%02d.go", i)] = b.String()
	}
	return files
}

// TestChangeSymbolsFromStream: the names taken from the patch stream are
// those of all the patches, whether the stream holds enough names (it is
// then left unread) or not.
func TestChangeSymbolsFromStream(t *testing.T) {
	for _, c := range []struct {
		name    string
		files   int
		stopped bool // the stream is left unread
	}{
		{"a change with more names than are searched for", 40, true},
		{"a small change", 2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newTestRepo(t)
			r.commitEach(goFiles(c.files, "old"))
			r.WriteAll(goFiles(c.files, "new"))
			r.Commit("rename everything")
			ch := r.selectRange("HEAD~1..HEAD")
			patches := allPatches(t, ch)
			want := symbolsOf(ch.Files, patches)
			stream := streamOf(ch, patches)
			f := &finder{ch: ch, opts: Options{PatchStream: stream, Patches: patches}}
			got, err := f.changeSymbols(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			checkEqual(t, "defined names", got.defined, want.defined)
			checkEqual(t, "used names", got.used, want.used)
			if left := len(stream) > 0; left != c.stopped {
				t.Errorf("%d patches left unread in the stream; want some left: %v", len(stream), c.stopped)
			}
		})
	}
}

// TestChangeSymbolsFromCutStream: a stream that ends after its first
// patches, too few to fill the lists, gives the names of all the patches.
func TestChangeSymbolsFromCutStream(t *testing.T) {
	r := newTestRepo(t)
	r.commitEach(goFiles(40, "old"))
	r.WriteAll(goFiles(40, "new"))
	r.Commit("rename everything")
	ch := r.selectRange("HEAD~1..HEAD")
	patches := allPatches(t, ch)
	stream := make(chan FilePatch, 2)
	for _, c := range ch.Files[:2] {
		stream <- FilePatch{File: c, Patch: patches[c]}
	}
	close(stream)
	f := &finder{ch: ch, opts: Options{PatchStream: stream, Patches: patches}}
	got, err := f.changeSymbols(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := symbolsOf(ch.Files, patches)
	checkEqual(t, "defined names", got.defined, want.defined)
	checkEqual(t, "used names", got.used, want.used)
}

// TestFindWithPatchStream: a patch stream changes nothing Find returns.
func TestFindWithPatchStream(t *testing.T) {
	r := newTestRepo(t)
	files := goFiles(30, "old")
	files["q/use.go"] = "package q\n\nfunc use() { oldDefined3(); oldOther7() }\n"
	r.commitEach(files)
	r.WriteAll(goFiles(30, "new"))
	r.Commit("rename everything")
	ch := r.selectRange("HEAD~1..HEAD")
	patches := allPatches(t, ch)
	plain, plainGuides := find(t, ch, Options{Max: 50, Patches: patches})
	streamed, streamedGuides := find(t, ch, Options{Max: 50, Patches: patches, PatchStream: streamOf(ch, patches)})
	checkEqual(t, "neighbours", streamed, plain)
	checkEqual(t, "guides", streamedGuides, plainGuides)
}
