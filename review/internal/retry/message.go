package retry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	maxMessage   = 1000 // runes of a provider's error message kept
	maxPlainText = 300  // runes kept of an error answer that is not JSON
	minRedact    = 4    // shorter strings are not worth redacting
)

// message is the provider's explanation of a refused request, cleaned for
// a terminal and a log: its credentials removed, control characters and
// runs of white space turned into single spaces, its length capped.
func (p Policy) message(o outcome) string {
	msg, limit := envelopeMessage(o.body)
	if o.status >= 300 && o.status < 400 {
		msg, limit = redirectMessage(o.header.Get("Location")), maxMessage
	}
	if id := requestID(o); id != "" {
		msg += " (request id " + id + ")"
	}
	return clean(msg, p.Redact, limit)
}

// envelopeMessage finds the message of an error answer: OpenAI's
// {"error": {"message": …}}, Anthropic's {"type": "error", "error":
// {"type": …, "message": …}}, the {"error": "…"} of some compatible
// servers (Ollama), or a top-level "message". An answer that is not JSON
// (a proxy's page) is kept as text, shorter.
func envelopeMessage(body []byte) (string, int) {
	var env struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return string(body), maxPlainText
	}
	var inner struct {
		Message string `json:"message"`
	}
	var text string
	switch {
	case json.Unmarshal(env.Error, &inner) == nil && inner.Message != "":
		return inner.Message, maxMessage
	case json.Unmarshal(env.Error, &text) == nil && text != "":
		return text, maxMessage
	}
	return env.Message, maxMessage
}

func redirectMessage(location string) string {
	u, err := url.Parse(location)
	if err != nil || u.Host == "" {
		return "redirected, not followed (check the base URL)"
	}
	return "redirected to " + u.Host + ", not followed (check the base URL)"
}

// requestID is the provider's id of the request, which its support asks
// for: x-request-id (OpenAI), request-id (Anthropic), apim-request-id
// (Azure). Anything that does not look like an id is left out.
func requestID(o outcome) string {
	for _, name := range []string{"X-Request-Id", "Request-Id", "Apim-Request-Id"} {
		id := o.header.Get(name)
		if id != "" && len(id) <= 100 && strings.Trim(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:") == "" {
			return id
		}
	}
	return ""
}

func clean(s string, redact []string, limit int) string {
	for _, r := range redact {
		if len(r) >= minRedact {
			s = strings.ReplaceAll(s, r, "[redacted]")
		}
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit]) + "…"
	}
	return s
}

// DecodeError is the error for an answer whose body is not the JSON a
// provider answers with: it quotes how the body begins (cleaned as a
// message is), and says when it is a web page (a base URL that names a
// site, not an API, or a proxy's error page).
func DecodeError(raw []byte, err error) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return fmt.Errorf("decode the answer: the server sent an empty body (check the base URL, or a proxy between): %w", err)
	}
	start := clean(string(raw[:min(len(raw), 1000)]), nil, 60)
	hint := ""
	if strings.HasPrefix(start, "<") {
		hint = ": a web page, not an API's answer (check the base URL, or a proxy between)"
	}
	return fmt.Errorf("decode the answer, which begins %q%s: %w", start, hint, err)
}
