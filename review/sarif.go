package review

import (
	"encoding/json"
	"fmt"
)

// SARIF encodes findings as a SARIF 2.1.0 log, for GitHub code scanning
// and other viewers.
func SARIF(findings []Finding, toolVersion string) ([]byte, error) {
	type region struct {
		StartLine int `json:"startLine"`
		EndLine   int `json:"endLine,omitempty"`
	}
	type location struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI string `json:"uri"`
			} `json:"artifactLocation"`
			Region region `json:"region"`
		} `json:"physicalLocation"`
	}
	type result struct {
		RuleID    string            `json:"ruleId"`
		Level     string            `json:"level"`
		Message   map[string]string `json:"message"`
		Locations []location        `json:"locations"`
	}
	results := []result{}
	for _, f := range findings {
		if f.Side == "LEFT" {
			continue // a removed line has no place in the new tree
		}
		var l location
		l.PhysicalLocation.ArtifactLocation.URI = f.Path
		l.PhysicalLocation.Region = region{StartLine: f.Line}
		if f.StartLine > 0 {
			l.PhysicalLocation.Region = region{StartLine: f.StartLine, EndLine: f.Line}
		}
		results = append(results, result{
			RuleID: "gitctx/review", Level: sarifLevel(f.Severity),
			Message: map[string]string{"text": messageOf(f)}, Locations: []location{l},
		})
	}
	log := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "gitctx", "version": toolVersion, "informationUri": "https://github.com/gitctx/gitctx",
				"rules": []any{map[string]any{"id": "gitctx/review", "shortDescription": map[string]string{"text": "A language model's review finding"}}},
			}},
			"results": results,
		}},
	}
	return encode(log)
}

func sarifLevel(severity string) string {
	switch severity {
	case "error":
		return "error"
	case "info":
		return "note"
	}
	return "warning"
}

// RDJSON encodes findings in reviewdog's rdjson format (reviewdog -f=rdjson).
func RDJSON(findings []Finding) ([]byte, error) {
	type pos struct {
		Line int `json:"line"`
	}
	type diag struct {
		Message  string `json:"message"`
		Severity string `json:"severity"`
		Location struct {
			Path  string `json:"path"`
			Range struct {
				Start pos  `json:"start"`
				End   *pos `json:"end,omitempty"`
			} `json:"range"`
		} `json:"location"`
	}
	diags := []diag{}
	for _, f := range findings {
		if f.Side == "LEFT" {
			continue
		}
		d := diag{Message: messageOf(f), Severity: map[string]string{"error": "ERROR", "warning": "WARNING"}[f.Severity]}
		if d.Severity == "" {
			d.Severity = "INFO"
		}
		d.Location.Path = f.Path
		d.Location.Range.Start = pos{Line: f.Line}
		if f.StartLine > 0 {
			d.Location.Range.Start, d.Location.Range.End = pos{Line: f.StartLine}, &pos{Line: f.Line}
		}
		diags = append(diags, d)
	}
	return encode(map[string]any{"source": map[string]string{"name": "gitctx"}, "diagnostics": diags})
}

func messageOf(f Finding) string {
	switch {
	case f.Title == "":
		return f.Body
	case f.Body == "":
		return f.Title
	}
	return f.Title + ": " + f.Body
}

func encode(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode findings: %w", err)
	}
	return append(data, '\n'), nil
}
