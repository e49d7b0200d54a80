// Package profile knows the limits of the models gitctx packs for: context
// window, output cap, tokenizer and list price, as embedded data
// (profiles.json) that a configuration may override.
package profile

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

//go:embed profiles.json
var embedded []byte

// Profile is one model's limits.
type Profile struct {
	Provider      string  `json:"-"`
	Model         string  `json:"-"`
	Known         string  `json:"-"` // the known model whose limits these are (Model's family, or the provider's default)
	ContextWindow int     `json:"context_window"`
	MaxInput      int     `json:"max_input"` // when the input has a cap of its own below the window
	MaxOutput     int     `json:"max_output"`
	Tokenizer     string  `json:"tokenizer"`
	Factor        float64 `json:"factor"`     // model tokens per tokenizer token, where the model's tokenizer is not public
	InputUSD      float64 `json:"input_usd"`  // per million input tokens; 0 when not known
	OutputUSD     float64 `json:"output_usd"` // per million output tokens; 0 when not known
}

// Limits of a pack, and what they are made of.
const (
	NoneLimit      = 128000 // the budget when no provider is configured
	PromptOverhead = 1000   // tokens of review instructions around the pack
	MaxReserved    = 8192   // output reserved for the answer, at most
	MarginPercent  = 5      // kept free for tokenizer estimates that run low
)

// Table is the set of known models.
type Table struct {
	Providers map[string]struct {
		DefaultModel string             `json:"default_model"`
		Models       map[string]Profile `json:"models"`
	} `json:"providers"`
}

// Load reads the embedded table.
func Load() (*Table, error) {
	var t Table
	if err := json.Unmarshal(embedded, &t); err != nil {
		return nil, fmt.Errorf("read the model table: %w", err)
	}
	return &t, nil
}

// Lookup finds a model's profile: the longest known name the model starts
// with ("gpt-4.1-2025-04-14" is gpt-4.1), the provider's default model when
// model is empty. exact is false when the model is unknown and the
// provider's default limits stand in for it.
func (t *Table) Lookup(provider, model string) (p Profile, exact bool, err error) {
	prov, ok := t.Providers[provider]
	if !ok {
		return Profile{}, false, fmt.Errorf("unknown provider %q (known: %s, or none to pack only)", provider, strings.Join(t.providerNames(), ", "))
	}
	if model == "" {
		model = prov.DefaultModel
	}
	best := ""
	found := false
	for name := range prov.Models {
		if strings.HasPrefix(model, name) && (!found || len(name) > len(best)) {
			best, found = name, true
		}
	}
	exact = found
	if !found {
		best = prov.DefaultModel
	}
	p, ok = prov.Models[best]
	if !ok {
		return Profile{}, false, fmt.Errorf("no limits known for %s model %q: set them in .gitctx.yml (provider_limits) or pass --max-tokens", provider, model)
	}
	p.Provider, p.Model, p.Known = provider, model, best
	if p.Factor == 0 {
		p.Factor = 1
	}
	return p, exact, nil
}

func (t *Table) providerNames() []string {
	names := make([]string, 0, len(t.Providers))
	for n := range t.Providers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Budget is the token budget of a pack for the model: its input window,
// less the output reserved for the answer (at most MaxReserved), the
// review prompt around the pack, and a MarginPercent safety margin.
func (p Profile) Budget() (limit, reserved int) {
	reserved = min(p.MaxOutput, MaxReserved)
	input := p.ContextWindow - reserved
	if p.MaxInput > 0 {
		input = min(input, p.MaxInput)
	}
	limit = input - PromptOverhead
	limit -= limit * MarginPercent / 100
	return max(limit, 0), reserved
}

// CostUSD estimates what sending input tokens and receiving output tokens
// costs at list price; ok is false when the price is not known.
func (p Profile) CostUSD(input, output int) (float64, bool) {
	if p.InputUSD == 0 && p.OutputUSD == 0 {
		return 0, false
	}
	return (float64(input)*p.InputUSD + float64(output)*p.OutputUSD) / 1e6, true
}
