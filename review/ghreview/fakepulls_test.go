package ghreview

import (
	"cmp"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// loadSpec reads the GitHub OpenAPI subset, a copy of the acceptance
// fixture, and routes requests at any host.
func loadSpec(t *testing.T) routers.Router {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile("testdata/github-subset.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(loader.Context, openapi3.DisableExamplesValidation()); err != nil {
		t.Fatal(err)
	}
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return router
}

func (f *fakeGitHub) getPull(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("n") != strconv.Itoa(testPR) {
		ghError(w, 404, "Not Found")
		return
	}
	f.mu.Lock()
	fork := f.fork
	f.mu.Unlock()
	head := "octo/demo"
	if fork {
		head = "forker/demo"
	}
	writeJSON(w, 200, map[string]any{
		"number": testPR, "state": "open", "title": "Say hello", "body": "Users asked for it.",
		"head": map[string]any{"sha": strings.Repeat("c", 40), "ref": "feature", "repo": map[string]any{"full_name": head, "fork": fork}},
		"base": map[string]any{"sha": strings.Repeat("b", 40), "ref": "main", "repo": map[string]any{"full_name": "octo/demo", "fork": false}},
	})
}

func (f *fakeGitHub) listFiles(w http.ResponseWriter, r *http.Request) {
	start, end := paginate(w, r, len(f.files))
	out := []any{}
	for _, file := range f.files[start:end] {
		out = append(out, map[string]any{"filename": file.Name, "status": "modified", "patch": file.Patch})
	}
	writeJSON(w, 200, out)
}

func (f *fakeGitHub) listInline(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	start, end := paginate(w, r, len(f.inline))
	out := []any{}
	for i, c := range f.inline[start:end] {
		user := cmp.Or(c.User, "github-actions[bot]")
		out = append(out, map[string]any{"id": 3000 + start + i, "path": c.Path, "line": c.Line, "body": c.Body,
			"user": userJSON(user), "author_association": associationOf(user)})
	}
	writeJSON(w, 200, out)
}

// createReview stores a review, or refuses all of it with GitHub's 422
// when one comment's anchor is not part of the diff.
func (f *fakeGitHub) createReview(w http.ResponseWriter, r *http.Request) {
	var in fakeReview
	bodies := func() []string {
		out := []string{in.Body}
		for _, c := range in.Comments {
			out = append(out, c.Body)
		}
		return out
	}
	if !f.decodeBody(w, r, &in, bodies) {
		return
	}
	if in.Event == "COMMENT" && in.Body == "" {
		ghError(w, 422, "Unprocessable Entity", "Body is required for COMMENT")
		return
	}
	f.mu.Lock()
	status := f.reviewStatus
	f.mu.Unlock()
	if status != 0 {
		ghError(w, status, "Unprocessable Entity", "Pull request review thread line must be part of the diff")
		return
	}
	for _, c := range in.Comments {
		if msg := f.checkAnchor(c); msg != "" {
			ghError(w, 422, "Unprocessable Entity", "Pull request review thread "+msg)
			return
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reviews = append(f.reviews, in)
	f.inline = append(f.inline, in.Comments...)
	id := f.nextID
	f.nextID++
	writeJSON(w, 200, map[string]any{"id": id, "state": "COMMENTED", "body": in.Body,
		"html_url": fmt.Sprintf("https://github.com/octo/demo/pull/%d#pullrequestreview-%d", testPR, id)})
}

// checkAnchor is GitHub's rule, written independently of the poster's
// parser: a line of the hunks (RIGHT: added or context, LEFT: removed or
// context), a start line in the same hunk and before it.
func (f *fakeGitHub) checkAnchor(c fakeInline) string {
	var patch string
	found := false
	for _, file := range f.files {
		if file.Name == c.Path {
			patch, found = file.Patch, true
		}
	}
	if !found || c.Line == nil {
		return "path could not be resolved"
	}
	side := c.Side
	if side == "" {
		side = "RIGHT"
	}
	type at struct{ hunk, index int }
	lines := map[int]at{}
	hunk, oldN, newN := -1, 0, 0
	for i, l := range strings.Split(patch, "\n") {
		if strings.HasPrefix(l, "@@ ") {
			fields := strings.Fields(l)
			oldN, _ = strconv.Atoi(strings.Split(strings.TrimPrefix(fields[1], "-"), ",")[0])
			newN, _ = strconv.Atoi(strings.Split(strings.TrimPrefix(fields[2], "+"), ",")[0])
			hunk++
			continue
		}
		switch {
		case hunk < 0 || strings.HasPrefix(l, `\`):
		case strings.HasPrefix(l, "+"):
			if side == "RIGHT" {
				lines[newN] = at{hunk, i}
			}
			newN++
		case strings.HasPrefix(l, "-"):
			if side == "LEFT" {
				lines[oldN] = at{hunk, i}
			}
			oldN++
		default:
			if side == "RIGHT" {
				lines[newN] = at{hunk, i}
			} else {
				lines[oldN] = at{hunk, i}
			}
			oldN++
			newN++
		}
	}
	end, ok := lines[*c.Line]
	if !ok {
		return "line must be part of the diff"
	}
	if c.StartLine != nil {
		start, ok := lines[*c.StartLine]
		switch {
		case !ok || c.StartSide != "" && c.StartSide != side:
			return "start line must be part of the diff"
		case start.hunk != end.hunk:
			return "start line must be part of the same hunk as the line."
		case start.index >= end.index:
			return "start line must precede the end line."
		}
	}
	return ""
}

// count tells how many calls match "METHOD path-suffix status" prefixes,
// e.g. "PATCH", "POST /issues/7/comments", "POST /pulls/7/reviews 422".
func (f *fakeGitHub) count(method, pathSuffix string, status int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		var m, p string
		var s int
		_, _ = fmt.Sscanf(c, "%s %s %d", &m, &p, &s)
		if m == method && strings.HasSuffix(p, pathSuffix) && (status == 0 || s == status) {
			n++
		}
	}
	return n
}

// stickies returns the bodies of the comments that start with the marker.
func (f *fakeGitHub) stickies() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.comments {
		if strings.HasPrefix(c.Body, "<!-- gitctx") {
			out = append(out, c.Body)
		}
	}
	return out
}
