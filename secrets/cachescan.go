package secrets

import (
	"context"
	"crypto/sha256"
	"fmt"
	"runtime/debug"

	"github.com/zricethezav/gitleaks/v8/config"
)

// What the scan cache keeps, and when:
//
//   - a text scanned by Scan: only the verdict "the rules find nothing",
//     keyed by a digest of the rule set and the text. A text in which the
//     rules find something is scanned again on every run: a digest of it
//     would be a digest of the secret with some text around it;
//   - a text read whole from a git object (ScanObject): what the rules
//     found, as positions and rule ids, keyed by the object's id (which the
//     repository holds anyway) and how the text was read from it, never by
//     the text;
//   - nothing at all for a text that holds one of the run's own tokens.
//     Those are looked for on every run, outside the cache, so the cache
//     does not depend on them.
//
// Texts shorter than minCachedText are scanned on every run: scanning
// them costs about what looking them up does.
const minCachedText = 256

// Kinds of finding: how the secret that names its placeholder is found
// again in the text.
const (
	kindLiteral = 'L' // the secret is text[secretStart:secretEnd]
	kindEmpty   = 'E' // the rule reported no secret
	kindOther   = 'O' // neither (a decoded secret): the finding is not kept
)

// finding is what a rule found in a text: the positions a Span is made
// from. secret is kept in memory only, to name the placeholder.
type finding struct {
	start, end             int
	secretStart, secretEnd int
	rule                   string
	kind                   byte
	secret                 string
}

// keepable reports whether findings can be kept: each names its secret
// by position, so that a cached finding gets the placeholder a scan would
// give it.
func keepable(fs []finding) bool {
	for _, f := range fs {
		if f.kind != kindLiteral && f.kind != kindEmpty {
			return false
		}
	}
	return true
}

// ruleSetVersion is a digest of everything that decides what the rules
// find: the cache's format, this build and its gitleaks module, the
// default rules, gitctx's own rules and how it fits them to a gate, the
// decoding depth, and the repository's configuration.
func ruleSetVersion(repoConfig []byte) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00decode %d\x00ends %s %s\x00", cacheFormat, buildVersion(), decodeDepth, ruleEnd, looserEnd)
	for _, part := range []string{config.DefaultConfig, extraRules, string(repoConfig)} {
		fmt.Fprintf(h, "%d\x00%s\x00", len(part), part)
	}
	var v [32]byte
	copy(v[:], h.Sum(nil))
	return v
}

// buildVersion names this build as far as it recorded itself: its own
// version and commit (a new gitctx may read text differently) and the
// gitleaks module's version.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" || s.Key == "vcs.time" {
			v += " " + s.Value
		}
	}
	for _, d := range bi.Deps {
		if d.Path == "github.com/zricethezav/gitleaks/v8" {
			v += " gitleaks " + d.Version
			if d.Replace != nil {
				v += " => " + d.Replace.Path + "@" + d.Replace.Version
			}
		}
	}
	return v
}

// textKey keys the verdict on a text.
func (g *Gate) textKey(text string) cacheKey {
	h := sha256.New()
	h.Write(g.version[:])
	fmt.Fprintf(h, "\x00text\x00")
	h.Write([]byte(text))
	var k cacheKey
	copy(k[:], h.Sum(nil))
	return k
}

// objectKey keys what was found in the text read from a git object.
func (g *Gate) objectKey(o Object) cacheKey {
	h := sha256.New()
	h.Write(g.version[:])
	fmt.Fprintf(h, "\x00object\x00%s\x00%s", o.ID, o.Variant)
	var k cacheKey
	copy(k[:], h.Sum(nil))
	return k
}

// Object names a text read whole from a git object, for the scan cache:
// the object's id, and how the text was made from its bytes (a decoding,
// a clean-up), which must be the same whenever the same Variant is given.
type Object struct {
	ID      string
	Variant string
}

// Scan finds the credentials in text. The text is scanned as one fragment
// with no file path, so gitleaks' path allowlists (lockfiles, vendor/)
// cannot exempt it, and gitleaks:allow comments are ignored. Overlapping
// findings are merged. A detector failure is an error: the caller must
// then not emit the text (fail closed). With a cache, a text in which the
// rules found nothing before is not scanned again.
func (g *Gate) Scan(ctx context.Context, text string) ([]Span, error) {
	if text == "" {
		return nil, ctx.Err()
	}
	cached := g.cache != nil && len(text) >= minCachedText
	var key cacheKey
	if cached {
		key = g.textKey(text)
		if fs, ok := g.cache.get(key, len(text), false); ok && len(fs) == 0 {
			spans, _ := g.spans(text, nil)
			return spans, ctx.Err()
		}
	}
	fs, err := g.detect(ctx, text)
	if err != nil {
		return nil, err
	}
	spans, own := g.spans(text, fs)
	if cached && len(fs) == 0 && !own {
		g.cache.put(key, len(text), nil)
	}
	return spans, nil
}

// ScanObject is Scan for a text read whole from a git object. With a
// cache, what the rules find in it is kept by the object's id, and an
// object scanned before is not scanned again.
func (g *Gate) ScanObject(ctx context.Context, o Object, text string) ([]Span, error) {
	if g.cache == nil || o.ID == "" || text == "" {
		return g.Scan(ctx, text)
	}
	key := g.objectKey(o)
	if fs, ok := g.cache.get(key, len(text), true); ok {
		spans, _ := g.spans(text, fs)
		return spans, ctx.Err()
	}
	fs, err := g.detect(ctx, text)
	if err != nil {
		return nil, err
	}
	spans, own := g.spans(text, fs)
	if !own && keepable(fs) {
		g.cache.put(key, len(text), fs)
	}
	return spans, nil
}

// spans names the findings of a text (in their order, so that a cached
// finding gets the placeholder a scan gives it), adds the run's own tokens
// and merges them; own reports whether the text holds an own token.
func (g *Gate) spans(text string, fs []finding) (spans []Span, own bool) {
	for _, f := range fs {
		secret := f.secret
		switch f.kind {
		case kindLiteral:
			secret = text[f.secretStart:f.secretEnd]
		case kindEmpty:
			secret = ""
		}
		spans = append(spans, Span{Start: f.start, End: f.end, Rule: f.rule, Placeholder: g.placeholder(f.rule, secret),
			secretStart: f.secretStart, secretEnd: f.secretEnd})
	}
	ownSpans := append(g.ownTokens(text), g.ownEncoded(text)...)
	return merge(append(spans, ownSpans...)), len(ownSpans) > 0
}

// RedactObject is RedactString for a text read whole from a git object
// (see ScanObject).
func (g *Gate) RedactObject(ctx context.Context, o Object, text string) (Text, []Hit, error) {
	return g.redactPasses(ctx, text, 0, func(ctx context.Context, text string) ([]Span, error) {
		return g.ScanObject(ctx, o, text)
	})
}
