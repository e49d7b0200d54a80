package pack

import (
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
)

// view is what every format renders: the pack's parts, independent of
// how they are written.
type view struct {
	Type        string // full or summary
	Tool        Tool
	Source      gitctx.Source
	Commits     []commitView
	CommitsCut  string  // where a shallow clone's history cuts Commits short (see gitctx.Change.CommitsCut); "" when whole
	PullRequest *prView // the pull request, nil without one
	Messages    bool    // show whole commit messages (else subjects only)
	MaxCommits  int     // list at most this many commits (0: all)
	AllCommits  int     // the range's commits, where Commits lists none of them (a split pack's later parts)
	Manifest    Manifest
	Entries     []*entry // every file considered, in index order
	ShowTree    bool
	Boundary    string
	Budget      BudgetRecord
	Steps       []string // degradation steps taken
	Redacted    int      // placeholders in the pack
	Part        int      // this part of a split pack, from 1; 0 when not split
	Parts       int
	Keys        []keyFile
	Spots       []hotspot

	// origins says where each placeholder of the parts other than files
	// (paths, commit messages, the manifest) came from.
	origins map[string]RedactionItem
}

// origin notes where a placeholder first came from.
func (v *view) origin(placeholder string, item RedactionItem) {
	if _, ok := v.origins[placeholder]; !ok {
		v.origins[placeholder] = item
	}
}

type commitView struct {
	SHA     string
	Subject string
	Message string
}

// commits lists the commits the pack shows, newest first.
func (v *view) commits() []commitView {
	if v.MaxCommits > 0 && len(v.Commits) > v.MaxCommits {
		return v.Commits[:v.MaxCommits]
	}
	return v.Commits
}

// shown lists the entries whose diff or content is in the pack.
func (v *view) shown() []*entry {
	var out []*entry
	for _, e := range v.Entries {
		if e.included() && !e.nameOnly {
			out = append(out, e)
		}
	}
	return out
}

// listed lists the entries the file index names: every changed file, and
// the neighbours and guides that are in the pack. (Those left out are in
// the record only: naming them would spend the budget they were dropped
// to save.)
func (v *view) listed() []*entry {
	var out []*entry
	for _, e := range v.Entries {
		if e.role == RoleChanged || e.included() {
			out = append(out, e)
		}
	}
	return out
}

// counts for the summary.
func (v *view) counts() (changed, shown, listed, neighbours int) {
	for _, e := range v.listed() {
		switch {
		case e.role == RoleChanged:
			changed++
		case e.included():
			neighbours++
		}
		if e.included() && !e.nameOnly {
			shown++
		} else {
			listed++
		}
	}
	return
}

// partNote says which part of a split pack this is.
func (v *view) partNote() string {
	if v.Parts == 0 {
		return ""
	}
	note := fmt.Sprintf(" This is part %d of %d: each holds whole files, and together they hold the change.", v.Part, v.Parts)
	if v.Part > 1 {
		note += " The commit messages and the files shown in no part are listed in part 1."
	}
	return note
}

// fileCounts says how many files of each kind the pack considers.
func fileCounts(changed, others int) string {
	s := fmt.Sprintf("%d changed", changed)
	if others > 0 {
		s += fmt.Sprintf(", %d more for context", others)
	}
	return s
}

// changeLine describes the change in one line.
func (v *view) changeLine() string {
	s := v.Source
	switch s.Kind {
	case gitctx.KindRange, gitctx.KindPullRequest:
		line := fmt.Sprintf("%s %s (%s..%s)", s.Kind, inlineCode(s.Spec), shortID(s.Base), shortID(s.Head))
		n := max(len(v.Commits), v.AllCommits)
		line += fmt.Sprintf(", %d commit%s", n, plural(n))
		if v.CommitsCut != "" {
			line += fmt.Sprintf(" (a shallow clone's history stops at %s: the range may hold older commits)", shortID(v.CommitsCut))
		}
		return line
	case gitctx.KindStaged:
		return "the staged changes (index against " + orEmptyTree(s.Base) + ")"
	case gitctx.KindWorktree:
		return "the uncommitted changes in the work tree (against " + orEmptyTree(s.Base) + ")"
	default:
		line := "the patch " + inlineCode(s.Spec)
		if n := max(len(v.Commits), v.AllCommits); n > 0 {
			line += fmt.Sprintf(", %d commit%s", n, plural(n))
		}
		return line
	}
}

func orEmptyTree(base string) string {
	if base == "" {
		return "the empty tree: no commits yet"
	}
	return "HEAD " + shortID(base)
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// commitLabel names a commit in a heading: its short id, or, for a
// patch's message that gives none, says so.
func commitLabel(sha string) string {
	if sha == "" {
		return "(no commit id)"
	}
	return shortID(sha)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// diffHeading describes a changed file above its diff:
// "greet.go (modified, +3 -1)".
func diffHeading(e *entry) string {
	var parts []string
	switch gitctx.Status(e.status) {
	case gitctx.Renamed, gitctx.Copied:
		parts = append(parts, fmt.Sprintf("%s from %s", e.status, displayPath(e.oldLabel.String())))
	default:
		parts = append(parts, strings.ReplaceAll(e.status, "_", " "))
	}
	if f := e.file; f != nil && f.OldMode != 0 && f.NewMode != 0 && f.OldMode != f.NewMode {
		parts = append(parts, fmt.Sprintf("mode %06o → %06o", f.OldMode, f.NewMode))
	}
	switch e.kind {
	case KindSymlink:
		parts = append(parts, "symbolic link")
	case KindSubmodule:
		parts = append(parts, "submodule pointer")
	case KindLFSPointer:
		parts = append(parts, "Git LFS pointer")
	}
	if e.patch != nil {
		parts = append(parts, fmt.Sprintf("+%d -%d", e.patch.Added, e.patch.Deleted))
	}
	if e.shortened {
		parts = append(parts, "digests shortened")
	}
	if e.diffContext >= 0 && e.diffContext < 3 {
		parts = append(parts, fmt.Sprintf("%d context line%s", e.diffContext, plural(e.diffContext)))
	}
	return e.name() + " (" + strings.Join(parts, ", ") + ")"
}

// contentHeading describes a file above its content.
func contentHeading(e *entry) string {
	var note string
	switch e.showContent {
	case RepTruncated:
		note = "truncated: head and tail only"
		switch {
		case e.lock:
			note = "truncated: the entries of the packages the change names only"
		case e.kept != nil && e.role == RoleChanged:
			note = "truncated: its head and the code its changes sit in"
		case e.kept != nil:
			note = "truncated: its head and the code about the names it shares with the change"
		}
	case RepOutline:
		note = "outline: declarations only, bodies elided"
	}
	switch e.kind {
	case KindSymlink:
		note = joinNote(note, "symbolic link; its target, not followed")
	case KindLFSPointer:
		note = joinNote(note, "Git LFS pointer; the object is not fetched")
	}
	if e.shortened {
		note = joinNote(note, "digests shortened")
	}
	if e.encoding != "" && e.encoding != "utf-8" {
		note = joinNote(note, "decoded from "+e.encoding)
	}
	if e.role != RoleChanged {
		note = joinNote(note, e.role)
	}
	if note == "" {
		return e.name()
	}
	return e.name() + " (" + note + ")"
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// shownAs is the representation column of the file index.
func shownAs(e *entry) string {
	return strings.ReplaceAll(e.representation(), "_", " ")
}

// indexReason is the reason column of the file index.
func indexReason(e *entry) string {
	if !e.included() {
		return "excluded: " + strings.ReplaceAll(e.excluded, "_", " ")
	}
	if e.patchNote != "" {
		return joinNote(e.reason, e.patchNote)
	}
	return e.reason
}
