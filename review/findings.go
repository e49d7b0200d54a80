package review

import (
	"encoding/json"
	"io/fs"
	"strings"
)

// Finding is one remark of the model, anchored to a line of the change
// so it can be posted inline. Line numbers are in the new file (Side
// RIGHT) or the old one (Side LEFT).
type Finding struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	StartLine int    `json:"start_line,omitempty"`
	Side      string `json:"side,omitempty"` // RIGHT (default) or LEFT
	Severity  string `json:"severity"`       // info, warning, error
	Title     string `json:"title"`
	Body      string `json:"body"`
}

// maxFindings bounds what one answer may ask to post.
const maxFindings = 50

// ParseFindings reads the findings the model listed in a fenced json
// block of its answer ({"findings": [...]} or a bare list). Findings that
// are not anchored to a line of a repository path are dropped: they are
// still in the answer's text. The last block that parses wins.
func ParseFindings(answer string) []Finding {
	var found []Finding
	for _, block := range jsonBlocks(answer) {
		if fs, ok := decodeFindings(block); ok {
			found = fs
		}
	}
	var out []Finding
	for _, f := range found {
		if f, ok := normalise(f); ok && len(out) < maxFindings {
			out = append(out, f)
		}
	}
	return out
}

// jsonBlocks returns the bodies of the answer's ```json fences.
func jsonBlocks(s string) []string {
	var blocks []string
	for {
		i := strings.Index(s, "```json")
		if i < 0 {
			return blocks
		}
		s = s[i+len("```json"):]
		end := strings.Index(s, "```")
		if end < 0 {
			return append(blocks, s)
		}
		blocks = append(blocks, s[:end])
		s = s[end+3:]
	}
}

func decodeFindings(block string) ([]Finding, bool) {
	var wrapped struct {
		Findings []Finding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(block), &wrapped); err == nil && wrapped.Findings != nil {
		return wrapped.Findings, true
	}
	var list []Finding
	if err := json.Unmarshal([]byte(block), &list); err == nil {
		return list, true
	}
	return nil, false
}

// normalise checks a finding's anchor and fills its defaults.
func normalise(f Finding) (Finding, bool) {
	f.Path = strings.TrimPrefix(strings.TrimSpace(f.Path), "./")
	if f.Path == "" || f.Line < 1 || strings.HasPrefix(f.Path, "/") || !fs.ValidPath(f.Path) {
		return f, false
	}
	switch strings.ToUpper(f.Side) {
	case "", "RIGHT":
		f.Side = "RIGHT"
	case "LEFT":
		f.Side = "LEFT"
	default:
		return f, false
	}
	if f.StartLine >= f.Line || f.StartLine < 0 {
		f.StartLine = 0
	}
	switch s := strings.ToLower(f.Severity); s {
	case "info", "warning", "error":
		f.Severity = s
	case "note", "suggestion", "nit":
		f.Severity = "info"
	case "critical", "high", "bug":
		f.Severity = "error"
	default:
		f.Severity = "warning"
	}
	return f, true
}
