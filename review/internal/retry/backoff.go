package retry

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// backoff is the wait before the attempt after attempt: base doubled per
// attempt, at most ceiling, of which the second half is random ("equal
// jitter"), so that clients that failed together do not return together.
func backoff(base, ceiling time.Duration, attempt int) time.Duration {
	d := ceiling
	if attempt < 32 {
		if b := base << (attempt - 1); b > 0 && b < ceiling {
			d = b
		}
	}
	return d/2 + rand.N(d/2+1)
}

// retryAfter reads the wait a server asks for: retry-after-ms (OpenAI and
// Anthropic send it), else retry-after in seconds or as an HTTP date. A
// wait of zero or less is no request at all: the backoff applies.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 || s > 1e9 {
			return 0, false
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d, true
		}
	}
	return 0, false
}

// transient reports whether a request that got no answer may succeed if
// sent again: a timeout, a reset or refused connection, a connection that
// closed early. A bad certificate, an unknown host or a malformed URL
// will not mend by waiting.
func transient(err error) bool {
	var (
		dns        *net.DNSError
		verify     *tls.CertificateVerificationError
		unknownCA  x509.UnknownAuthorityError
		hostname   x509.HostnameError
		invalidCrt x509.CertificateInvalidError
	)
	switch {
	case errors.As(err, &dns):
		return dns.IsTimeout || dns.IsTemporary
	case errors.As(err, &verify), errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &invalidCrt):
		return false
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE):
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op)
}
