package review_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/review"
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
	} {
		var v any
		err := review.DecodeError([]byte(tc.body), json.Unmarshal([]byte(tc.body), &v))
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

func TestStatusErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  review.StatusError
		want string
	}{
		{review.StatusError{Provider: "openai", Status: 400, Attempts: 1, Message: "max_tokens is too large"}, "openai answered 400 after 1 attempt: max_tokens is too large"},
		{review.StatusError{Provider: "openai", Status: 429, Attempts: 4}, "openai answered 429 (rate limited) after 4 attempts: no message"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}
