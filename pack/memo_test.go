package pack

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/gitctx/gitctx/gitctx/neighbours"
)

// TestNeighbourMemo: a pack of a range keeps its neighbours in the memo,
// and a later pack of it takes them from there, under the same rules and
// context files only.
func TestNeighbourMemo(t *testing.T) {
	ch := truncRepo(t)
	dir := t.TempDir()
	memo, err := neighbours.OpenMemo(dir, "test build")
	if err != nil {
		t.Fatal(err)
	}
	opts := options(counter(t), JSON, 0)
	opts.NeighbourMemo = memo
	build(t, ch, opts)
	des, err := os.ReadDir(dir)
	if err != nil || len(des) != 1 {
		t.Fatalf("the memo holds %d entries (%v), want 1", len(des), err)
	}
	// Plant a neighbour no search finds: a pack that shows it read it.
	planted, _ := json.Marshal(map[string]any{"neighbours": []neighbours.Neighbour{{Path: "CONTRIBUTING.md", Score: 2.5, Reasons: []string{"planted"}}}})
	if err := os.WriteFile(filepath.Join(dir, des[0].Name()), planted, 0o600); err != nil {
		t.Fatal(err)
	}
	isPlanted := func(rec *Record) bool {
		return len(rec.Neighbours) == 1 && rec.Neighbours[0].Path == "CONTRIBUTING.md" && rec.Neighbours[0].Reasons[0] == "planted"
	}
	if res := build(t, ch, opts); !isPlanted(res.Record) {
		t.Errorf("the same pack again did not read the memo: %+v", res.Record.Neighbours)
	}
	other := opts
	other.Rules.Exclude = []string{"*.txt"}
	if res := build(t, ch, other); isPlanted(res.Record) {
		t.Errorf("other rules: the memo answered")
	}
	other = opts
	other.Context.Paths = []string{"AGENTS.md"}
	if res := build(t, ch, other); isPlanted(res.Record) {
		t.Errorf("other context files: the memo answered")
	}
}
