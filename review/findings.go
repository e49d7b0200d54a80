package review

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
