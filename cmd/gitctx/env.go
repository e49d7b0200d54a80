package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// applyEnv sets every flag the command line left alone from its
// GITCTX_<KEY> variable (--max-tokens: GITCTX_MAX_TOKENS), so that the
// command line wins over the environment, which wins over the defaults.
func applyEnv(cmd *cobra.Command, getenv func(string) string, skip ...string) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed || f.Name == "help" || slices.Contains(skip, f.Name) {
			return
		}
		name := envName(f.Name)
		v := getenv(name)
		if v == "" {
			if us := strings.ReplaceAll(name, "NEIGHBOURS", "NEIGHBORS"); us != name && getenv(us) != "" {
				// the one misspelling worth looking for: gitctx cannot
				// list the environment (run has getenv only)
				err = usagef(cmd, fmt.Errorf("%s is not a gitctx variable (did you mean %s?)", us, name))
			}
			return
		}
		if serr := cmd.Flags().Set(f.Name, v); serr != nil {
			err = usagef(cmd, fmt.Errorf("%s=%q: %w", name, v, plainFlagError(serr)))
		}
	})
	return err
}

// envName is the variable of a flag: "max-tokens" → "GITCTX_MAX_TOKENS".
func envName(flag string) string {
	return "GITCTX_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}
