package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// completeValues lets the shells complete the named flags' values from
// their fixed choices, rather than from file names.
func completeValues(cmd *cobra.Command, values map[string][]string) {
	for name, choices := range values {
		_ = cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(choices, cobra.ShellCompDirectiveNoFileComp))
	}
}

// strictCompletion makes `gitctx completion SHELL` refuse a shell it does
// not know (exit 2) rather than print its help to stdout and exit 0: a
// typo redirected into a completion file would fill it with help text.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	c, _, err := root.Find([]string{"completion"})
	if err != nil || c == root {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		return usagef(cmd, fmt.Errorf("unknown shell %q (use bash, zsh, fish or powershell)", args[0]))
	}
}
