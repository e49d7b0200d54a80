package secrets

import (
	"context"
	"crypto/sha256"
	"fmt"
	"runtime/debug"
	"sync"

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
const minCachedText = 64

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

// beyondRules names what detect finds beyond the rules' own findings (the
// wrapped runs, the block scalars, a Secret's values): change it whenever that changes, or a
// cache would answer with what an older gitctx found.
const beyondRules = "wrapped runs; secret data 1; block scalars 1"

// ruleSetVersion is a digest of everything that decides what the rules
// find: the cache's format, this build and its gitleaks module, the
// default rules, gitctx's own rules and how it fits them to a gate (the
// looser ends, what quieten changes, what it finds beyond them), the
// decoding depth, and the repository's configuration.
func ruleSetVersion(repoConfig []byte) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00decode %d\x00ends %s %s\x00", cacheFormat, buildVersion(), decodeDepth, ruleEnd, looserEnd)
	fmt.Fprintf(h, "quiet %s %s\x00beyond %s\x00", terraformNotAPassword, sharpPrivateKey, beyondRules)
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
// then not emit the text (fail closed). A text scanned before in the run,
// or (with a cache) found clean by an earlier run, is not scanned again.
func (g *Gate) Scan(ctx context.Context, text string) ([]Span, error) {
	return g.scan(ctx, text, nil)
}

// scan is Scan keeping only the findings keep accepts (nil: all of them).
func (g *Gate) scan(ctx context.Context, text string, keep func(finding) bool) ([]Span, error) {
	if text == "" {
		return nil, ctx.Err()
	}
	key := g.textKey(text)
	cached := g.cache != nil && len(text) >= minCachedText
	fs, fresh, err := g.findings(ctx, key, text, cached, false)
	if err != nil {
		return nil, err
	}
	kept := fs
	if keep != nil {
		kept = nil
		for _, f := range fs {
			if keep(f) {
				kept = append(kept, f)
			}
		}
	}
	spans, own := g.spans(text, kept, keep == nil) // a verdict (BlockingHits) is the rules' alone
	if cached && fresh && len(fs) == 0 && !own {
		g.cache.put(key, len(text), nil)
	}
	return spans, ctx.Err()
}

// ScanObject is Scan for a text read whole from a git object. With a
// cache, what the rules find in it is kept by the object's id, and an
// object scanned before is not scanned again.
func (g *Gate) ScanObject(ctx context.Context, o Object, text string) ([]Span, error) {
	if g.cache == nil || o.ID == "" || text == "" {
		return g.Scan(ctx, text)
	}
	key := g.objectKey(o)
	fs, fresh, err := g.findings(ctx, key, text, true, true)
	if err != nil {
		return nil, err
	}
	spans, own := g.spans(text, fs, true)
	if fresh && !own && keepable(fs) {
		g.cache.put(key, len(text), fs)
	}
	return spans, ctx.Err()
}

// findings returns what the rules find in a text: from the run's memo,
// else from the cache (when cached; findings too for an object's key),
// else from a scan (then fresh is true).
func (g *Gate) findings(ctx context.Context, key cacheKey, text string, cached, object bool) (fs []finding, fresh bool, err error) {
	if fs, ok := g.found.get(key, len(text)); ok {
		return fs, false, nil
	}
	if cached {
		if fs, ok := g.cache.get(key, len(text), object); ok {
			g.found.put(key, len(text), fs)
			return fs, false, nil
		}
	}
	if fs, err = g.detect(ctx, text); err != nil {
		return nil, false, err
	}
	g.found.put(key, len(text), fs)
	return fs, true, nil
}

// memo keeps what the rules found in the texts of one run, so that a text
// scanned again (see Dry) is scanned once.
type memo struct {
	mu sync.Mutex
	m  map[cacheKey]memoEntry
}

type memoEntry struct {
	n  int // the text's length
	fs []finding
}

func (m *memo) get(k cacheKey, n int) ([]finding, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[k]
	return e.fs, ok && e.n == n
}

func (m *memo) put(k cacheKey, n int, fs []finding) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[k] = memoEntry{n, fs}
}

// Dry returns a gate that finds what g finds, and shares what the scans
// of either found, but gives out placeholders of its own. Scanning texts
// with it on every core, then with g in a fixed order, finds the
// credentials in parallel and numbers their placeholders in that order,
// whichever core came first: the same input makes the same pack.
func (g *Gate) Dry() *Gate {
	d := *g
	d.names = newNamer()
	return &d
}

// spans names the findings of a text (in their order, so that a cached
// finding gets the placeholder a scan gives it), adds (byValue) their
// values found elsewhere in the text (see foundValues) and every value
// found in the run when the gate looks everywhere, and the run's own
// tokens, and merges them; own reports whether the text holds an own
// token.
func (g *Gate) spans(text string, fs []finding, byValue bool) (spans []Span, own bool) {
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
	if byValue {
		values := append(g.valueSpans(text, g.values.learn(text, fs)), g.everywhereSpans(text)...)
		spans = append(spans, outside(values, spans)...)
	}
	ownSpans := append(g.ownTokens(text), g.ownEncoded(text)...)
	return merge(append(spans, ownSpans...)), len(ownSpans) > 0
}

// RedactObject is RedactString for a text read whole from a git object
// (see ScanObject).
func (g *Gate) RedactObject(ctx context.Context, o Object, text string) (Text, []Hit, error) {
	return g.redactPasses(ctx, text, 0, func(ctx context.Context, text string) ([]Span, error) {
		return g.ScanObject(ctx, o, text)
	}, g.Scan)
}
