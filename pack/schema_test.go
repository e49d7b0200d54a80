package pack

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack/recordtest"
)

// TestRecordSchemaGolden checks the golden records against
// docs/record.schema.json, the record's documentation.
func TestRecordSchemaGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "golden", "*record.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden records (err %v)", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(p), func(t *testing.T) { recordtest.Check(t, data) })
	}
}

// TestRecordSchemaBuilds checks the records of packs of every shape
// against the schema: full and summary in each format, redactions, a
// budget that cannot be met, an empty change, split parts, context with
// warnings, and the staged and worktree selections.
func TestRecordSchemaBuilds(t *testing.T) {
	c := counter(t)
	golden := goldenRepo(t)
	sized := sizedRepo(t, 5, 6)
	secret := secretRepo(t).change("HEAD~1..HEAD")
	ctxRepo := contextRepo(t)
	empty := newRepo(t, "empty")
	empty.Write("a.txt", "a\n")
	empty.Commit("base")
	staged := newRepo(t, "staged")
	staged.Write("a.go", "package a\n")
	staged.Git("add", "a.go")

	type run struct {
		name string
		ch   *gitctx.Change
		opts func(o *Options)
		want error // Build's error, when the record comes with one
	}
	runs := []run{
		{"golden full", golden.change("HEAD~1..HEAD"), nil, nil},
		{"golden summary xml", golden.change("HEAD~1..HEAD"), func(o *Options) { o.Format, o.Budget.Limit = XML, 1000 }, nil},
		{"golden summary json", golden.change("HEAD~1..HEAD"), func(o *Options) { o.Format, o.Mode = JSON, "summary" }, nil},
		{"redactions", secret, nil, nil},
		{"pull request", secret, func(o *Options) { o.PullRequest = &PullRequest{Number: 7, Title: "t " + fakeGitHub, Body: "b"} }, nil},
		{"redactions in a summary", secret, func(o *Options) { o.Budget.Limit = 1500 }, nil},
		{"budget not met", sized, func(o *Options) { o.Budget.Limit = 50 }, ErrBudget},
		{"split", sized, func(o *Options) { o.Split, o.Budget.Limit = true, 4000 }, nil},
		{"provider", sized, func(o *Options) {
			o.Budget = Budget{Provider: "openai", Model: "gpt-4.1", ContextWindow: 1047576, ReservedOutput: 32768, Limit: 1000000}
		}, nil},
		{"empty change", empty.change("HEAD..HEAD"), nil, ErrEmpty},
		{"context with warnings", ctxRepo.change("HEAD~1..HEAD"), func(o *Options) {
			o.Context = ContextOptions{Paths: []string{"docs", "many", "nope.txt"}, RecurseDepth: RecurseUnlimited, MaxFilesPerDir: 10}
		}, nil},
		{"staged", staged.change("--staged"), nil, nil},
		{"worktree", ctxRepo.change("--worktree"), nil, nil},
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			opts := options(c, Markdown, 0)
			if r.opts != nil {
				r.opts(&opts)
			}
			res, err := Build(t.Context(), r.ch, opts)
			if !errors.Is(err, r.want) {
				t.Fatalf("Build: err = %v, want %v", err, r.want)
			}
			if res == nil || res.Record == nil {
				t.Fatal("Build returned no record")
			}
			recordtest.CheckValue(t, res.Record)
		})
	}
}

// TestRecordSchemaRefusesDrift: the schema is strict enough to notice a
// field it does not document, a value outside an enumeration, and a
// missing field.
func TestRecordSchemaRefusesDrift(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "golden", "full.record.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string][2]string{
		"unknown field":        {`"schema": "gitctx.record/v1",`, `"schema": "gitctx.record/v1", "extra": 1,`},
		"unknown role":         {`"role": "guide"`, `"role": "friend"`},
		"missing field":        {`"truncated_files": 0`, `"truncated_file": 0`},
		"excluded, no why":     {`"exclusion_reason": "binary"`, `"encoding": "utf-8"`},
		"a rule with no count": {`"by_rule": {}`, `"by_rule": {"x": 0}`},
	} {
		bad := []byte(replaceOnce(t, string(data), edit[0], edit[1]))
		if recordtest.Validate(bad) == nil {
			t.Errorf("%s: the schema accepts %s", name, edit[1])
		}
	}
}

func replaceOnce(t *testing.T, s, old, repl string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("the golden record has no %q", old)
	}
	return strings.Replace(s, old, repl, 1)
}
