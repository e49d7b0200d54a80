package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version and commit are stamped by the release build with
// -ldflags "-X main.version=... -X main.commit=...".
var (
	version = ""
	commit  = ""
)

// buildVersion is the version gitctx reports: the stamped one, else the
// module version `go install …@vX` records, else "(devel)".
func buildVersion() (string, string) {
	v, c := version, commit
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" && info.Main.Version != "" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && c == "" {
				c = s.Value
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	return v, c
}

func newVersionCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gitctx's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, c := buildVersion()
			if c == "" {
				c = "unknown"
			}
			_, err := fmt.Fprintf(a.stdout, "gitctx %s\ncommit %s\n%s %s/%s\n", v, c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}
