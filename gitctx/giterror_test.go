package gitctx

import (
	"errors"
	"strings"
	"testing"
)

func TestErrorMessage(t *testing.T) {
	const lacks = "the repository lacks an object the change needs (a damaged clone, or objects pruned or never fetched); " +
		"git fsck lists what is missing, and fetching again or a fresh clone restores it"
	dubious := "fatal: detected dubious ownership in repository at '/src/demo'\n" +
		"To add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /src/demo\n"
	for _, tc := range []struct {
		stderr string
		want   string
	}{
		{"fatal: bad revision 'nope'\n", "git rev-parse: bad revision 'nope'"},
		{dubious, "git rev-parse: detected dubious ownership in repository at '/src/demo': if you trust it, run git config --global --add safe.directory /src/demo"},
		{"fatal: detected dubious ownership in repository at '/x'\n", "git rev-parse: detected dubious ownership in repository at '/x': if you trust it, add it to git's safe.directory"},
		{"", "git rev-parse: exit status 128"},
		{"fatal: unable to read ee1cd76bbd6092af9f2361192265ef2f79474933\n", "git rev-parse: unable to read ee1cd76bbd6092af9f2361192265ef2f79474933: " + lacks},
		{"error: Could not read 5a2b8d0c9f3e4b1a6d7c8e9f0a1b2c3d4e5f6a7b\nfatal: revision walk setup failed\n", "git rev-parse: Could not read 5a2b8d0c9f3e4b1a6d7c8e9f0a1b2c3d4e5f6a7b: " + lacks},
		{"fatal: missing blob object 'ee1cd76bbd6092af9f2361192265ef2f79474933'\n", "git rev-parse: missing blob object 'ee1cd76bbd6092af9f2361192265ef2f79474933': " + lacks},
		{"fatal: unable to read config file 'x'\n", "git rev-parse: unable to read config file 'x'"},
	} {
		e := &Error{Args: []string{"rev-parse", "HEAD"}, Stderr: tc.stderr, Err: errors.New("exit status 128")}
		if got := e.Error(); got != tc.want {
			t.Errorf("Error() = %q\nwant      %q", got, tc.want)
		}
	}
	if strings.Contains((&Error{Args: []string{"log"}, Stderr: "warning: x\n"}).Error(), "safe.directory") {
		t.Error("a hint for another failure")
	}
}
