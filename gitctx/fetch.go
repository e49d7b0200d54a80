package gitctx

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// ErrHistoryMissing means a shallow clone lacks the commits a change
// needs, and fetching them did not help.
var ErrHistoryMissing = errors.New("the history the change needs is missing")

// HasCommit reports whether the repository holds the commit id.
func (r *Repo) HasCommit(ctx context.Context, id string) bool {
	_, err := r.git.output(ctx, nil, "cat-file", "-e", id+"^{commit}")
	return err == nil
}

// ReadFileAt reads path as it is in the tree of rev: a configuration file
// of the base commit, say. ok is false when rev has no such file.
func (r *Repo) ReadFileAt(ctx context.Context, rev, path string, limit int64) (data []byte, ok bool, err error) {
	c := &Change{repo: r}
	c.Source.Base = rev
	return c.ReadBaseFile(ctx, path, limit)
}

// FetchOptions say where FetchMergeBase fetches from.
type FetchOptions struct {
	Remote string // default origin
	// Token, when set, authenticates an https remote the way
	// actions/checkout does (an extra header for that host only), so a
	// checkout made with persist-credentials: false can still fetch. It
	// goes to git through its environment, never its arguments.
	Token  string
	Depths []int // fetch depths tried in turn; default 50, 250, 1000
}

// FetchMergeBase makes sure base, head and a merge base of the two are
// present, fetching from the remote with growing depth when the clone is
// shallow or lacks a commit. It fails with ErrHistoryMissing when the
// last depth was not enough.
func (r *Repo) FetchMergeBase(ctx context.Context, base, head string, opts FetchOptions) error {
	if r.hasMergeBase(ctx, base, head) {
		return nil
	}
	if opts.Remote == "" {
		opts.Remote = "origin"
	}
	if len(opts.Depths) == 0 {
		opts.Depths = []int{50, 250, 1000}
	}
	g := r.git
	g.env = append(append([]string{}, g.env...), r.authEnv(ctx, opts)...)
	var last error
	for _, d := range opts.Depths {
		_, err := g.output(ctx, nil, "fetch", "--no-tags", "--no-recurse-submodules", "--quiet",
			"--depth="+strconv.Itoa(d), opts.Remote, base, head)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		last = err
		if err == nil && r.hasMergeBase(ctx, base, head) {
			r.Shallow = r.isShallow(ctx)
			return nil
		}
	}
	msg := "no merge base of " + ShortID(base) + " and " + ShortID(head) + " after fetching " + strconv.Itoa(opts.Depths[len(opts.Depths)-1]) + " commits"
	if last != nil {
		msg = "fetching from " + opts.Remote + " failed: " + last.Error()
	}
	return fmt.Errorf("%w: %s; check out with fetch-depth: 0 (actions/checkout) or run git fetch --unshallow", ErrHistoryMissing, msg)
}

func (r *Repo) hasMergeBase(ctx context.Context, base, head string) bool {
	if !r.HasCommit(ctx, base) || !r.HasCommit(ctx, head) {
		return false
	}
	_, err := r.git.output(ctx, nil, "merge-base", base, head)
	return err == nil
}

func (r *Repo) isShallow(ctx context.Context) bool {
	out, err := r.git.output(ctx, nil, "rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// authEnv is the git configuration, as environment variables, that sends
// the token to the remote's https host and nowhere else.
func (r *Repo) authEnv(ctx context.Context, opts FetchOptions) []string {
	if opts.Token == "" {
		return nil
	}
	if out, _ := r.git.output(ctx, nil, "config", "--get-regexp", `^http\..*extraheader$`); len(out) > 0 {
		return nil // the checkout kept its credentials; a second header would be refused
	}
	out, err := r.git.output(ctx, nil, "remote", "get-url", opts.Remote)
	if err != nil {
		return nil
	}
	u, err := url.Parse(strings.TrimSpace(string(out)))
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return nil
	}
	n, _ := strconv.Atoi(os.Getenv("GIT_CONFIG_COUNT"))
	cred := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + opts.Token))
	return []string{
		"GIT_CONFIG_COUNT=" + strconv.Itoa(n+1),
		fmt.Sprintf("GIT_CONFIG_KEY_%d=http.https://%s/.extraheader", n, u.Host),
		fmt.Sprintf("GIT_CONFIG_VALUE_%d=AUTHORIZATION: basic %s", n, cred),
	}
}
