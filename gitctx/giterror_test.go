package gitctx

import (
	"errors"
	"strings"
	"testing"
)

func TestErrorMessage(t *testing.T) {
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
