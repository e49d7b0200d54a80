package main

import (
	"fmt"
	"strings"

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

// strictHelp makes `gitctx help TOPIC` refuse a topic it does not know
// (exit 2), as an unknown command is, rather than print the usage and
// exit 0.
func strictHelp(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	h, _, err := root.Find([]string{"help"})
	if err != nil || h == root || h.Run == nil {
		return
	}
	show := h.Run
	h.Run = nil
	h.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			if c, rest, err := root.Find(args); err != nil || c == root || len(rest) > 0 {
				return usagef(cmd, fmt.Errorf("unknown help topic %q (gitctx help lists the commands)", strings.Join(args, " ")))
			}
		}
		show(cmd, args)
		return nil
	}
}
