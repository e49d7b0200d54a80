package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gitctx/gitctx/pack/recordtest"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/script from what gitctx prints")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gitctx": func() {
			os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
		},
	})
}

// TestScripts runs gitctx end to end, as a user does, in real git
// repositories: the scripts are testdata/script/*.txtar at the repository
// root. `go test ./cmd/gitctx -run Scripts -update` rewrites their golden
// sections.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("..", "..", "testdata", "script"),
		UpdateScripts: *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":  cmdExits,
			"record": cmdRecord,
		},
		Setup: func(env *testscript.Env) error {
			global := filepath.Join(env.WorkDir, ".gitconfig-global")
			if err := os.WriteFile(global, nil, 0o644); err != nil {
				return err
			}
			for k, v := range map[string]string{
				"HOME":                env.WorkDir,
				"GIT_CONFIG_GLOBAL":   global,
				"GIT_CONFIG_NOSYSTEM": "1",
				"GIT_AUTHOR_NAME":     "t",
				"GIT_AUTHOR_EMAIL":    "t@example.com",
				"GIT_COMMITTER_NAME":  "t",
				"GIT_COMMITTER_EMAIL": "t@example.com",
				"GIT_AUTHOR_DATE":     "2026-01-01T00:00:00Z",
				"GIT_COMMITTER_DATE":  "2026-01-01T00:00:00Z",
				"GIT_CONFIG_COUNT":    "3",
				"GIT_CONFIG_KEY_0":    "init.defaultBranch",
				"GIT_CONFIG_VALUE_0":  "main",
				"GIT_CONFIG_KEY_1":    "commit.gpgsign",
				"GIT_CONFIG_VALUE_1":  "false",
				"GIT_CONFIG_KEY_2":    "gc.auto",
				"GIT_CONFIG_VALUE_2":  "0",
			} {
				env.Setenv(k, v)
			}
			return nil
		},
	})
}

// cmdExits runs a command and checks its exit status:
//
//	exits 4 gitctx pack HEAD~1..HEAD --max-tokens 10
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			ts.Fatalf("exits: %v", err)
		}
		got = exitErr.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdRecord checks one field of a JSON file; a file named record.json
// must also match the record's schema, docs/record.schema.json:
//
//	record .gitctx/record.json source.kind range
//	record .gitctx/record.json files[path=main.go].status deleted
//	! record .gitctx/record.json files[path=.env].included true
//	record pack.json contents.0.content @want.txt   (the content of want.txt)
func cmdRecord(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: record FILE FIELD WANT")
	}
	if name, ok := strings.CutPrefix(args[2], "@"); ok {
		want, err := os.ReadFile(ts.MkAbs(name))
		ts.Check(err)
		args[2] = string(want)
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	if filepath.Base(args[0]) == "record.json" {
		if err := recordtest.Validate(data); err != nil {
			ts.Fatalf("%s does not match %s: %v", args[0], recordtest.SchemaPath, err)
		}
	}
	var doc any
	ts.Check(json.Unmarshal(data, &doc))
	got, err := lookup(doc, args[1])
	if err != nil {
		ts.Fatalf("record %s: %v", args[1], err)
	}
	if (got == args[2]) == neg {
		ts.Fatalf("record %s = %q, want %s%q", args[1], got, map[bool]string{true: "not "}[neg], args[2])
	}
}

// lookup follows a dotted path: a field name, a list index, or
// list[key=value] for the first element whose key has that value.
func lookup(v any, path string) (string, error) {
	for _, part := range splitPath(path) {
		name, sel, hasSel := strings.Cut(part, "[")
		if i, err := strconv.Atoi(name); err == nil {
			list, ok := v.([]any)
			if !ok || i >= len(list) {
				return "", fmt.Errorf("no element %d", i)
			}
			v = list[i]
			continue
		}
		if name != "" {
			m, ok := v.(map[string]any)
			if !ok {
				return "", fmt.Errorf("%s: not an object", name)
			}
			if v, ok = m[name]; !ok {
				return "", fmt.Errorf("no field %s", name)
			}
		}
		if !hasSel {
			continue
		}
		key, want, _ := strings.Cut(strings.TrimSuffix(sel, "]"), "=")
		list, ok := v.([]any)
		if !ok {
			return "", fmt.Errorf("%s: not a list", name)
		}
		found := false
		for _, el := range list {
			if m, ok := el.(map[string]any); ok && fmt.Sprint(m[key]) == want {
				v, found = el, true
				break
			}
		}
		if !found {
			return "", fmt.Errorf("no element with %s=%s", key, want)
		}
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case nil:
		return "", nil
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// splitPath splits a lookup path at the dots outside brackets.
func splitPath(path string) []string {
	var parts []string
	depth, start := 0, 0
	for i, c := range path {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
		case '.':
			if depth == 0 {
				parts = append(parts, path[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, path[start:])
}
