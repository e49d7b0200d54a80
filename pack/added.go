package pack

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/secrets"
)

// AddedSecret is a credential on a line the change adds. It names where
// and which rule, never the credential.
type AddedSecret struct {
	Path string // through the gate, like every path gitctx prints
	Line int    // in the new version of the file; 0 for the file's name
	Rule string
}

func (a AddedSecret) String() string {
	if a.Line == 0 {
		return fmt.Sprintf("%s (its name): %s", a.Path, a.Rule)
	}
	return fmt.Sprintf("%s:%d: %s", a.Path, a.Line, a.Rule)
}

// AddedLimit is the largest patch (or UTF-16 file) of one file
// AddedSecrets reads; a larger one is reported unchecked. It is the size
// over which gitctx never diffs an untracked file either.
const AddedLimit = gitctx.LargeFile

// AddedSecrets finds credentials on the lines a change adds, in every
// changed text file — credential files and excluded directories included:
// what blocks a commit is what the commit adds, not what a pack would
// show. Each hunk's new side is scanned as one text (added lines with the
// context around them), and findings on added lines are reported, but for
// those the repository's .gitleaks.toml allows (secrets.Gate.BlockingHits).
// A patch too large to read is reported as unchecked in the second result
// (its path, like every path here, through the gate).
func AddedSecrets(ctx context.Context, ch *gitctx.Change, gate *secrets.Gate) ([]AddedSecret, []string, error) {
	type job struct {
		f *gitctx.File
		p *gitctx.Patch
	}
	var jobs []job
	var unchecked []string
	err := ch.Patches(ctx, func(f *gitctx.File) bool { return f.NewMode != 0 && !f.IsSubmodule() }, AddedLimit,
		func(f *gitctx.File, p *gitctx.Patch) error {
			switch {
			case p.Oversize:
				unchecked = append(unchecked, f.Path)
			case p.Binary:
				// git sees NUL bytes; UTF-16 text is checked as decoded
				jobs = append(jobs, job{f, nil})
			case p.Added > 0:
				jobs = append(jobs, job{f, p})
			}
			return nil
		})
	if err != nil {
		return nil, nil, err
	}
	var mu sync.Mutex
	var found []AddedSecret
	err = parallel(ctx, jobs, func(j job) error {
		var hits []secrets.Hit
		var err error
		if j.p == nil {
			hits, err = decodedHits(ctx, ch, gate, j.f)
		} else if hits, err = addedHits(ctx, gate, j.f.Path, j.p); err == nil {
			var keys []secrets.Hit
			keys, err = keyHits(ctx, ch, gate, j.f, j.p)
			hits = appendNew(hits, keys)
		}
		if err != nil {
			return fmt.Errorf("check %s for credentials: %w", j.f.Path, err)
		}
		if len(hits) == 0 {
			return nil
		}
		label, _, err := gate.RedactString(ctx, cleanText(decodeLine(j.f.Path)))
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		for _, h := range hits {
			found = append(found, AddedSecret{Path: label.String(), Line: h.Line, Rule: ruleOf(h.Placeholder)})
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	names, err := nameSecrets(ctx, ch, gate)
	if err != nil {
		return nil, nil, err
	}
	found = append(found, names...)
	if unchecked, err = labels(ctx, gate, unchecked); err != nil {
		return nil, nil, err
	}
	sort.Slice(found, func(i, k int) bool {
		if found[i].Path != found[k].Path {
			return found[i].Path < found[k].Path
		}
		return found[i].Line < found[k].Line
	})
	return found, unchecked, nil
}

// nameSecrets finds credentials in the names a change brings (a file
// added, renamed or copied, whatever its content): a name is pushed with
// the commit as surely as a line is. Each is reported with line 0.
func nameSecrets(ctx context.Context, ch *gitctx.Change, gate *secrets.Gate) ([]AddedSecret, error) {
	var out []AddedSecret
	for _, f := range ch.Files {
		if f.Status != gitctx.Added && f.Status != gitctx.Renamed && f.Status != gitctx.Copied {
			continue
		}
		name := cleanText(decodeLine(f.Path))
		hits, err := gate.BlockingHits(ctx, f.Path, name)
		if err != nil {
			return nil, fmt.Errorf("check the name %s for credentials: %w", f.Path, err)
		}
		if len(hits) == 0 {
			continue
		}
		label, _, err := gate.RedactString(ctx, name)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			out = append(out, AddedSecret{Path: label.String(), Rule: ruleOf(h.Placeholder)})
		}
	}
	return out, nil
}

// labels returns paths through the gate, as gitctx prints them.
func labels(ctx context.Context, gate *secrets.Gate, paths []string) ([]string, error) {
	out := make([]string, len(paths))
	for i, p := range paths {
		label, _, err := gate.RedactString(ctx, cleanText(decodeLine(p)))
		if err != nil {
			return nil, err
		}
		out[i] = label.String()
	}
	return out, nil
}

// addedHits scans each hunk's new side and keeps the placeholders that
// fall on added lines, with their line numbers in the new file.
func addedHits(ctx context.Context, gate *secrets.Gate, path string, p *gitctx.Patch) ([]secrets.Hit, error) {
	var out []secrets.Hit
	for _, h := range p.Hunks {
		var text strings.Builder
		var nums []int
		var added []bool
		size := 0
		for l := range hunkLines(h) {
			size += len(l.Text) + 1
		}
		text.Grow(size) // a 50 MB hunk grown by doubling allocates six times over
		for l := range hunkLines(h) {
			if l.newNo == 0 {
				continue
			}
			text.WriteString(cleanText(decodeLine(l.Text)))
			text.WriteByte('\n')
			nums = append(nums, l.newNo)
			added = append(added, l.Op == '+')
		}
		hits, err := gate.BlockingHits(ctx, path, text.String())
		if err != nil {
			return nil, err
		}
		for _, hit := range hits {
			if hit.Line < len(nums) && added[hit.Line] {
				hit.Line = nums[hit.Line]
				out = append(out, hit)
			}
		}
	}
	return out, nil
}

// pemBegin starts a PEM block or a PuTTY key's private lines: a multi-line
// credential such as a private key, which the rules recognise only from
// its first line on.
var pemBegin = regexp.MustCompile(`(?i)-----BEGIN|Private-Lines:`)

// keyHits finds what a scan of the hunks cannot: a key rotated in place
// changes body lines far from its BEGIN line, so no hunk holds the line
// that makes it a key. When the new version of a file has a PEM block (or
// a PuTTY key), the whole file is scanned and the hits on added lines are
// kept.
func keyHits(ctx context.Context, ch *gitctx.Change, gate *secrets.Gate, f *gitctx.File, p *gitctx.Patch) ([]secrets.Hit, error) {
	_, data, err := ch.Read(ctx, f, gitctx.New, AddedLimit)
	if err != nil || !pemBegin.Match(data) {
		return nil, nil // unreadable (the hunks were checked) or no PEM block
	}
	d := decode(data)
	if d.Kind != KindText {
		return nil, nil
	}
	added := map[int]bool{}
	for _, h := range p.Hunks {
		for l := range hunkLines(h) {
			if l.Op == '+' {
				added[l.newNo] = true
			}
		}
	}
	hits, err := gate.BlockingHits(ctx, f.Path, d.Text)
	if err != nil {
		return nil, err
	}
	var out []secrets.Hit
	for _, h := range hits {
		if h.Line++; added[h.Line] { // 1-based, as in a diff
			out = append(out, h)
		}
	}
	return out, nil
}

// appendNew adds to hits those of more on a line and of a rule hits does
// not have yet.
func appendNew(hits, more []secrets.Hit) []secrets.Hit {
	type key struct {
		line int
		rule string
	}
	seen := map[key]bool{}
	for _, h := range hits {
		seen[key{h.Line, h.Rule}] = true
	}
	for _, h := range more {
		if k := (key{h.Line, h.Rule}); !seen[k] {
			seen[k] = true
			hits = append(hits, h)
		}
	}
	return hits
}

// decodedHits checks a file git found binary: if its new side decodes to
// text (UTF-16), the placeholders on lines the old side does not have.
func decodedHits(ctx context.Context, ch *gitctx.Change, gate *secrets.Gate, f *gitctx.File) ([]secrets.Hit, error) {
	_, data, err := ch.Read(ctx, f, gitctx.New, AddedLimit)
	if err != nil {
		return nil, nil // unreadable or too large: nothing text-like to check
	}
	d := decode(data)
	if d.Kind != KindText {
		return nil, nil
	}
	old := map[string]int{}
	if f.OldMode != 0 {
		if _, data, err := ch.Read(ctx, f, gitctx.Old, AddedLimit); err == nil {
			if od := decode(data); od.Kind == KindText {
				for _, l := range strings.Split(od.Text, "\n") {
					old[l]++
				}
			}
		}
	}
	lines := strings.Split(d.Text, "\n")
	hits, err := gate.BlockingHits(ctx, f.Path, d.Text)
	if err != nil {
		return nil, err
	}
	var out []secrets.Hit
	for _, h := range hits {
		if h.Line < len(lines) && old[lines[h.Line]] == 0 {
			h.Line++ // 1-based, as in a diff
			out = append(out, h)
		}
	}
	return out, nil
}
