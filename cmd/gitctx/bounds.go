package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

// limit is a numeric setting checked against its least value.
type limit struct {
	flag string
	got  any // as given, for the message
	bad  bool
	want string
}

type number interface {
	int | int64 | float64 | time.Duration
}

func nonNegative[T number](flag string, v T) limit {
	return limit{flag, v, v < 0, "cannot be negative"}
}

func positive[T number](flag string, v T) limit {
	return limit{flag, v, v <= 0, "must be positive"}
}

// checkLimits is a usage error naming the first setting out of its
// bounds, and the value it was given: "--history-depth cannot be
// negative, got -3", not a list of every flag that could have been wrong.
func checkLimits(cmd *cobra.Command, limits ...limit) error {
	for _, l := range limits {
		if l.bad {
			return usagef(cmd, fmt.Errorf("%s %s, got %v", l.flag, l.want, l.got))
		}
	}
	return nil
}
