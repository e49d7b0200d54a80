package secrets

import (
	"regexp"
	"strings"
)

// kubernetesSecret is gitleaks' rule for a Kubernetes Secret in YAML. Its
// expression takes "kind: Secret" and one entry of its data, within 300
// characters: a Secret of several entries is reported once, which blocks
// a commit but leaves the other values in what is sent, and one whose data
// sits further down, or that follows another document's data, is not
// reported at all. So every value of the data and stringData of each
// Secret in a text is a finding of its own (withSecretData).
const kubernetesSecret = "kubernetes-secret-yaml"

var (
	// secretKind is a YAML document's kind: Secret line.
	secretKind = regexp.MustCompile(`^[ \t]*["']?kind["']?[ \t]*:[ \t]*["']?(?i:secret)["']?[ \t]*(?:#.*)?\r?$`)
	// secretDataKey opens a Secret's data or stringData.
	secretDataKey = regexp.MustCompile(`^([ \t]*)(?:data|stringData)[ \t]*:[ \t]*(?:#.*)?\r?$`)
	// secretEntry is one key of it and what follows the key on its line.
	secretEntry = regexp.MustCompile(`^([ \t]+)["']?[\w.-]+["']?[ \t]*:[ \t]*(.*?)[ \t]*\r?$`)
)

// withSecretData adds to fs the values of the Secrets in text, and drops
// each of the rule's own findings that holds one of them: the values stand
// for the entry it took, and the lines from "kind" to it stay readable. A
// finding that holds none (data in a form not read here, {a: b}) stays.
func withSecretData(text string, fs []finding) []finding {
	values := secretValues(text)
	if len(values) == 0 {
		return fs
	}
	out := fs[:0:0]
	for _, f := range fs {
		if f.rule != kubernetesSecret || !holdsAny(f, values) {
			out = append(out, f)
		}
	}
	return append(out, values...)
}

// secretValues finds the values of the Secrets in text.
func secretValues(text string) []finding {
	if !mayHoldSecret(text) {
		return nil
	}
	var values []finding
	for _, doc := range yamlDocuments(text) {
		if doc.holds(secretKind) {
			values = append(values, doc.secretData()...)
		}
	}
	return values
}

// holdsAny reports whether one of values lies within f.
func holdsAny(f finding, values []finding) bool {
	for _, v := range values {
		if f.start <= v.start && v.end <= f.end {
			return true
		}
	}
	return false
}

// yamlLine is a line of a text without its line break, and where it starts.
type yamlLine struct {
	start int
	text  string
}

// yamlDocument is the lines of one YAML document.
type yamlDocument []yamlLine

// yamlDocuments splits text into its documents, at the lines that start
// with ---.
func yamlDocuments(text string) []yamlDocument {
	var docs []yamlDocument
	var cur yamlDocument
	for _, l := range yamlLines(text) {
		if strings.HasPrefix(l.text, "---") {
			docs, cur = append(docs, cur), nil
			continue
		}
		cur = append(cur, l)
	}
	return append(docs, cur)
}

// yamlLines splits text into its lines.
func yamlLines(text string) []yamlLine {
	var lines []yamlLine
	at := 0
	for line := range strings.Lines(text) {
		lines = append(lines, yamlLine{at, strings.TrimRight(line, "\r\n")})
		at += len(line)
	}
	return lines
}

func (d yamlDocument) holds(re *regexp.Regexp) bool {
	for _, l := range d {
		if re.MatchString(l.text) {
			return true
		}
	}
	return false
}

// secretData finds every value under the document's data and stringData
// keys: an entry's value on its line, or the lines of its block scalar
// (key: |). Empty values and templates ({{ … }}) are none.
func (d yamlDocument) secretData() []finding {
	var out []finding
	for i := 0; i < len(d); i++ {
		m := secretDataKey.FindStringSubmatch(d[i].text)
		if m == nil {
			continue
		}
		i++
		for ; i < len(d); i++ {
			l := d[i]
			if strings.TrimSpace(l.text) == "" || strings.HasPrefix(strings.TrimSpace(l.text), "#") {
				continue
			}
			e := secretEntry.FindStringSubmatchIndex(l.text)
			if e == nil || e[3]-e[2] <= len(m[1]) {
				i-- // the data ended: let the outer loop read this line
				break
			}
			value := l.text[e[4]:e[5]]
			if strings.HasPrefix(value, "|") || strings.HasPrefix(value, ">") {
				i = d.blockScalar(i, e[3]-e[2], &out)
				continue
			}
			out = appendValue(out, l.start+e[4], value)
		}
	}
	return out
}

// blockScalar adds the lines of the block scalar that follows the entry at
// line i, indented by indent, and returns the last line it took.
func (d yamlDocument) blockScalar(i, indent int, out *[]finding) int {
	for i+1 < len(d) {
		l := d[i+1]
		body := strings.TrimLeft(l.text, " \t")
		if body != "" && len(l.text)-len(body) <= indent {
			break
		}
		i++
		*out = appendValue(*out, l.start+len(l.text)-len(body), strings.TrimRight(body, " \t"))
	}
	return i
}

// appendValue adds a value, its quotes left out, unless it is empty, a
// template or a placeholder.
func appendValue(out []finding, start int, value string) []finding {
	if v := strings.Trim(value, `"'`); len(v) < len(value) {
		start += strings.Index(value, v)
		value = v
	}
	if value == "" || strings.Contains(value, "{{") || strings.Contains(value, "[REDACTED:") {
		return out // none, a template, or redacted already
	}
	end := start + len(value)
	return append(out, finding{start: start, end: end, secretStart: start, secretEnd: end,
		rule: kubernetesSecret, kind: kindLiteral, secret: value})
}

// NeedsWhole reports whether text holds a Kubernetes Secret with data: its
// values may sit any number of lines below the "kind: Secret" line the
// rule needs, so a scan of some lines of the text with a few around them
// misses them. Such a text is to be scanned whole.
func NeedsWhole(text string) bool {
	if !mayHoldSecret(text) {
		return false
	}
	for _, doc := range yamlDocuments(text) {
		if doc.holds(secretKind) && doc.holds(secretDataKey) {
			return true
		}
	}
	return false
}

// mayHoldSecret reports whether text has a kind: Secret line, looking at
// the lines that hold "kind" alone: code says kind and data often, and
// reading it as YAML documents is for a text that may be one.
func mayHoldSecret(text string) bool {
	for at := 0; ; {
		i := strings.Index(text[at:], "kind")
		if i < 0 {
			return false
		}
		i += at
		start := strings.LastIndexByte(text[:i], '\n') + 1
		end := strings.IndexByte(text[i:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += i
		}
		if secretKind.MatchString(strings.TrimRight(text[start:end], "\r\n")) { // as yamlDocuments has it
			return true
		}
		at = end
	}
}
