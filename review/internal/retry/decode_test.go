package retry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/review/internal/retry"
)

func TestDecodeError(t *testing.T) {
	for _, tc := range []struct {
		body string
		want []string
		not  string
	}{
		{"<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head></html>", []string{`begins "<!DOCTYPE html>`, "a web page", "invalid character"}, ""},
		{`{"choices": [`, []string{`begins "{\"choices\": ["`, "unexpected end"}, "web page"},
		{strings.Repeat("é", 300), []string{"…"}, strings.Repeat("é", 61)},
		{" \n", []string{"the server sent an empty body", "check the base URL"}, "begins"},
	} {
		var v any
		err := retry.DecodeError([]byte(tc.body), json.Unmarshal([]byte(tc.body), &v))
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("DecodeError(%.20q) = %q, want %q in it", tc.body, err, w)
			}
		}
		if tc.not != "" && strings.Contains(err.Error(), tc.not) {
			t.Errorf("DecodeError(%.20q) = %q, holds %q", tc.body, err, tc.not)
		}
	}
}
