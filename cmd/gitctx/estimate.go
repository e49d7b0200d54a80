package main

import (
	"fmt"

	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/pack/profile"
	"github.com/gitctx/gitctx/review"
)

// modelProfile is the profile of --provider and --model, or a bare one
// naming the model when gitctx knows no limits for it.
func modelProfile(o *reviewOptions) profile.Profile {
	bare := profile.Profile{Provider: o.provider, Model: o.model}
	table, err := profile.Load()
	if err != nil {
		return bare
	}
	p, exact, err := table.Lookup(o.provider, o.model)
	if err != nil {
		return bare
	}
	if !exact && o.model != "" {
		// Limits borrowed from a similar model; the request names the
		// model the user asked for.
		p.Model = o.model
	}
	return p
}

// outputCap is the most the answer may take: --max-output-tokens, else
// the output the budget reserved.
func outputCap(o *reviewOptions, p profile.Profile) int {
	if o.maxOutput > 0 {
		return o.maxOutput
	}
	if _, reserved := p.Budget(); reserved > 0 {
		return reserved
	}
	return profile.MaxReserved
}

// costEstimate is the pre-flight estimate of a review.
type costEstimate struct {
	input, output int // tokens: the prompt's, and the answer's cap
	usd           float64
	inputUSD      float64 // the prompt's part of usd
	known         bool    // the model's price is known
}

func estimateCost(p review.Prompt, c pack.Counter, prof profile.Profile, maxOut int) costEstimate {
	e := costEstimate{input: c.Count(p.System) + c.Count(p.User), output: maxOut}
	e.usd, e.known = prof.CostUSD(e.input, e.output)
	e.inputUSD, _ = prof.CostUSD(e.input, 0)
	return e
}

// cheaper says which flag lowers the estimate most: the one that bounds
// its larger part.
func (e costEstimate) cheaper() string {
	if e.usd-e.inputUSD > e.inputUSD {
		return fmt.Sprintf("lower --max-output-tokens (the answer's cap, %s tokens, is most of it)", thousands(e.output))
	}
	return fmt.Sprintf("lower --max-tokens (the prompt, %s tokens, is most of it)", thousands(e.input))
}

func (e costEstimate) String() string {
	s := fmt.Sprintf("estimate: %s prompt tokens + up to %s answer tokens", thousands(e.input), thousands(e.output))
	if e.known {
		return s + fmt.Sprintf(", at most $%.4f at list price", e.usd)
	}
	return s + ", price unknown"
}
