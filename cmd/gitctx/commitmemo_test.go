package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestCommitMemoStore(t *testing.T) {
	m := commitMemo{t.TempDir()}
	ids := []string{strings.Repeat("a", 40), strings.Repeat("b", 40)}
	if _, ok := m.Get("k"); ok {
		t.Fatal("an empty memo answered")
	}
	m.Put("k", ids)
	if got, ok := m.Get("k"); !ok || fmt.Sprint(got) != fmt.Sprint(ids) {
		t.Errorf("Get = %q, %v; want %q", got, ok, ids)
	}
	if _, ok := m.Get("other"); ok {
		t.Error("another key answered")
	}
	for name, data := range map[string]string{
		"cut short":  strings.Repeat("a", 40) + "\n" + strings.Repeat("b", 20),
		"not an id":  "not-an-id\n",
		"upper case": strings.Repeat("A", 40) + "\n",
		"empty":      "",
	} {
		if err := os.WriteFile(m.path("k"), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, ok := m.Get("k"); ok {
			t.Errorf("%s: Get = %q", name, got)
		}
	}
}

func TestCommitMemoTrim(t *testing.T) {
	m := commitMemo{t.TempDir()}
	for i := range maxCommitEntries + 5 {
		m.Put(fmt.Sprint(i), []string{strings.Repeat("c", 40)})
	}
	entries, err := os.ReadDir(m.dir)
	if err != nil || len(entries) > maxCommitEntries {
		t.Errorf("%d entries kept (%v), want at most %d", len(entries), err, maxCommitEntries)
	}
	if _, ok := m.Get(fmt.Sprint(maxCommitEntries + 4)); !ok {
		t.Error("the newest entry was removed")
	}
}
