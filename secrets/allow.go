//lint:file-ignore SA1019 the deprecated [allowlist] is still what many repositories write

package secrets

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/zricethezav/gitleaks/v8/config"
)

// allowed is what a repository's .gitleaks.toml allows, for the verdict of
// a commit scanner only (BlockingHits): whether a change adds a credential
// is gitleaks' question, and gitleaks lets a repository allow a false
// positive. What leaves the machine is redacted whatever it allows.
type allowed struct {
	global   []*config.Allowlist            // [[allowlists]] without targetRules, and [allowlist]
	byRule   map[string][]*config.Allowlist // targetRules, and the allowlists of a rule reusing a rule's id
	disabled map[string]bool                // [extend] disabledRules
}

// readAllowed reads what a repository config allows. Allowlists are
// translated one at a time, without their target rules, so that a target
// that is a default rule (which the repository config does not define)
// is no error.
func readAllowed(toml []byte) (allowed, error) {
	a := allowed{byRule: map[string][]*config.Allowlist{}, disabled: map[string]bool{}}
	if len(strings.TrimSpace(string(toml))) == 0 {
		return a, nil
	}
	vc, err := readViper(toml)
	if err != nil {
		return a, err
	}
	for _, id := range vc.Extend.DisabledRules {
		a.disabled[id] = true
	}
	if vc.AllowList != nil && len(vc.Allowlists) > 0 {
		return a, errors.New("[allowlist] is deprecated, it cannot be used alongside [[allowlists]]")
	}
	if vc.AllowList != nil {
		one := config.ViperConfig{AllowList: vc.AllowList}
		targets := vc.AllowList.TargetRules
		one.AllowList.TargetRules = nil
		if err := a.add(one, targets); err != nil {
			return a, err
		}
	}
	for i := range vc.Allowlists {
		one := config.ViperConfig{Allowlists: vc.Allowlists[i : i+1]}
		targets := vc.Allowlists[i].TargetRules
		one.Allowlists[0].TargetRules = nil
		if err := a.add(one, targets); err != nil {
			return a, err
		}
	}
	for i, r := range vc.Rules {
		if len(r.Allowlists) == 0 && r.AllowList == nil {
			continue
		}
		// the allowlists alone are wanted: any expression will do
		vc.Rules[i].Regex, vc.Rules[i].Path, vc.Rules[i].Required = ".", "", nil
		one := config.ViperConfig{Rules: vc.Rules[i : i+1]}
		cfg, err := one.Translate()
		if err != nil {
			return a, fmt.Errorf("rule %s: %w", r.ID, err)
		}
		a.byRule[r.ID] = append(a.byRule[r.ID], cfg.Rules[r.ID].Allowlists...)
	}
	return a, nil
}

// add translates one global allowlist and files it under its targets.
func (a *allowed) add(one config.ViperConfig, targets []string) error {
	cfg, err := one.Translate()
	if err != nil {
		return err
	}
	if len(targets) == 0 {
		a.global = append(a.global, cfg.Allowlists...)
		return nil
	}
	for _, id := range targets {
		a.byRule[id] = append(a.byRule[id], cfg.Allowlists...)
	}
	return nil
}

// allows reports whether the repository allows a finding in a text of the
// file at path, as gitleaks decides it (detect.checkFindingAllowed and
// the path checks before it). The run's own credentials are never allowed.
func (a allowed) allows(f finding, path, text string) bool {
	if f.rule == OwnTokenRule {
		return false
	}
	if a.disabled[f.rule] {
		return true
	}
	secret := f.secret
	if f.kind == kindLiteral {
		secret = text[f.secretStart:f.secretEnd]
	}
	line := text[strings.LastIndexByte(text[:f.start], '\n')+1:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	for _, list := range [][]*config.Allowlist{a.global, a.byRule[f.rule]} {
		for _, al := range list {
			if allowsOne(al, secret, text[f.start:f.end], line, path) {
				return true
			}
		}
	}
	return false
}

// allowsOne applies one allowlist. There are no commits to match: an
// allowlist of commits allows nothing here.
func allowsOne(al *config.Allowlist, secret, match, line, path string) bool {
	target := secret
	switch al.RegexTarget {
	case "match":
		target = match
	case "line":
		target = line
	}
	regex := al.RegexAllowed(target)
	stop, _ := al.ContainsStopWord(secret)
	if al.MatchCondition != config.AllowlistMatchAnd {
		return regex || stop || path != "" && al.PathAllowed(path)
	}
	if len(al.Commits) > 0 {
		return false
	}
	ok := len(al.Paths) > 0 || len(al.Regexes) > 0 || len(al.StopWords) > 0
	if len(al.Paths) > 0 {
		ok = ok && path != "" && al.PathAllowed(path)
	}
	if len(al.Regexes) > 0 {
		ok = ok && regex
	}
	if len(al.StopWords) > 0 {
		ok = ok && stop
	}
	return ok
}

// BlockingHits is RedactString for the verdict of a commit scanner on a
// text of the file at path: it returns what RedactString would, but for
// the findings the repository's .gitleaks.toml allows (its allowlists,
// the allowlists of its rules that reuse a default rule's id, [extend]
// disabledRules), those gitleaks would not report in a file at path (see
// verdictRules) and those of gitctx's redact-only rules. Only what blocks
// a commit asks it; what leaves the machine is redacted whatever the
// repository allows.
func (g *Gate) BlockingHits(ctx context.Context, path, text string) ([]Hit, error) {
	scan := func(ctx context.Context, text string) ([]Span, error) {
		return g.scan(ctx, text, func(f finding) bool {
			return !redactOnly(f.rule) && !g.verdict().skips(f.rule, path) && !g.allow.allows(f, path, text)
		})
	}
	_, hits, err := g.redactPasses(ctx, text, 0, scan, scan)
	return hits, err
}
