package secrets

import (
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"

	"github.com/zricethezav/gitleaks/v8/config"
)

// Defaults are the rules every gate starts from: gitleaks' default rules
// and gitctx's own, parsed, compiled and strengthened. Building them takes
// about 20 ms of CPU, the same in every repository, so a command can start
// it with LoadDefaults before it knows the repository's own rules and hand
// the result to New (Options.Defaults). A Defaults is safe for concurrent
// use; every gate gets its own copy of the rule set.
type Defaults struct {
	get func() (ruleSet, error)
}

// ruleSet is a built rule set: the rules, strengthened, and what a commit
// scanner's verdict still needs of what strengthen took off them (see
// verdictRules).
type ruleSet struct {
	cfg     config.Config
	verdict verdictRules
}

// LoadDefaults starts building the default rules in the background and
// returns at once. gitleaks logs through a global logger, which is pointed
// at logger first (see Options.Logger), so that the building never races
// with New setting it.
func LoadDefaults(logger *slog.Logger) *Defaults {
	bridgeLogger(logger)
	d := &Defaults{get: sync.OnceValues(buildDefaults)}
	go func() { _, _ = d.get() }()
	return d
}

// Wait returns once the rules are built.
func (d *Defaults) Wait() { _, _ = d.get() }

// config returns a copy of the default rule set that extend and strengthen
// may change: its maps and its rule order are the copy's own (the rules'
// compiled expressions are shared, and never changed).
func (d *Defaults) config() (ruleSet, error) {
	rs, err := d.get()
	if err != nil {
		return ruleSet{}, err
	}
	rs.cfg.Rules = maps.Clone(rs.cfg.Rules)
	rs.cfg.Keywords = maps.Clone(rs.cfg.Keywords)
	rs.cfg.OrderedRules = slices.Clone(rs.cfg.OrderedRules)
	rs.verdict.scopes = maps.Clone(rs.verdict.scopes)
	return rs, nil
}

func buildDefaults() (ruleSet, error) {
	cfg, err := loadConfig([]byte(config.DefaultConfig))
	if err != nil {
		return ruleSet{}, fmt.Errorf("load gitleaks' default rules: %w", err)
	}
	if _, err := extend(&cfg, []byte(extraRules)); err != nil {
		return ruleSet{}, fmt.Errorf("load gitctx's own rules: %w", err)
	}
	rs := ruleSet{verdict: verdictRules{scopes: strengthen(&cfg), skipped: cfg.Allowlists}}
	if err := quieten(&cfg); err != nil {
		return ruleSet{}, err
	}
	rs.cfg = cfg
	return rs, nil
}
