package main

import (
	"errors"
	"fmt"
	"strconv"

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
