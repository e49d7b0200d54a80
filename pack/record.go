package pack

// SchemaVersion names the record format.
const SchemaVersion = "gitctx.record/v1"

// Record is the transparency record written beside every pack: what was
// sent, what was left out and why. It never holds a secret, a fragment of
// one, or a hash of one.
type Record struct {
	Schema             string         `json:"schema"`
	Tool               Tool           `json:"tool"`
	CreatedAt          string         `json:"created_at"`
	Source             SourceRecord   `json:"source"`
	Pack               PackRecord     `json:"pack"`
	Budget             BudgetRecord   `json:"budget"`
	Files              []FileRecord   `json:"files"`
	Neighbours         []Neighbour    `json:"neighbours"`
	Redactions         Redactions     `json:"redactions"`
	ExclusionsByReason map[string]int `json:"exclusions_by_reason"`
	Stats              Stats          `json:"stats"`
	Delivery           Delivery       `json:"delivery"`
	Warnings           []Problem      `json:"warnings"`
	Errors             []Problem      `json:"errors"`
}

// Tool names the program that made the record.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// SourceRecord says which change was packed.
type SourceRecord struct {
	Kind      string         `json:"kind"`
	Spec      string         `json:"spec"`
	Base      string         `json:"base"`
	Head      string         `json:"head"`
	MergeBase string         `json:"merge_base"`
	Shallow   bool           `json:"shallow"`
	Commits   []CommitRecord `json:"commits"`
	// PullRequest is the pull request the change belongs to, when known.
	PullRequest *PullRequestRecord `json:"pull_request,omitempty"`
}

// PullRequestRecord names a pull request; its title is redacted.
type PullRequestRecord struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
}

// CommitRecord is one commit of the range.
type CommitRecord struct {
	SHA     string `json:"sha"`
	Subject string `json:"subject"`
}

// PackRecord describes the pack itself.
type PackRecord struct {
	Type            string     `json:"type"` // full or summary
	SelectionReason string     `json:"selection_reason"`
	Format          string     `json:"format"`
	Path            string     `json:"path"` // relative to the output directory, "-" for stdout
	Parts           int        `json:"parts"`
	PartFiles       []PartFile `json:"part_files,omitempty"`
	Bytes           int64      `json:"bytes"`
	Tokens          int        `json:"tokens"`
	SHA256          string     `json:"sha256"`
	Boundary        string     `json:"boundary"`
	Steps           []string   `json:"degradation_steps"`
}

// PartFile is one part of a split pack.
type PartFile struct {
	Path     string `json:"path"`
	SHA256   string `json:"sha256"`
	Tokens   int    `json:"tokens"`
	Boundary string `json:"boundary"` // each part has its own, derived from its content
}

// BudgetRecord is the token budget the pack was sized to.
type BudgetRecord struct {
	Provider       string `json:"provider"`
	Model          string `json:"model"`
	Tokenizer      string `json:"tokenizer"`
	ContextWindow  int    `json:"context_window"`
	ReservedOutput int    `json:"reserved_output"`
	Limit          int    `json:"limit"`
	Used           int    `json:"used"`
}

// FileRecord is one file that was considered, included or not.
type FileRecord struct {
	Path            string   `json:"path"`
	OldPath         string   `json:"old_path,omitempty"`
	Role            string   `json:"role"` // changed, neighbour, context, guide
	Status          string   `json:"status,omitempty"`
	Kind            string   `json:"kind"` // text, binary, symlink, submodule, lfs_pointer
	Included        bool     `json:"included"`
	Representation  string   `json:"representation"` // diff, full, outline, truncated, name_only
	Bytes           int64    `json:"bytes"`
	Tokens          int      `json:"tokens"`
	Additions       int      `json:"additions"`
	Deletions       int      `json:"deletions"`
	Encoding        string   `json:"encoding,omitempty"`
	Score           *float64 `json:"score,omitempty"`
	Reason          string   `json:"reason"`
	ExclusionReason string   `json:"exclusion_reason,omitempty"`
}

// Neighbour is a file chosen because of its relation to the change.
type Neighbour struct {
	Path    string   `json:"path"`
	Score   float64  `json:"score"`
	Reasons []string `json:"reasons"`
}

// Redactions counts what the egress gate removed.
type Redactions struct {
	Total  int             `json:"total"`
	ByRule map[string]int  `json:"by_rule"`
	Items  []RedactionItem `json:"items"`
}

// RedactionItem is one placeholder in the pack.
type RedactionItem struct {
	Path        string `json:"path"`
	Side        string `json:"side"` // new, old, context, commit_message, pr_title, pr_body, file_name, answer, instructions
	Line        int    `json:"line"`
	Rule        string `json:"rule"`
	Placeholder string `json:"placeholder"`
}

// Stats are totals over the files considered.
type Stats struct {
	FilesScanned   int   `json:"files_scanned"`
	FilesIncluded  int   `json:"files_included"`
	FilesExcluded  int   `json:"files_excluded"`
	ContentBytes   int64 `json:"content_bytes"`
	TruncatedFiles int   `json:"truncated_files"`
}

// Delivery says where the pack went.
type Delivery struct {
	Kind             string  `json:"kind"`
	EndpointHost     string  `json:"endpoint_host"`
	Model            string  `json:"model"`
	CommentURL       string  `json:"comment_url"`
	EstimatedCostUSD float64 `json:"estimated_cost_usd"`
}

// Problem is a warning or an error met while packing.
type Problem struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}
