package neighbours

import (
	"fmt"
	"testing"
)

// TestCommonNameDefinition: a changed line that calls a name used across
// the repository (more than maxReferences files) does not make the file
// defining it a neighbour; one used in a few files still does. The files
// that use a name are counted with the file defining it and the changed
// file.
func TestCommonNameDefinition(t *testing.T) {
	for _, tc := range []struct {
		callers int
		want    bool
	}{
		{callers: maxReferences - 2, want: true},  // 30 users: diag.js, app.js, 28 callers
		{callers: maxReferences - 1, want: false}, // 31
	} {
		t.Run(fmt.Sprint(tc.callers), func(t *testing.T) {
			r := newTestRepo(t)
			files := map[string]string{
				"lib/diag.js": "function hasErrors(d) {\n  return d.length > 0\n}\nmodule.exports = { hasErrors }\n",
				"lib/rare.js": "function rareHelper(x) {\n  return x\n}\nmodule.exports = { rareHelper }\n",
				"app.js":      "var x = 1\n",
			}
			for i := range tc.callers {
				files[fmt.Sprintf("src/c%02d.js", i)] = "if (hasErrors([])) { throw new Error() }\n"
			}
			r.commitEach(files)
			r.WriteAll(map[string]string{"app.js": "var x = hasErrors(rareHelper([]))\n"})
			r.Commit("check")
			ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
			if !hasReason(neighbour(t, ns, "lib/rare.js"), "it defines rareHelper") {
				t.Errorf("rare.js is not found as the definition of rareHelper:\n%s", describe(ns))
			}
			got := false
			for _, n := range ns {
				got = got || (n.Path == "lib/diag.js" && hasReason(n, "it defines hasErrors"))
			}
			if got != tc.want {
				t.Errorf("diag.js found as the definition of hasErrors, used in %d files: %t, want %t\n%s",
					tc.callers+2, got, tc.want, describe(ns))
			}
		})
	}
}

// TestFewUsersDefinition: between fewUsers and maxReferences users, the
// more files use a name, the less its definition weighs.
func TestFewUsersDefinition(t *testing.T) {
	r := newTestRepo(t)
	files := map[string]string{
		"lib/rare.js": "function rareHelper(x) {\n  return x\n}\nmodule.exports = { rareHelper }\n",
		"lib/used.js": "function usedHelper(x) {\n  return x\n}\nmodule.exports = { usedHelper }\n",
		"app.js":      "var x = 1\n",
	}
	// neither name is an uncommon word (see words): only the definitions tell
	for i := range fewUsers / 2 {
		files[fmt.Sprintf("src/r%02d.js", i)] = "rareHelper(1)\n"
	}
	for i := range 2 * fewUsers {
		files[fmt.Sprintf("src/c%02d.js", i)] = "usedHelper(1)\n"
	}
	r.commitEach(files)
	r.WriteAll(map[string]string{"app.js": "var x = usedHelper(rareHelper([]))\n"})
	r.Commit("help")
	ns, _ := find(t, r.selectRange("HEAD~1..HEAD"), Options{Max: 50})
	rare, used := neighbour(t, ns, "lib/rare.js"), neighbour(t, ns, "lib/used.js")
	if !hasReason(used, "it defines usedHelper") || !(rare.Score > used.Score) {
		t.Errorf("the definitions of a name in %d files and one in %d: scores %v and %v, want the first higher, both found\n%s",
			fewUsers/2+2, 2*fewUsers+2, rare.Score, used.Score, describe(ns))
	}
}
