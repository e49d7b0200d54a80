package neighbours

import (
	"slices"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
)

// TestModulePins builds a repository of several Go modules and bumps two
// dependencies in the root module: the other modules' go.mod and go.sum
// files that pin a version the bump moves from are neighbours, those
// holding both before those holding one, and all above the files with
// other evidence; a go.sum is a lock file cut to the moved modules, and
// the changed go.mod's own go.sum ranks first. A module on another
// version, a go.sum that keeps the old version's go.mod line alone, and a
// module requiring a dependency the change drops are not. With code
// changed beside the go.mod, the other modules' files take half the
// neighbours at most.
func TestModulePins(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{
		"go.mod":   "module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/x v1.0.0\n\texample.com/y v2.0.0 // indirect\n\texample.com/z v0.3.0\n)\n",
		"go.sum":   "example.com/x v1.0.0 h1:aaa=\nexample.com/x v1.0.0/go.mod h1:bbb=\n",
		"a/go.mod": "module example.com/app/a\n\nrequire example.com/x v1.0.0\n",
		"a/go.sum": "example.com/x v1.0.0 h1:aaa=\nexample.com/x v1.0.0/go.mod h1:bbb=\n",
		"b/go.mod": "module example.com/app/b\n\nrequire (\n\texample.com/x v1.0.0\n\texample.com/y v2.0.0\n)\n",
		"c/go.mod": "module example.com/app/c\n\nrequire example.com/x v0.9.0\n",
		"d/go.sum": "example.com/x v1.0.0/go.mod h1:bbb=\nexample.com/x v1.1.0 h1:ccc=\n",
		"e/go.mod": "module example.com/app/e\n\nrequire example.com/z v0.3.0\n",
		"main.go":  "package main\n",
	})
	r.Commit("base")
	r.WriteAll(map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/x v1.1.0\n\texample.com/y v2.1.0 // indirect\n)\n",
	})
	for _, noPerl := range []bool{false, true} {
		ns, _ := find(t, r.selectWorktree(), Options{noPerl: noPerl})
		ranksAbove(t, ns, "a/go.mod", "e/go.mod")
		wantReasons(t, ns, map[string]string{
			"b/go.mod": "it pins example.com/x at v1.0.0, which the change moves to v1.1.0 (and 1 more dependency the change moves)",
			"a/go.mod": "it pins example.com/x at v1.0.0, which the change moves to v1.1.0",
			"a/go.sum": "it pins example.com/x at v1.0.0",
		})
		ranksAbove(t, ns, "b/go.mod", "a/go.mod")
		ranksAbove(t, ns, "b/go.mod", "a/go.sum")
		if n := neighbour(t, ns, "a/go.sum"); !n.Lock || !slices.Equal(n.Focus, []string{"example.com/x"}) {
			t.Errorf("a/go.sum: lock %t, focus %q; want a lock file cut to example.com/x", n.Lock, n.Focus)
		}
		if len(ns) == 0 || ns[0].Path != "go.sum" || !ns[0].Lock {
			t.Errorf("want go.sum, the changed go.mod's own lock, first:\n%s", describe(ns))
		}
		absent(t, ns, "c/go.mod")
		if !noPerl {
			// Without PCRE, the search is by whole words, and a go.mod
			// line's pin counts.
			absent(t, ns, "d/go.sum")
		}
		if i := rank(ns, "e/go.mod"); i >= 0 && hasReason(ns[i], "pins") {
			t.Errorf("e/go.mod pins what the change drops, not what it moves: %q", ns[i].Reasons)
		}
	}

	// A change of code beside its go.mod gives the other modules' files
	// half the neighbours at most (with 4, 2: those holding the most
	// pins); the changed go.mod's own lock is not counted. A change of
	// module files alone gives them all.
	ns, _ := find(t, r.selectWorktree(), Options{Max: 4})
	neighbour(t, ns, "a/go.sum")
	r.WriteAll(map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	ns, _ = find(t, r.selectWorktree(), Options{Max: 4})
	neighbour(t, ns, "go.sum")
	neighbour(t, ns, "b/go.mod")
	neighbour(t, ns, "a/go.mod")
	absent(t, ns, "a/go.sum")
}

// TestPinsOfAChangedGoSum: a changed go.sum's own go.mod ranks first,
// though another module's go.mod pins more of what it moves.
func TestPinsOfAChangedGoSum(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{
		"a/go.mod": "module example.com/a\n\nrequire example.com/x v1.0.0\n",
		"a/go.sum": "example.com/x v1.0.0 h1:aaa=\nexample.com/y v2.0.0 h1:yyy=\n",
		"b/go.mod": "module example.com/b\n\nrequire (\n\texample.com/x v1.0.0\n\texample.com/y v2.0.0\n)\n",
	})
	r.Commit("base")
	r.WriteAll(map[string]string{"a/go.sum": "example.com/x v1.1.0 h1:bbb=\nexample.com/y v2.1.0 h1:zzz=\n"})
	ns, _ := find(t, r.selectWorktree(), Options{})
	if len(ns) < 2 || ns[0].Path != "a/go.mod" || ns[1].Path != "b/go.mod" {
		t.Errorf("want a/go.mod, then b/go.mod:\n%s", describe(ns))
	}
}

// TestPinsOnGoModLines: a go.sum whose change moves a requirement's
// go.mod line alone brings the other go.sum files that hold that line.
func TestPinsOnGoModLines(t *testing.T) {
	r := newTestRepo(t)
	r.WriteAll(map[string]string{
		"a/go.mod": "module example.com/a\n",
		"a/go.sum": "example.com/z v1.0.0/go.mod h1:zzz=\n",
		"b/go.sum": "example.com/z v1.0.0/go.mod h1:zzz=\n",
		"c/go.sum": "example.com/z v0.9.0/go.mod h1:yyy=\n",
	})
	r.Commit("base")
	r.WriteAll(map[string]string{"a/go.sum": "example.com/z v1.1.0/go.mod h1:www=\n"})
	for _, noPerl := range []bool{false, true} {
		ns, _ := find(t, r.selectWorktree(), Options{noPerl: noPerl})
		if n := neighbour(t, ns, "b/go.sum"); !n.Lock || !hasReason(n, "it pins example.com/z at v1.0.0, which the change moves to v1.1.0") {
			t.Errorf("b/go.sum: %+v", n)
		}
		absent(t, ns, "c/go.sum")
	}
}

// TestMovedPins reads the pins a go.mod's or a go.sum's patch moves.
func TestMovedPins(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []gitctx.Line
		want  []pin
	}{
		{"a require block's bump", []gitctx.Line{
			{Op: '-', Text: "\tgolang.org/x/net v0.21.0 // indirect"}, {Op: '+', Text: "\tgolang.org/x/net v0.22.0 // indirect"},
			{Op: '-', Text: "\tgithub.com/a/b/v2 v2.0.0-20240101-abcdef"}, {Op: '+', Text: "\tgithub.com/a/b/v2 v2.0.1"},
		}, []pin{{"golang.org/x/net", "v0.21.0", "v0.22.0", false}, {"github.com/a/b/v2", "v2.0.0-20240101-abcdef", "v2.0.1", false}}},
		{"a require directive", []gitctx.Line{
			{Op: '-', Text: "require example.com/x v1.0.0"}, {Op: '+', Text: "require example.com/x v1.0.1"},
		}, []pin{{"example.com/x", "v1.0.0", "v1.0.1", false}}},
		{"go.sum: the module line, twice over", []gitctx.Line{
			{Op: '-', Text: "google.golang.org/protobuf v1.31.0 h1:g0LD="},
			{Op: '-', Text: "google.golang.org/protobuf v1.31.0/go.mod h1:HV8Q="},
			{Op: '+', Text: "google.golang.org/protobuf v1.33.0 h1:uNO2="},
			{Op: '+', Text: "google.golang.org/protobuf v1.33.0/go.mod h1:c6P6="},
		}, []pin{{"google.golang.org/protobuf", "v1.31.0", "v1.33.0", false}}},
		{"go.sum: a requirement's go.mod alone", []gitctx.Line{
			{Op: '-', Text: "github.com/cncf/udpa/go v0.0.0-20200629-efcf912fb354/go.mod h1:Wmh="},
			{Op: '+', Text: "github.com/cncf/udpa/go v0.0.0-20201120-5459f2c99403/go.mod h1:Wmh="},
		}, []pin{{"github.com/cncf/udpa/go", "v0.0.0-20200629-efcf912fb354", "v0.0.0-20201120-5459f2c99403", true}}},
		{"dropped, added, moved back and forth, the go line", []gitctx.Line{
			{Op: '-', Text: "\texample.com/dropped v1.0.0"},
			{Op: '+', Text: "\texample.com/new v1.0.0"},
			{Op: '-', Text: "\texample.com/same v1.0.0"}, {Op: '+', Text: "\texample.com/same v1.0.0 // indirect"},
			{Op: '-', Text: "go 1.21"}, {Op: '+', Text: "go 1.22"},
			{Op: '-', Text: "toolchain go1.21.5"}, {Op: '+', Text: "toolchain go1.22.0"},
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &gitctx.File{Path: "go.mod"}
			p := &gitctx.Patch{Hunks: []gitctx.Hunk{{Lines: tc.lines}}}
			got := movedPins([]string{"go.mod"}, []*gitctx.File{f}, map[*gitctx.File]*gitctx.Patch{f: p})
			checkEqual(t, "moved pins", got, tc.want)
		})
	}
}

// FuzzMovedPins: whatever a go.mod's or go.sum's patch holds, each moved
// pin is one a removed line pins and an added line moves to another
// version, listed once, at most maxPins of them.
func FuzzMovedPins(f *testing.F) {
	f.Add("\texample.com/x v1.0.0 // indirect", "\texample.com/x v1.1.0 // indirect")
	f.Add("require a.b/c v0.0.0-2024-abc\nx.y/z v2.0.0+incompatible h1:=", "a.b/c v0.1.0\nx.y/z v2.0.1/go.mod h1:=")
	f.Fuzz(func(t *testing.T, removed, added string) {
		var lines []gitctx.Line
		for l := range strings.SplitSeq(removed, "\n") {
			lines = append(lines, gitctx.Line{Op: '-', Text: l})
		}
		for l := range strings.SplitSeq(added, "\n") {
			lines = append(lines, gitctx.Line{Op: '+', Text: l})
		}
		file := &gitctx.File{Path: "go.mod"}
		got := movedPins([]string{"go.mod"}, []*gitctx.File{file},
			map[*gitctx.File]*gitctx.Patch{file: {Hunks: []gitctx.Hunk{{Lines: lines}}}})
		if len(got) > maxPins {
			t.Errorf("%d pins, want at most %d", len(got), maxPins)
		}
		for i, p := range got {
			if p.module == "" || p.from == "" || p.to == "" || p.from == p.to {
				t.Errorf("pin %+v", p)
			}
			if !strings.Contains(removed, p.module) || !strings.Contains(removed, p.from) || !strings.Contains(added, p.to) {
				t.Errorf("pin %+v is not on the lines: -%q +%q", p, removed, added)
			}
			if slices.Contains(got[:i], p) {
				t.Errorf("pin %+v listed twice", p)
			}
		}
	})
}
