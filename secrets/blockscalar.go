package secrets

import (
	"context"
	"regexp"
	"strings"
)

// A YAML value may sit on the line below its key, as a block scalar
// (password: | or token: >- and the value indented under it), where no
// rule sees the key and the value together: a Helm chart's values.yaml
// holds its passwords so. A block of one line is read as the key and
// the value on one line (password: value), the rules run over that, and
// what they find in the value is a finding on the block's line.

// blockKey is a key whose value is a block scalar: | or >, with a
// chomping or an indentation indicator.
var blockKey = regexp.MustCompile(`^([ \t]*)(-[ \t]+)?(["']?[\w.-]+["']?)[ \t]*:[ \t]*[|>][-+0-9]*[ \t]*(?:#.*)?\r?$`)

// blockScalarsIn finds credentials in the one-line block scalars of text.
func blockScalarsIn(ctx context.Context, ds detectors, text string) []finding {
	if !strings.Contains(text, ": |") && !strings.Contains(text, ": >") {
		return nil
	}
	var out []finding
	for _, b := range oneLineBlocks(text) {
		found, err := rulesIn(ctx, ds, b.joined)
		if err != nil {
			continue
		}
		for _, f := range found {
			if f.kind != kindLiteral || f.secretStart < b.valueAt {
				continue // not in the value, or not literally there
			}
			start := b.start + f.secretStart - b.valueAt
			end := b.start + f.secretEnd - b.valueAt
			out = append(out, finding{start: start, end: end, secretStart: start, secretEnd: end,
				rule: f.rule, kind: kindLiteral, secret: text[start:end]})
		}
	}
	return out
}

// oneLineBlock is a block scalar of one line: the key and the value
// joined as one line, where the value starts in it, and where the value
// starts in the text.
type oneLineBlock struct {
	joined         string
	valueAt, start int
}

// oneLineBlocks finds the block scalars of text whose value is one line
// (blank lines aside).
func oneLineBlocks(text string) []oneLineBlock {
	lines := yamlLines(text)
	var out []oneLineBlock
	for i, l := range lines {
		m := blockKey.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		indent := len(m[1]) + len(m[2])
		var value yamlLine
		n := 0
		for _, b := range lines[i+1:] {
			body := strings.TrimLeft(b.text, " \t")
			if body == "" {
				continue
			}
			if len(b.text)-len(body) <= indent {
				break
			}
			n++
			value = yamlLine{b.start + len(b.text) - len(body), strings.TrimRight(body, " \t")}
		}
		if n != 1 {
			continue
		}
		joined := m[1] + m[3] + ": "
		out = append(out, oneLineBlock{joined: joined + value.text + "\n", valueAt: len(joined), start: value.start})
	}
	return out
}
