package review

import (
	"context"
	"fmt"
	"io"

	"github.com/gitctx/gitctx/review/artifact"
)

// StdoutPoster prints the review to a writer.
type StdoutPoster struct{ W io.Writer }

// Kind implements Poster.
func (StdoutPoster) Kind() string { return "stdout" }

// Previous implements Poster: stdout keeps nothing.
func (StdoutPoster) Previous(context.Context) (string, bool, error) { return "", false, nil }

// Post implements Poster. Findings stay in the answer's text.
func (p StdoutPoster) Post(_ context.Context, c Comment, _ []Finding, _ bool) (Delivery, error) {
	if _, err := io.WriteString(p.W, c.Render(0)); err != nil {
		return Delivery{Kind: "stdout"}, fmt.Errorf("write the review to stdout: %w", err)
	}
	return Delivery{Kind: "stdout", URL: "-"}, nil
}

// FilePoster writes the review to a file, atomically.
type FilePoster struct{ Path string }

// Kind implements Poster.
func (FilePoster) Kind() string { return "file" }

// Previous implements Poster: the file is rewritten whole each run.
func (FilePoster) Previous(context.Context) (string, bool, error) { return "", false, nil }

// Post implements Poster.
func (p FilePoster) Post(ctx context.Context, c Comment, _ []Finding, _ bool) (Delivery, error) {
	if err := artifact.SaveFile(ctx, p.Path, []byte(c.Render(0))); err != nil {
		return Delivery{Kind: "file"}, err
	}
	return Delivery{Kind: "file", URL: p.Path}, nil
}
