package main

import (
	"errors"
	"fmt"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/pack/profile"
)

// resolveBudget turns --provider, --model and --max-tokens into the pack's
// budget and the counter that measures it. Without a provider the budget
// is 128,000 tokens of o200k_base; with one, the model's window less the
// reserved output, prompt and margin, counted with the model's tokenizer
// (scaled by a factor where the tokenizer is not public). --max-tokens
// sets the limit directly, and so does the configuration's
// provider_limits entry for the provider and model.
func resolveBudget(a *app, o *packOptions) (pack.Budget, pack.Counter, error) {
	b := pack.Budget{Provider: "none", Limit: profile.NoneLimit}
	tokenizer, factor := "o200k_base", 1.0
	if o.provider != "" && o.provider != "none" {
		table, err := profile.Load()
		if err != nil {
			return b, nil, err
		}
		p, exact, err := table.Lookup(o.provider, o.model)
		if err != nil {
			return b, nil, &usageError{err: err}
		}
		if !exact {
			fmt.Fprintf(a.stderr, "gitctx: warning: no limits known for %s model %s; using those of %s (pass --max-tokens to set the budget)\n",
				o.provider, terminalSafe(o.model), p.Known)
		}
		limit, reserved := p.Budget()
		b = pack.Budget{Provider: p.Provider, Model: p.Model, ContextWindow: p.ContextWindow, ReservedOutput: reserved, Limit: limit}
		tokenizer, factor = p.Tokenizer, p.Factor
	}
	limits := o.settings.extra().ProviderLimits
	for _, key := range []string{o.provider + "/" + o.model, b.Provider + "/" + b.Model} {
		if n := limits[key]; n > 0 && o.maxTokens == 0 {
			b.Limit = n // the configuration's provider_limits
			break
		}
	}
	if o.maxTokens > 0 {
		b.Limit = o.maxTokens
	}
	if b.Limit <= 0 {
		return b, nil, errors.New("the model leaves no room for a pack: pass --max-tokens")
	}
	counter, err := pack.NewCounter(tokenizer, factor)
	return b, counter, err
}
