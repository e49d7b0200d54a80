package main

import (
	"path/filepath"
	"testing"

	"github.com/gitctx/gitctx/pack"
)

// TestSummaryLine checks the counts of the line a run ends with: files
// shown, listed by name in the pack, and left out of it (named in
// record.json alone), which it says only when there are some.
func TestSummaryLine(t *testing.T) {
	shown := func(role string) pack.FileRecord {
		return pack.FileRecord{Role: role, Included: true, Representation: pack.RepFull}
	}
	for _, tc := range []struct {
		name  string
		files []pack.FileRecord
		want  string
	}{
		{"all shown", []pack.FileRecord{shown(pack.RoleChanged), shown(pack.RoleNeighbour)},
			"gitctx: full pack, 2 files (2 shown, 0 listed by name), 10 of 1,000 tokens, 0 redactions → out/pack.md (record: out/record.json)"},
		{"a credential file listed, neighbours left out", []pack.FileRecord{
			shown(pack.RoleChanged),
			{Role: pack.RoleChanged, Representation: pack.RepNameOnly, ExclusionReason: "secret_file"},
			{Role: pack.RoleNeighbour, Representation: pack.RepNameOnly, ExclusionReason: "budget"},
			{Role: pack.RoleGuide, Representation: pack.RepNameOnly, ExclusionReason: "budget"},
		}, "gitctx: full pack, 4 files (1 shown, 1 listed by name, 2 left out), 10 of 1,000 tokens, 0 redactions → out/pack.md (record: out/record.json)"},
		{"a summary's changed files by name", []pack.FileRecord{
			shown(pack.RoleChanged),
			{Role: pack.RoleChanged, Included: true, Representation: pack.RepNameOnly},
		}, "gitctx: full pack, 2 files (1 shown, 1 listed by name), 10 of 1,000 tokens, 0 redactions → out/pack.md (record: out/record.json)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &pack.Record{Files: tc.files}
			rec.Pack.Type, rec.Pack.Path, rec.Pack.Tokens, rec.Budget.Limit = "full", "pack.md", 10, 1000
			if got := summaryLine(rec, "out", &packOptions{}); got != filepath.FromSlash(tc.want) {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
