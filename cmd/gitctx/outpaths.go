package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// notDirectory refuses a flag naming a file to write that is a
// directory: the file could not be written there, and that would be found
// only after the change is packed. hint says what to do instead.
func notDirectory(cmd *cobra.Command, flag, path, hint string) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usagef(cmd, fmt.Errorf("%s %s is a directory: %s", flag, path, hint))
	}
	return nil
}
