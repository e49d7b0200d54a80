package gitctx

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// mapMemo is a CommitMemo in memory.
type mapMemo struct {
	mu   sync.Mutex
	m    map[string][]string
	gets int
}

func (m *mapMemo) Get(key string) ([]string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gets++
	ids, ok := m.m[key]
	return ids, ok
}

func (m *mapMemo) Put(key string, ids []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[key] = ids
}

// TestCommitMemo: a range's commits read by the ids kept are those git
// log lists, messages and order alike; a commit whose message git would
// re-encode, or a kept id that is missing, is listed by git log again.
func TestCommitMemo(t *testing.T) {
	r := newTestRepo(t)
	r.Write("a.txt", "one\n")
	r.Commit("base")
	r.Write("a.txt", "two\n")
	r.Commit("subject\n\nbody line\n\n\ttrailer: x")
	r.Git("checkout", "-q", "-b", "side", "HEAD~1")
	r.Write("b.txt", "side\n")
	r.Commit("side work")
	r.Git("checkout", "-q", "-")
	r.Git("merge", "-q", "--no-edit", "side")
	r.Write("a.txt", "three\n")
	r.Commit("  leading spaces, trailing newlines\n\n\n")

	ctx := context.Background()
	list := func(m CommitMemo) []Commit {
		repo := r.open()
		repo.SetCommitMemo(m)
		c, err := repo.SelectRange(ctx, "HEAD~3..HEAD")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.WaitCommits(); err != nil {
			t.Fatal(err)
		}
		return c.Commits
	}
	plain := list(nil)
	if len(plain) != 4 {
		t.Fatalf("%d commits listed, want 4", len(plain))
	}
	memo := &mapMemo{m: map[string][]string{}}
	first := list(memo)
	if len(memo.m) != 1 {
		t.Fatalf("%d ranges kept", len(memo.m))
	}
	second := list(memo)
	if !reflect.DeepEqual(first, plain) || !reflect.DeepEqual(second, plain) {
		t.Errorf("commits from the memo differ:\nlog:  %q\nmemo: %q", plain, second)
	}

	// a kept id that names no commit: git log lists them again
	for k, ids := range memo.m {
		memo.m[k] = append([]string{strings.Repeat("1", 40)}, ids...)
	}
	if got := list(memo); !reflect.DeepEqual(got, plain) {
		t.Errorf("with a missing id kept: %q", got)
	}
}

// TestCommitMessage: a message is what follows the headers; one git would
// re-encode is refused.
func TestCommitMessage(t *testing.T) {
	for _, tc := range []struct {
		obj, msg string
		ok       bool
	}{
		{"tree x\nauthor a\n\nsubject\n\nbody\n", "subject\n\nbody\n", true},
		{"tree x\ngpgsig -----BEGIN\n line\n -----END\n\nsigned\n", "signed\n", true},
		{"tree x\nencoding UTF-8\n\nfine\n", "fine\n", true},
		{"tree x\nencoding ISO-8859-1\n\ncaf\xe9\n", "", false},
		{"tree x\n", "", true},
	} {
		msg, ok := commitMessage([]byte(tc.obj))
		if msg != tc.msg || ok != tc.ok {
			t.Errorf("commitMessage(%q) = %q, %v; want %q, %v", tc.obj, msg, ok, tc.msg, tc.ok)
		}
	}
}
