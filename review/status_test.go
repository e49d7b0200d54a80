package review_test

import (
	"testing"

	"github.com/gitctx/gitctx/review"
)

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
