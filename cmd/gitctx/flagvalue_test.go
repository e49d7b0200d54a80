package main

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestDecimalFlags: integer flags read base 10 only (pflag's own read 010
// as 8 and 0x1F as 31), at int's and int64's range.
func TestDecimalFlags(t *testing.T) {
	var n int
	var big int64
	f := pflag.NewFlagSet("t", pflag.ContinueOnError)
	intFlag(f, &n, "n", 5, "")
	intFlag(f, &big, "big", 7, "")
	if n != 5 || big != 7 || f.Lookup("n").DefValue != "5" || f.Lookup("big").Value.Type() != "int64" || f.Lookup("n").Value.Type() != "int" {
		t.Fatalf("defaults: n=%d big=%d, DefValue %q, types %s %s", n, big, f.Lookup("n").DefValue, f.Lookup("n").Value.Type(), f.Lookup("big").Value.Type())
	}
	for _, tt := range []struct {
		flag, value string
		want        int64
		ok          bool
	}{
		{"n", "010", 10, true},
		{"n", "08", 8, true},
		{"n", "-3", -3, true},
		{"n", "0x1F", 0, false},
		{"n", "0b11", 0, false},
		{"n", "1_000", 0, false},
		{"big", "9000000000", 9000000000, true},
		{"big", "0o17", 0, false},
	} {
		err := f.Set(tt.flag, tt.value)
		var got int64
		if tt.flag == "n" {
			got = int64(n)
		} else {
			got = big
		}
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("--%s %s: %d, %v; want %d, ok %v", tt.flag, tt.value, got, err, tt.want, tt.ok)
		}
	}
	if probe := cloneFlag(f.Lookup("big")); probe.Value.Set("0x10") == nil {
		t.Error("the configuration's probe of an int64 flag took 0x10")
	}
}

// TestCredentialKey: a key whose last word names a credential is refused
// as one; a setting that merely has such a word is an unknown key.
func TestCredentialKey(t *testing.T) {
	for key, want := range map[string]bool{
		"api_key": true, "openai_api_key": true, "github_token": true, "apikey": true, "token": true,
		"anthropic-api-key": true, "db_password": true,
		"max_tokens": false, "max_input_tokens": false, "token_budget": false, "tokenizer": false,
		"MAX_TOKENS": false, "key_files": false, "monkey": false,
	} {
		if got := credentialKey(key); got != want {
			t.Errorf("credentialKey(%q) = %v, want %v", key, got, want)
		}
	}
}

// TestFlagValuesComplete: the shells complete a flag's fixed choices.
func TestFlagValuesComplete(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "pack", "--format", ""}, "markdown\nxml\njson\n"},
		{[]string{"__complete", "review", "--post", ""}, "auto\ngithub\nstdout\nfile\nnone\n"},
		{[]string{"__complete", "explain", "--color", ""}, "auto\nalways\nnever\n"},
	} {
		res := gitctxRun(nil, tc.args...)
		if res.code != 0 || !strings.HasPrefix(res.stdout, tc.want) {
			t.Errorf("%v: exit %d, stdout %q; want the choices first", tc.args, res.code, res.stdout)
		}
	}
}
