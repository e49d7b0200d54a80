package pack

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestRunContextCmd runs context commands: their lines come back, in the
// directory given; a failure quotes standard error; a command over its
// time or its output is stopped.
func TestRunContextCmd(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		cmd     string
		timeout time.Duration
		want    []string
		err     string // a part of the error, "" for none
		is      error
	}{
		{"lines", `printf 'a.md\n\nb c.md\r\n./d/e.go'`, 0, []string{"a.md", "b c.md", "./d/e.go"}, "", nil},
		{"in the directory", "pwd", 0, []string{dir}, "", nil},
		{"no output", "true", 0, nil, "", nil},
		{"no input", "cat", 0, nil, "", nil},
		{"fails", "echo oops >&2; exit 3", 0, nil, `context command "echo oops >&2; exit 3": exit status 3: oops`, nil},
		{"times out", "sleep 600", 200 * time.Millisecond, nil, `context command "sleep 600": timed out after 200ms and was stopped`, ErrContextCmdTimeout},
		{"times out, with a child holding the output", "sleep 600 & sleep 600", 200 * time.Millisecond, nil, "timed out", ErrContextCmdTimeout},
		{"too much output", "yes docs/top.md", 0, nil, "printed more than 1,048,576 bytes", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			got, err := RunContextCmd(context.Background(), dir, tt.cmd, tt.timeout)
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("took %s", took)
			}
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one with %q", err, tt.err)
			case tt.is != nil && !errors.Is(err, tt.is):
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("lines %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRunContextCmdCancelled checks that cancelling stops the command and
// says so.
func TestRunContextCmdCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := RunContextCmd(ctx, t.TempDir(), "sleep 600", time.Minute)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}
