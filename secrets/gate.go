package secrets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"regexp"
	"strings"
	"sync"

	"github.com/rs/zerolog"
	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// decodeDepth is how many rounds of base64, hex, percent and unicode
// decoding a scan tries, as in the gitleaks CLI (the library's zero value
// is 0: no decoding at all).
const decodeDepth = 5

// OwnTokenRule names findings of the run's own credentials.
const OwnTokenRule = "gitctx-own-token"

// Options configure a Gate.
type Options struct {
	// RepoConfig is the repository's .gitleaks.toml (in a pull request,
	// the base commit's). Its rules are added to the default ones; its
	// allowlists, its extend settings and any rule reusing a default
	// rule's id are ignored, so it can never weaken the gate. Only
	// BlockingHits, the verdict of a commit scanner, follows its
	// allowlists.
	RepoConfig []byte
	// OwnTokens are the run's own credentials (API keys, the GitHub
	// token): found wherever they appear, whatever the rules say.
	OwnTokens []string
	// Logger receives gitleaks' warnings and errors, messages only (its
	// fields can hold secrets and are dropped). Nil discards them. The
	// first New or LoadDefaults of a process sets it for the process.
	Logger *slog.Logger
	// Cache, if set, keeps what scans found for later runs (see Cache).
	Cache *Cache
	// Defaults, if set, are the default rules, built ahead (see
	// LoadDefaults); nil builds them in New.
	Defaults *Defaults
}

// Gate finds credentials with gitleaks' rules and replaces them with
// placeholders. It is built once per run and safe for concurrent use.
type Gate struct {
	// detectors returns the rules' detectors, built when first needed: a
	// run whose every text is in the cache never waits for the default
	// rules to be built.
	detectors func() (detectors, error)
	own       []string
	encoded   []encodedToken      // the own tokens in base64 and hex
	ignored   []string            // rule ids of the repository config that were refused
	allow     allowed             // what the repository config allows, for BlockingHits only
	verdict   func() verdictRules // for BlockingHits only
	cache     *Cache              // nil: none
	version   [32]byte            // of the rule set, for the cache's keys
	found     *memo               // what scans found in the texts of this run
	names     *namer              // the placeholders given out
	values    *foundValues        // the credentials found, by value (see Everywhere)
}

// namer gives out placeholders: the same one for the same secret.
type namer struct {
	mu    sync.Mutex
	names map[string]string // rule + "\x00" + secret → placeholder; in memory only
	count map[string]int    // rule → placeholders given out
}

func newNamer() *namer { return &namer{names: map[string]string{}, count: map[string]int{}} }

// New builds a gate from gitleaks' embedded default rules and, if given,
// the repository's extra rules.
func New(opts Options) (g *Gate, err error) {
	bridgeLogger(opts.Logger)
	defer func() {
		// gitleaks compiles rule regexes with MustCompile: a bad regex in a
		// repository config panics.
		if r := recover(); r != nil {
			g, err = nil, fmt.Errorf("load secret-scanning rules: %v", r)
		}
	}()
	if opts.Defaults == nil {
		opts.Defaults = &Defaults{get: buildDefaults}
	}
	g = &Gate{names: newNamer(), found: &memo{m: map[cacheKey]memoEntry{}}, values: newFoundValues()}
	if len(bytes.TrimSpace(opts.RepoConfig)) == 0 {
		defaults := opts.Defaults
		g.detectors = sync.OnceValues(func() (detectors, error) {
			rs, err := defaults.config()
			if err != nil {
				return detectors{}, err
			}
			return newDetectors(rs.cfg), nil
		})
		g.verdict = func() verdictRules {
			rs, _ := defaults.get() // an error fails the scan before a verdict is asked
			return rs.verdict
		}
	} else {
		// The repository's rules are read now, so that a bad one is an
		// error of New (and a refused one a warning) before any scan.
		rs, err := opts.Defaults.config()
		if err != nil {
			return nil, err
		}
		cfg := rs.cfg
		if g.ignored, err = extend(&cfg, opts.RepoConfig); err != nil {
			return nil, fmt.Errorf("read the repository's .gitleaks.toml: %w", err)
		}
		if g.allow, err = readAllowed(opts.RepoConfig); err != nil {
			return nil, fmt.Errorf("read the allowlists of the repository's .gitleaks.toml: %w", err)
		}
		// the repository's rules (the defaults' are already), whose
		// scopes join the defaults'
		maps.Copy(rs.verdict.scopes, strengthen(&cfg))
		d := newDetectors(cfg)
		g.detectors = func() (detectors, error) { return d, nil }
		g.verdict = func() verdictRules { return rs.verdict }
	}
	for _, t := range opts.OwnTokens {
		if len(t) >= 8 {
			g.own = append(g.own, t)
		}
	}
	g.encoded = encodedForms(g.own)
	if opts.Cache != nil {
		g.cache, g.version = opts.Cache, ruleSetVersion(opts.RepoConfig)
	}
	return g, nil
}

// Ignored lists the rules of the repository config that were refused
// because they reuse the id of a default rule.
func (g *Gate) Ignored() []string { return g.ignored }

// loadConfig reads a gitleaks TOML config with a viper of its own (never
// the global one).
func loadConfig(toml []byte) (config.Config, error) {
	vc, err := readViper(toml)
	if err != nil {
		return config.Config{}, err
	}
	loosenEnds(&vc)
	return vc.Translate()
}

// loosenEnds gives the rules' expressions the looser token end (see
// strengthen) before they are compiled, so that each is compiled once: the
// default rules were compiled twice, 6 ms of CPU on every run.
func loosenEnds(vc *config.ViperConfig) {
	for i := range vc.Rules {
		vc.Rules[i].Regex = strings.ReplaceAll(vc.Rules[i].Regex, ruleEnd, looserEnd)
	}
}

func readViper(toml []byte) (config.ViperConfig, error) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(bytes.NewReader(toml)); err != nil {
		return config.ViperConfig{}, err
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return config.ViperConfig{}, err
	}
	return vc, nil
}

// extend adds the rules of a repository config to cfg. Everything that
// could weaken the defaults is dropped first: global allowlists, [extend]
// (which could disable rules), and rules whose ids are default ones.
func extend(cfg *config.Config, toml []byte) ([]string, error) {
	vc, err := readViper(toml)
	if err != nil {
		return nil, err
	}
	vc.Extend = config.Extend{}
	//lint:ignore SA1019 the deprecated form must be cleared too, or a repository could still allowlist with it
	vc.AllowList = nil
	vc.Allowlists = nil
	var ignored []string
	rules := vc.Rules[:0]
	for _, r := range vc.Rules {
		if _, taken := cfg.Rules[r.ID]; taken || r.ID == OwnTokenRule {
			ignored = append(ignored, r.ID)
			continue
		}
		rules = append(rules, r)
	}
	vc.Rules = rules
	loosenEnds(&vc)
	extra, err := vc.Translate()
	if err != nil {
		return nil, err
	}
	for _, id := range extra.OrderedRules {
		cfg.Rules[id] = extra.Rules[id]
		cfg.OrderedRules = append(cfg.OrderedRules, id)
	}
	for k := range extra.Keywords {
		cfg.Keywords[k] = struct{}{}
	}
	return ignored, nil
}

// bridgeOnce guards gitleaks' global logger, which this package alone
// touches: it is set once per process.
var bridgeOnce sync.Once

// bridgeLogger points gitleaks' global zerolog logger at slog, keeping
// warnings and errors and only their message: gitleaks' fields can carry
// the secret it found.
func bridgeLogger(l *slog.Logger) {
	bridgeOnce.Do(func() {
		if l == nil {
			logging.Logger = zerolog.Nop()
			return
		}
		logging.Logger = zerolog.New(slogWriter{l}).Level(zerolog.WarnLevel)
	})
}

type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	var e struct {
		Level   string `json:"level"`
		Message string `json:"message"`
	}
	if json.Unmarshal(p, &e) == nil && e.Message != "" {
		msg := "gitleaks: " + strings.TrimSpace(e.Message)
		if e.Level == "error" || e.Level == "fatal" || e.Level == "panic" {
			w.l.Error(msg)
		} else {
			w.l.Warn(msg)
		}
	}
	return len(p), nil
}

// ruleEnd is the end most of gitleaks' token rules require after a token:
// a quote, white space, a semicolon, a literal \n, or the end of the text.
const ruleEnd = `(?:[\x60'"\s;]|\\[nr]|$)`

// looserEnd also accepts what commonly follows a token in code and URLs:
// ) , & < . } ] >. A commit scanner may miss "?key=AIza…&cb=x"; an egress
// gate must not.
const looserEnd = `(?:[\x60'"\s;),&<.}\]>]|\\[nr]|$)`

// strengthen fits the rules to text scanned without a file path: a rule that
// also needs a path (Kubernetes Secrets need a .yaml name) applies to all
// text instead of none, and token rules accept more endings. Both only
// widen what is found. It returns the paths it took off the rules, by
// rule, for the verdict of a commit scanner (see verdictRules).
func strengthen(cfg *config.Config) map[string]*regexp.Regexp {
	scopes := map[string]*regexp.Regexp{}
	for id, r := range cfg.Rules {
		if r.Regex == nil {
			continue
		}
		if r.Path != nil {
			scopes[id] = r.Path
		}
		r.Path = nil
		if src := r.Regex.String(); strings.Contains(src, ruleEnd) {
			if re, err := regexp.Compile(strings.ReplaceAll(src, ruleEnd, looserEnd)); err == nil {
				r.Regex = re
			}
		}
		cfg.Rules[id] = r
	}
	return scopes
}
