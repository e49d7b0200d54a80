package ghreview

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestPRFromEvent(t *testing.T) {
	tests := []struct {
		file    string
		want    int
		wantErr error
	}{
		{file: "pull_request.opened.1.json", want: 2},
		{file: "pull_request_target.synchronize.json", want: 9},
		{file: "issue_comment.pull_request.json", want: 15},
		{file: "workflow_run.pull_request.json", want: 42},
		{file: "workflow_run.completed.1.json", wantErr: ErrNoPullRequest},
		{file: "issue_comment.created.1.json", wantErr: ErrNoPullRequest},
		{file: "push.event.1.json", wantErr: ErrNoPullRequest},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := PRFromEvent(filepath.Join("testdata", "events", tt.file))
			if got != tt.want || !errors.Is(err, tt.wantErr) {
				t.Errorf("PRFromEvent = %d, %v; want %d, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
	if _, err := PRFromEvent(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("PRFromEvent of a missing file: no error")
	}
}

func TestSplitRepository(t *testing.T) {
	tests := []struct {
		in          string
		owner, name string
		ok          bool
	}{
		{in: "octo/demo", owner: "octo", name: "demo", ok: true},
		{in: "my-org/repo.name_2", owner: "my-org", name: "repo.name_2", ok: true},
		{in: "octo"},
		{in: "octo/demo/extra"},
		{in: "/demo"},
		{in: "octo/"},
		{in: "oc to/demo"},
	}
	for _, tt := range tests {
		owner, name, err := SplitRepository(tt.in)
		if owner != tt.owner || name != tt.name || (err == nil) != tt.ok {
			t.Errorf("SplitRepository(%q) = %q, %q, %v", tt.in, owner, name, err)
		}
	}
}

func TestNewChecksConfig(t *testing.T) {
	good := Config{Owner: "octo", Repo: "demo", PR: 7}
	tests := []struct {
		name   string
		change func(c *Config)
		want   string // in the error; "" for none
	}{
		{name: "defaults", change: func(*Config) {}},
		{name: "enterprise API root", change: func(c *Config) { c.APIURL = "https://ghe.example.com/api/v3" }},
		{name: "no owner", change: func(c *Config) { c.Owner = "" }, want: "OWNER/NAME"},
		{name: "slash in name", change: func(c *Config) { c.Repo = "demo/x" }, want: "OWNER/NAME"},
		{name: "no pull request", change: func(c *Config) { c.PR = 0 }, want: "pull request number"},
		{name: "bad API URL", change: func(c *Config) { c.APIURL = "api.github.com" }, want: "API URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := good
			tt.change(&cfg)
			p, err := New(cfg)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("New: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("New: %v, want an error about %q", err, tt.want)
			case err == nil && !strings.HasSuffix(p.gh.BaseURL.String(), "/"):
				t.Errorf("BaseURL %s has no final slash", p.gh.BaseURL)
			case err == nil && p.Kind() != "github":
				t.Errorf("Kind() = %q", p.Kind())
			}
		})
	}
}
