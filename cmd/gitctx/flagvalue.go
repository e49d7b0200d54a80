package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// valueWant says what a flag's value should have been when the flag
// refused it, in place of the Go function that refused it: for `abc`
// given to --max-tokens, "want a whole number" rather than
// `strconv.ParseInt: parsing "abc": invalid syntax`. It is false for an
// error it has no words for (a flag of gitctx's own type says its own).
func valueWant(err error) (string, bool) {
	var bad *pflag.InvalidValueError
	if !errors.As(err, &bad) {
		return "", false
	}
	var num *strconv.NumError
	if errors.As(bad, &num) && errors.Is(num.Err, strconv.ErrRange) {
		return "out of range", true
	}
	switch bad.GetFlag().Value.Type() {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count":
		return "want a whole number", true
	case "float32", "float64":
		return "want a number", true
	case "bool":
		return "want true or false", true
	case "duration":
		return "want a duration such as 30s, 5m or 1h", true
	}
	return "", false
}

// plainFlagError is a refused flag value as valueWant words it, or err.
func plainFlagError(err error) error {
	var bad *pflag.InvalidValueError
	if want, ok := valueWant(err); ok && errors.As(err, &bad) {
		return fmt.Errorf("invalid value %q for --%s: %s", bad.GetValue(), bad.GetFlag().Name, want)
	}
	return err
}

// unknownFlagError adds to an unknown long flag's error the command's flag
// closest to it, if one is close: --max-neighbors is --max-neighbours.
func unknownFlagError(cmd *cobra.Command, err error) error {
	var missing *pflag.NotExistError
	if !errors.As(err, &missing) || missing.GetSpecifiedShortnames() != "" {
		return err
	}
	name := missing.GetSpecifiedName()
	best, bestD := "", min(3, len(name)/2+1) // a short name is a guess at anything
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if d := editDistance(name, f.Name); d < bestD || d == bestD && best != "" && f.Name < best {
			best, bestD = f.Name, d
		}
	})
	if best == "" {
		return err
	}
	return fmt.Errorf("%w (did you mean --%s?)", err, best)
}

// decimal is an integer flag read in base 10 only. pflag's own reads a
// leading 0 as octal and 0x as hex, so --pr 010 would post on pull
// request 8 and --max-tokens 0x400 budget 1,024 tokens.
type decimal[T int | int64] struct{ p *T }

func (d decimal[T]) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, d.bits())
	if err != nil {
		return err
	}
	*d.p = T(n)
	return nil
}

func (d decimal[T]) String() string {
	if d.p == nil {
		return "0"
	}
	return strconv.FormatInt(int64(*d.p), 10)
}

// Type is pflag's name of the type, so that usage, errors and the
// configuration file read it as one of pflag's own integers.
func (d decimal[T]) Type() string {
	if isInt64[T]() {
		return "int64"
	}
	return "int"
}

func (d decimal[T]) bits() int {
	if isInt64[T]() {
		return 64
	}
	return strconv.IntSize
}

func isInt64[T int | int64]() bool {
	var zero T
	_, ok := any(zero).(int64)
	return ok
}

// intFlag defines a decimal integer flag.
func intFlag[T int | int64](f *pflag.FlagSet, p *T, name string, value T, usage string) {
	*p = value
	f.Var(decimal[T]{p}, name, usage)
}
