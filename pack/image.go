package pack

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/secrets"
)

// Every rendered segment goes through the gate as it is written (see
// gateSegments), so each shown line is scanned with what the pack shows
// around it. Some rules need more than that: a private key rotated in
// place shows no BEGIN line in its hunk, and a Kubernetes Secret's
// "kind: Secret" may sit far above its data. Where the file holds what
// such rules look for, the shown lines are first scanned in the file as
// it is, with their surroundings:
//
//   - scanContext lines on each side of every shown line;
//   - a private key block (-----BEGIN … -----END, or a PuTTY key's
//     private lines) that holds a shown line, whole, up to keyWindow lines
//     each way.
//
// A file shown whole is scanned whole, and so is a Kubernetes Secret
// (secrets.NeedsWhole), whose values may sit far below its kind line. In
// XML and JSON packs, whose escaping hides some matches from the rules (a
// quote becomes &quot;), the shown lines are always scanned ahead. (Scanning every shown file whole
// cost several times more CPU on real ranges.)
const (
	scanContext = 10
	keyWindow   = 256
)

// image is one side of a file as the pack may show it: its lines, some
// of them redacted ahead of rendering, and the placeholders on those.
type image struct {
	all   sideLines             // every line, when the side was read whole
	lines map[int]string        // 1-based line → text, for lines not in all, or redacted ahead
	hits  map[int][]secrets.Hit // 1-based line → placeholders put on it ahead of rendering
	count int                   // lines in the side, when it was read whole (0: it was not)
}

func newImage() *image {
	return &image{lines: map[int]string{}, hits: map[int][]secrets.Hit{}}
}

func (im *image) line(n int) (string, []secrets.Hit, bool) {
	if im == nil {
		return "", nil, false
	}
	if t, ok := im.lines[n]; ok {
		return t, im.hits[n], true
	}
	if n >= 1 && n <= im.count {
		return im.all.line(n), nil, true
	}
	return "", nil, false
}

// add scans text, lines from line from on, each ending with a newline,
// and files the result. obj names the git object the lines are all of,
// when they are (see secrets.Gate.ScanObject).
func (im *image) add(ctx context.Context, g *secrets.Gate, obj secrets.Object, from int, text string) error {
	redact := g.RedactString
	if obj.ID != "" {
		redact = func(ctx context.Context, text string) (secrets.Text, []secrets.Hit, error) {
			return g.RedactObject(ctx, obj, text)
		}
	}
	red, hits, err := redact(ctx, text)
	if err != nil {
		return err
	}
	if len(hits) == 0 && im.count > 0 {
		return nil // nothing found: the lines stay as read
	}
	for i, t := range red.Lines() {
		im.lines[from+i] = t.String()
	}
	for _, h := range hits {
		im.hits[from+h.Line] = append(im.hits[from+h.Line], h)
	}
	return nil
}

// fileImage makes the image of a side read from the repository. Where
// the side holds what cross-line rules look for (or always, when always
// is set), the shown lines are scanned ahead with their surroundings;
// everything else is checked as rendered.
func (b *builder) fileImage(ctx context.Context, g *secrets.Gate, facts sideFacts, obj secrets.Object, shown []int, always bool) (*image, error) {
	im := newImage()
	im.all = facts.lines
	im.count = im.all.count()
	keys := facts.keys
	if !always && !keys && !facts.context {
		return im, nil
	}
	if shown == nil {
		return im, im.add(ctx, g, obj, 1, im.all.run(1, im.count))
	}
	if facts.context {
		if whole := im.all.run(1, im.count); secrets.NeedsWhole(whole) {
			return im, im.add(ctx, g, obj, 1, whole)
		}
	}
	for _, r := range scanRegions(im.all, shown, keys) {
		if err := im.add(ctx, g, secrets.Object{}, r[0], im.all.run(r[0], r[1])); err != nil {
			return nil, err
		}
	}
	return im, nil
}

// scanRegions turns shown line numbers into merged runs [from, to] of
// lines to scan: each shown line with scanContext lines around it, and the
// whole private key block it may sit in.
func scanRegions(lines sideLines, shown []int, keys bool) [][2]int {
	var spans [][2]int
	for _, n := range shown {
		if n < 1 || n > lines.count() {
			continue
		}
		lo, hi := max(1, n-scanContext), min(lines.count(), n+scanContext)
		if keys {
			if b, e, ok := keyBlock(lines, n); ok {
				lo, hi = min(lo, b), max(hi, e)
			}
		}
		spans = append(spans, [2]int{lo, hi})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var out [][2]int
	for _, s := range spans {
		if len(out) > 0 && s[0] <= out[len(out)-1][1]+1 {
			out[len(out)-1][1] = max(out[len(out)-1][1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}

// keyBlock finds the private key block around line n (-----BEGIN …
// -----END, or a PuTTY key's Private-Lines: … Private-MAC:), within
// keyWindow lines each way.
func keyBlock(lines sideLines, n int) (int, int, bool) {
	begin := 0
	for i := n; i >= max(1, n-keyWindow); i-- {
		if keyEnd(lines.line(i)) && i != n {
			return 0, 0, false // n comes after a block, not inside one
		}
		if keyBegin(lines.line(i)) {
			begin = i
			break
		}
	}
	if begin == 0 {
		return 0, 0, false
	}
	for i := n; i <= min(lines.count(), n+keyWindow); i++ {
		if keyEnd(lines.line(i)) {
			return begin, i, true
		}
	}
	return begin, min(lines.count(), n+keyWindow), true
}

func keyBegin(line string) bool {
	return strings.Contains(line, keyMarker) || strings.Contains(line, puttyKeyMarker)
}

func keyEnd(line string) bool {
	return strings.Contains(line, "-----END") || strings.Contains(line, "Private-MAC:")
}

// agrees reports whether a side's lines are, at each line number, the
// line the diff shows there.
func agrees(lines sideLines, p *gitctx.Patch, old bool) bool {
	if p == nil {
		return true
	}
	for _, h := range p.Hunks {
		for l := range hunkLines(h) {
			n := l.newNo
			if old {
				n = l.oldNo
			}
			if n == 0 {
				continue
			}
			if n > lines.count() || lines.line(n) != cleanText(decodeLine(l.Text)) {
				return false
			}
		}
	}
	return true
}

// hunkImage scans the lines of one side that the diff holds, each hunk's
// run as one text: for a side that could not be read whole.
func (b *builder) hunkImage(ctx context.Context, g *secrets.Gate, e *entry, old bool) (*image, error) {
	im := newImage()
	if e.patch == nil {
		return im, nil
	}
	for _, h := range e.patch.Hunks {
		var from int
		var run []string
		for l := range hunkLines(h) {
			n := l.newNo
			if old {
				n = l.oldNo
			}
			if n == 0 {
				continue
			}
			if from == 0 {
				from = n
			}
			run = append(run, cleanText(decodeLine(l.Text)))
		}
		if len(run) == 0 {
			continue
		}
		if err := im.add(ctx, g, secrets.Object{}, from, strings.Join(run, "\n")+"\n"); err != nil {
			return nil, fmt.Errorf("%s: %w", e.label.String(), err)
		}
	}
	return im, nil
}
