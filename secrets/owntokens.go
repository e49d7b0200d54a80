package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// encodedToken is a form in which one of the run's own credentials can sit
// inside encoded text: the part of its base64 (at one of the three byte
// alignments) or hex encoding that depends on the credential's bytes
// alone. gitleaks decodes encoded text, but only to apply its rules, and
// no rule knows the run's own tokens; actions/checkout's http.extraheader
// holds the GitHub token as base64("x-access-token:" + token).
type encodedToken struct {
	needle string
	token  string
	in     func(byte) bool // the alphabet of the encoding: the run to replace
}

// encodedForms lists the encoded forms of the own tokens.
func encodedForms(tokens []string) []encodedToken {
	var out []encodedToken
	for _, t := range tokens {
		for align := range 3 {
			enc := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("\x00", align) + t))
			first := (align + 2) / 3     // the first group of three bytes all from t
			last := (align + len(t)) / 3 // the group after the last full one
			if last-first < 2 {
				continue
			}
			needle := enc[4*first : 4*last]
			out = append(out, encodedToken{needle, t, isBase64})
			if url := strings.NewReplacer("+", "-", "/", "_").Replace(needle); url != needle {
				out = append(out, encodedToken{url, t, isBase64})
			}
		}
		h := hex.EncodeToString([]byte(t))
		out = append(out, encodedToken{h, t, isHex}, encodedToken{strings.ToUpper(h), t, isHex})
	}
	return out
}

// ownEncoded finds the own tokens in encoded form; each span is the whole
// encoded run around the match, as for the encoded findings of the rules.
func (g *Gate) ownEncoded(text string) []Span {
	var spans []Span
	for _, e := range g.encoded {
		for from := 0; ; {
			i := strings.Index(text[from:], e.needle)
			if i < 0 {
				break
			}
			start, end := from+i, from+i+len(e.needle)
			for start > 0 && e.in(text[start-1]) {
				start--
			}
			for end < len(text) && (e.in(text[end]) || text[end] == '=') {
				end++
			}
			spans = append(spans, Span{Start: start, End: end, Rule: OwnTokenRule, Placeholder: g.placeholder(OwnTokenRule, e.token),
				secretStart: start, secretEnd: end})
			from = end
		}
	}
	return spans
}

func isBase64(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
