package profile

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	table, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		provider, model string
		wantModel       string
		window          int
		tokenizer       string
		factor          float64
		exact           bool
	}{
		{"openai", "gpt-4.1", "gpt-4.1", 1047576, "o200k_base", 1, true},
		{"openai", "gpt-4.1-mini-2025-04-14", "gpt-4.1-mini-2025-04-14", 1047576, "o200k_base", 1, true},
		{"openai", "", "gpt-4.1", 1047576, "o200k_base", 1, true},
		{"openai", "gpt-4", "gpt-4", 8192, "cl100k_base", 1, true},
		{"openai", "gpt-5", "gpt-5", 400000, "o200k_base", 1, true},
		{"openai", "gpt-99", "gpt-99", 1047576, "o200k_base", 1, false},
		{"anthropic", "claude-sonnet-4-5", "claude-sonnet-4-5", 200000, "o200k_base", 1.35, true},
		{"anthropic", "claude-sonnet-4-5-20250929", "claude-sonnet-4-5-20250929", 200000, "o200k_base", 1.35, true},
		{"anthropic", "claude-opus-4-6", "claude-opus-4-6", 1000000, "o200k_base", 1.35, true},
		{"gemini", "gemini-2.5-flash", "gemini-2.5-flash", 1048576, "o200k_base", 1.2, true},
		{"ollama", "llama3.1", "llama3.1", 4096, "o200k_base", 1.2, true},
	}
	for _, tt := range tests {
		p, exact, err := table.Lookup(tt.provider, tt.model)
		if err != nil {
			t.Errorf("Lookup(%q, %q): %v", tt.provider, tt.model, err)
			continue
		}
		if p.Model != tt.wantModel || p.ContextWindow != tt.window || p.Tokenizer != tt.tokenizer || p.Factor != tt.factor || exact != tt.exact {
			t.Errorf("Lookup(%q, %q) = %s window %d %s ×%v exact %v, want %s %d %s ×%v %v", tt.provider, tt.model,
				p.Model, p.ContextWindow, p.Tokenizer, p.Factor, exact, tt.wantModel, tt.window, tt.tokenizer, tt.factor, tt.exact)
		}
	}
	if _, _, err := table.Lookup("acme", "x"); err == nil || !strings.Contains(err.Error(), "openai") {
		t.Errorf("an unknown provider: err = %v, want one listing the known providers", err)
	}
}

func TestBudget(t *testing.T) {
	table, _ := Load()
	for _, c := range []struct{ provider, model string }{{"openai", "gpt-4.1"}, {"openai", "gpt-5"}, {"anthropic", ""}, {"ollama", "x"}, {"openai", "gpt-4"}} {
		p, _, _ := table.Lookup(c.provider, c.model)
		limit, reserved := p.Budget()
		if limit <= 0 || limit > p.ContextWindow-reserved || (p.MaxInput > 0 && limit > p.MaxInput) {
			t.Errorf("%s %s: limit %d with window %d, reserved %d, max input %d", c.provider, c.model, limit, p.ContextWindow, reserved, p.MaxInput)
		}
		if reserved > p.MaxOutput || reserved > MaxReserved {
			t.Errorf("%s %s: reserved %d, max output %d", c.provider, c.model, reserved, p.MaxOutput)
		}
	}
	p, _, _ := table.Lookup("ollama", "")
	if limit, _ := p.Budget(); limit > 4096 {
		t.Errorf("ollama's budget is %d; its server truncates silently past its 4096-token default", limit)
	}
}

func TestCost(t *testing.T) {
	table, _ := Load()
	p, _, _ := table.Lookup("openai", "gpt-4.1")
	if got, ok := p.CostUSD(1_000_000, 100_000); !ok || got < 2.79 || got > 2.81 {
		t.Errorf("gpt-4.1 cost of 1M in, 100k out = %v %v, want 2.80", got, ok)
	}
	p, _, _ = table.Lookup("ollama", "")
	if _, ok := p.CostUSD(1000, 1000); ok {
		t.Error("a local model has a price")
	}
}
