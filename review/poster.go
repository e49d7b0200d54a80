package review

import (
	"context"
	"errors"
)

// Poster delivers a review: as a sticky comment on a pull request
// (review/ghreview), to stdout, or to a file.
type Poster interface {
	// Kind names the delivery for the record: github, stdout, file.
	Kind() string
	// Previous returns the body of the comment an earlier run left, if
	// any, so that an unchanged pack is not sent to the model again.
	Previous(ctx context.Context) (body string, found bool, err error)
	// Post publishes the comment, and the findings as inline comments
	// when the poster supports them and inline is set. Findings it cannot
	// anchor go into the comment's Outside list before it is rendered.
	Post(ctx context.Context, c Comment, findings []Finding, inline bool) (Delivery, error)
}

// Delivery says where a review went.
type Delivery struct {
	Kind string
	// URL of the comment (its html_url) or the file it was written to.
	URL string
	// Inline counts the findings posted as inline review comments.
	Inline int
	// Notice, when set, explains a degraded delivery (a fork's read-only
	// token, say) that is not an error.
	Notice string
}

// ErrReadOnly means the poster may not write where it should (a fork's
// pull request with a read-only token). The review is kept as an artifact;
// it is a notice, not a failure.
var ErrReadOnly = errors.New("the token may not comment on this pull request")
