package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version and commit are stamped by the release build (.goreleaser.yaml)
// with -ldflags "-X main.version=... -X main.commit=...". They are the
// only variables of the package that are not constants: the linker can
// only set variables.
var (
	version = ""
	commit  = ""
)

// gitleaksModule is the module whose embedded rules redact credentials;
// its version is the rule set's.
const gitleaksModule = "github.com/zricethezav/gitleaks/v8"

// build describes the running binary.
type build struct {
	version  string // v1.2.3, or (devel)
	commit   string // the revision it was built from, or ""
	modified bool   // the work tree had uncommitted changes
	goVer    string
	gitleaks string // the gitleaks module's version, or ""
}

// readBuild is what the binary knows of itself: the stamped version and
// commit first, else what the Go toolchain recorded (the module version
// `go install …@vX` sets, the VCS revision of a build in a checkout),
// else "(devel)".
func readBuild() build {
	b := build{version: version, commit: commit, goVer: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if ok {
		if b.version == "" && info.Main.Version != "" {
			b.version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && commit == "":
				b.commit = s.Value
			case s.Key == "vcs.modified" && commit == "":
				b.modified = s.Value == "true"
			}
		}
		for _, d := range info.Deps {
			if d.Path == gitleaksModule {
				b.gitleaks = d.Version
				if d.Replace != nil {
					b.gitleaks = d.Replace.Version
				}
			}
		}
	}
	if b.version == "" {
		b.version = "(devel)"
	}
	return b
}

// buildVersion is the version and commit gitctx reports.
func buildVersion() (string, string) {
	b := readBuild()
	return b.version, b.commit
}

func newVersionCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gitctx's version, commit, Go version and gitleaks rule set",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b := readBuild()
			c := b.commit
			switch {
			case c == "":
				c = "unknown"
			case b.modified:
				c += " (with uncommitted changes)"
			}
			rules := b.gitleaks
			if rules == "" {
				rules = "unknown"
			}
			_, err := fmt.Fprintf(a.stdout, "gitctx %s\ncommit %s\n%s %s/%s\ngitleaks rules %s\n", b.version, c, b.goVer, runtime.GOOS, runtime.GOARCH, rules)
			if err != nil {
				return fmt.Errorf("write the version: %w", err)
			}
			return nil
		},
	}
}
