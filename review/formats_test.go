package review_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/review"
)

func TestFindingFormats(t *testing.T) {
	fs := []review.Finding{
		{Path: "a.go", Line: 3, Side: "RIGHT", Severity: "error", Title: "Nil", Body: "deref"},
		{Path: "b.go", Line: 9, StartLine: 7, Side: "RIGHT", Severity: "info", Title: "Range"},
		{Path: "old.go", Line: 2, Side: "LEFT", Severity: "warning", Title: "Removed"},
	}
	data, err := review.SARIF(fs, "1.0")
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Results []struct {
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						Region struct{ StartLine, EndLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil || log.Version != "2.1.0" {
		t.Fatalf("sarif: %v %s", err, data)
	}
	res := log.Runs[0].Results
	if len(res) != 2 || res[0].Level != "error" || res[1].Level != "note" || res[1].Locations[0].PhysicalLocation.Region.StartLine != 7 {
		t.Errorf("sarif results %+v", res)
	}
	data, err = review.RDJSON(fs)
	if err != nil || !strings.Contains(string(data), `"severity": "ERROR"`) || strings.Contains(string(data), "old.go") {
		t.Errorf("rdjson: %v\n%s", err, data)
	}
}

func TestDetailsEscapeRepositoryText(t *testing.T) {
	rec := &pack.Record{
		Pack:   pack.PackRecord{Type: "full", Tokens: 10, SHA256: "sha256:0123456789abcdef"},
		Budget: pack.BudgetRecord{Limit: 100},
		Files: []pack.FileRecord{
			{Path: "a|b`</details>@team.go", Role: "changed", Included: true, Representation: "diff", Tokens: 5},
			{Path: ".env", Role: "changed", ExclusionReason: "credentials"},
		},
		Neighbours:         []pack.Neighbour{{Path: "n.go", Score: 2.5, Reasons: []string{"imports <script>"}}},
		ExclusionsByReason: map[string]int{"credentials": 1},
		Redactions:         pack.Redactions{ByRule: map[string]int{"github-pat": 2}},
	}
	d := review.Details(rec)
	for _, want := range []string{"**full pack**, 10 of 100 tokens", "``a\\|b`</details>@team.go``", "- credentials (1): `.env`", "github-pat 2", "imports &lt;script&gt;", "`0123456789ab`"} {
		if !strings.Contains(d, want) {
			t.Errorf("details lack %q:\n%s", want, d)
		}
	}
}
