package ghreview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

const (
	testToken = "test-token-for-ghreview-7c1e9a"
	testPR    = 7
)

// fakeGitHub is a stateful stand-in for the endpoints the poster uses,
// shaped like api.github.com at its root. Every request is validated
// against testdata/github-subset.json (the OpenAPI subset the acceptance
// fake uses); one that does not match fails the test.
type fakeGitHub struct {
	t      *testing.T
	srv    *httptest.Server
	router routers.Router

	mu       sync.Mutex
	nextID   int64
	comments []fakeComment
	files    []fakeFile
	reviews  []fakeReview
	inline   []fakeInline // review comments, from the reviews
	calls    []string     // "METHOD /path status"

	fork      bool // the pull request's head is a fork
	forbidden bool // writes answer 403 Resource not accessible by integration
	limited   int  // so many next requests answer 403, a secondary rate limit
	exhausted bool // requests answer 403, the primary limit used up for an hour
	failing   int  // so many next requests answer 502
	failWrite int  // writes answer this status, echoing the Authorization header
	// reviewStatus, when set, answers every review so: 422 as when the
	// pull request moved between listing its files and posting.
	reviewStatus int
}

type fakeComment struct {
	ID   int64
	User string
	Body string
}

// userJSON and associationOf are a comment's author as GitHub shows it:
// the Actions bot is an app's bot user; octocat is a member; anyone else
// has no relation to the repository.
func userJSON(login string) map[string]any {
	typ := "User"
	if strings.HasSuffix(login, "[bot]") {
		typ = "Bot"
	}
	return map[string]any{"login": login, "type": typ}
}

func associationOf(login string) string {
	if login == "octocat" {
		return "MEMBER"
	}
	return "NONE"
}

type fakeFile struct{ Name, Patch string }

type fakeInline struct {
	Path      string `json:"path"`
	Line      *int   `json:"line"`
	Side      string `json:"side"`
	StartLine *int   `json:"start_line"`
	StartSide string `json:"start_side"`
	Body      string `json:"body"`
	User      string `json:"-"` // the author: the bot when empty
}

type fakeReview struct {
	Body     string       `json:"body"`
	Event    string       `json:"event"`
	Comments []fakeInline `json:"comments"`
}

func newFake(t *testing.T, files ...fakeFile) *fakeGitHub {
	t.Helper()
	f := &fakeGitHub{t: t, router: loadSpec(t), nextID: 2000000001, files: files}
	mux := http.NewServeMux()
	repo := "/repos/{owner}/{repo}/"
	mux.HandleFunc("GET "+repo+"issues/{n}/comments", f.listComments)
	mux.HandleFunc("POST "+repo+"issues/{n}/comments", f.createComment)
	mux.HandleFunc("PATCH "+repo+"issues/comments/{id}", f.editComment)
	mux.HandleFunc("GET "+repo+"pulls/{n}", f.getPull)
	mux.HandleFunc("GET "+repo+"pulls/{n}/files", f.listFiles)
	mux.HandleFunc("POST "+repo+"pulls/{n}/reviews", f.createReview)
	mux.HandleFunc("GET "+repo+"pulls/{n}/comments", f.listInline)
	f.srv = httptest.NewServer(f.check(mux))
	t.Cleanup(f.srv.Close)
	return f
}

// set changes the fake's modes.
func (f *fakeGitHub) set(change func(f *fakeGitHub)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change(f)
}

// seed adds n comments by someone else.
func (f *fakeGitHub) seed(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range n {
		f.comments = append(f.comments, fakeComment{ID: f.nextID, User: "octocat", Body: fmt.Sprintf("comment %d", i)})
		f.nextID++
	}
}

// check validates a request against the spec and the rules GitHub
// enforces before it reaches the handlers, and plays the failure modes.
func (f *fakeGitHub) check(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := &statusRecorder{ResponseWriter: w, status: 200}
		defer func() {
			f.mu.Lock()
			f.calls = append(f.calls, fmt.Sprintf("%s %s %d", r.Method, r.URL.Path, rec.status))
			f.mu.Unlock()
		}()
		write := r.Method != http.MethodGet
		switch auth := r.Header.Get("Authorization"); {
		case auth != "" && auth != "Bearer "+testToken, write && auth == "":
			f.t.Errorf("contract violation: %s %s: Authorization %q", r.Method, r.URL.Path, auth)
			ghError(rec, 401, "Bad credentials")
			return
		case r.Header.Get("User-Agent") == "":
			f.t.Errorf("contract violation: %s %s without User-Agent", r.Method, r.URL.Path)
			ghError(rec, 403, "Request forbidden by administrative rules")
			return
		}
		if err := f.validate(r, body); err != nil {
			f.t.Errorf("contract violation: %s %s: %v", r.Method, r.URL.Path, err)
			ghError(rec, 422, "Invalid request")
			return
		}
		f.mu.Lock()
		limited, exhausted, forbidden, failWrite := f.limited > 0, f.exhausted, f.forbidden, f.failWrite
		failing := f.failing > 0
		f.limited--
		f.failing--
		f.mu.Unlock()
		switch {
		case failing:
			ghError(rec, 502, "Server Error")
		case limited:
			rec.Header().Set("Retry-After", "1")
			rec.Header().Set("Content-Type", "application/json")
			rec.WriteHeader(403)
			_, _ = io.WriteString(rec, `{"message":"You have exceeded a secondary rate limit.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`)
		case exhausted:
			rec.Header().Set("X-RateLimit-Remaining", "0")
			rec.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
			ghError(rec, 403, "API rate limit exceeded for installation ID 1.")
		case write && forbidden:
			ghError(rec, 403, "Resource not accessible by integration")
		case write && failWrite != 0:
			ghError(rec, failWrite, "failed for "+r.Header.Get("Authorization"))
		default:
			rec.Header().Set("X-RateLimit-Remaining", "4999")
			next.ServeHTTP(rec, r)
		}
	})
}

func (f *fakeGitHub) validate(r *http.Request, body []byte) error {
	route, params, err := f.router.FindRoute(r)
	if err != nil {
		return fmt.Errorf("no operation in github-subset.json: %w", err)
	}
	defer func() { r.Body = io.NopCloser(bytes.NewReader(body)) }()
	return openapi3filter.ValidateRequest(r.Context(), &openapi3filter.RequestValidationInput{
		Request: r, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func ghError(w http.ResponseWriter, status int, message string, errs ...any) {
	writeJSON(w, status, map[string]any{"message": message, "documentation_url": "https://docs.github.com/rest", "errors": errs})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// paginate applies per_page (default 30, at most 100) and page, and sets
// the Link header as GitHub does.
func paginate(w http.ResponseWriter, r *http.Request, total int) (start, end int) {
	q := r.URL.Query()
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 30
	}
	per = min(per, 100)
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	last := max(1, (total+per-1)/per)
	if page < last {
		link := func(p int, rel string) string {
			q.Set("page", strconv.Itoa(p))
			q.Set("per_page", strconv.Itoa(per))
			return fmt.Sprintf(`<http://%s%s?%s>; rel="%s"`, r.Host, r.URL.Path, q.Encode(), rel)
		}
		w.Header().Set("Link", link(page+1, "next")+", "+link(last, "last"))
	}
	start = min((page-1)*per, total)
	return start, min(start+per, total)
}

func (f *fakeGitHub) commentJSON(c fakeComment) map[string]any {
	return map[string]any{
		"id": c.ID, "body": c.Body, "user": userJSON(c.User), "author_association": associationOf(c.User),
		"html_url": fmt.Sprintf("https://github.com/octo/demo/pull/%d#issuecomment-%d", testPR, c.ID),
		"url":      fmt.Sprintf("%s/repos/octo/demo/issues/comments/%d", f.srv.URL, c.ID),
	}
}

func (f *fakeGitHub) listComments(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	start, end := paginate(w, r, len(f.comments))
	out := []any{}
	for _, c := range f.comments[start:end] {
		out = append(out, f.commentJSON(c))
	}
	writeJSON(w, 200, out)
}

// decodeBody reads a comment or review body and enforces GitHub's limit.
func (f *fakeGitHub) decodeBody(w http.ResponseWriter, r *http.Request, v any, bodies func() []string) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		f.t.Errorf("contract violation: %s %s: %v", r.Method, r.URL.Path, err)
		ghError(w, 400, "Problems parsing JSON")
		return false
	}
	for _, b := range bodies() {
		if n := utf8.RuneCountInString(b); n > 65536 {
			f.t.Errorf("contract violation: %s %s: a body of %d characters", r.Method, r.URL.Path, n)
			ghError(w, 422, "Validation Failed", map[string]any{"field": "body", "message": "body is too long (maximum is 65536 characters)"})
			return false
		}
	}
	return true
}

func (f *fakeGitHub) createComment(w http.ResponseWriter, r *http.Request) {
	var in struct{ Body string }
	if !f.decodeBody(w, r, &in, func() []string { return []string{in.Body} }) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c := fakeComment{ID: f.nextID, User: "github-actions[bot]", Body: in.Body}
	f.nextID++
	f.comments = append(f.comments, c)
	writeJSON(w, 201, f.commentJSON(c))
}

func (f *fakeGitHub) editComment(w http.ResponseWriter, r *http.Request) {
	var in struct{ Body string }
	if !f.decodeBody(w, r, &in, func() []string { return []string{in.Body} }) {
		return
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.comments {
		if f.comments[i].ID == id {
			f.comments[i].Body = in.Body
			writeJSON(w, 200, f.commentJSON(f.comments[i]))
			return
		}
	}
	ghError(w, 404, "Not Found")
}
