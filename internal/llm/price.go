package llm

import (
	"fmt"
	"strconv"
	"strings"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input, Output float64
	// CacheRead and CacheWrite are the prompt-cache rates: a token read
	// from the cache, a token written to it (Anthropic's 5-minute cache).
	// OpenAI bills cached reads and has no write rate.
	CacheRead, CacheWrite float64
}

// Cost is what u costs at p, in US dollars. InputTokens counts the whole
// prompt, the cached parts included (see Usage), so those are taken out
// of it and billed at their own rates.
func (p Price) Cost(u Usage) float64 {
	plain := max(u.InputTokens-u.CacheReadTokens-u.CacheWriteTokens, 0)
	return (float64(plain)*p.Input + float64(u.OutputTokens)*p.Output +
		float64(u.CacheReadTokens)*p.CacheRead + float64(u.CacheWriteTokens)*p.CacheWrite) / 1e6
}

// prices are the list prices of the models synaps knows, by model id
// prefix (the longest that matches wins, so "claude-opus-4-5" is not
// priced as "claude-opus-4"). They are the providers' published prices
// per million tokens when this table was written; config `price.<model>`
// overrides them (see ParsePrice), and a model not here has no price
// until configured.
var prices = map[string]Price{
	// Anthropic: cache writes (5 minutes) at 1.25× input, reads at 0.1×.
	"claude-opus-4":     {Input: 15, Output: 75, CacheRead: 1.5, CacheWrite: 18.75},
	"claude-opus-4-5":   {Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25},
	"claude-opus-4-6":   {Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25},
	"claude-sonnet-4":   {Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
	"claude-3-7-sonnet": {Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
	"claude-3-5-sonnet": {Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
	"claude-haiku-4-5":  {Input: 1, Output: 5, CacheRead: 0.1, CacheWrite: 1.25},
	"claude-3-5-haiku":  {Input: 0.8, Output: 4, CacheRead: 0.08, CacheWrite: 1},
	"claude-3-haiku":    {Input: 0.25, Output: 1.25, CacheRead: 0.03, CacheWrite: 0.3},
	// OpenAI: cached input at the rate it publishes; no write charge.
	"gpt-5":        {Input: 1.25, Output: 10, CacheRead: 0.125},
	"gpt-5-mini":   {Input: 0.25, Output: 2, CacheRead: 0.025},
	"gpt-5-nano":   {Input: 0.05, Output: 0.4, CacheRead: 0.005},
	"gpt-4.1":      {Input: 2, Output: 8, CacheRead: 0.5},
	"gpt-4.1-mini": {Input: 0.4, Output: 1.6, CacheRead: 0.1},
	"gpt-4.1-nano": {Input: 0.1, Output: 0.4, CacheRead: 0.025},
	"gpt-4o":       {Input: 2.5, Output: 10, CacheRead: 1.25},
	"gpt-4o-mini":  {Input: 0.15, Output: 0.6, CacheRead: 0.075},
	"o3":           {Input: 2, Output: 8, CacheRead: 0.5},
	"o3-mini":      {Input: 1.1, Output: 4.4, CacheRead: 0.55},
	"o4-mini":      {Input: 1.1, Output: 4.4, CacheRead: 0.275},
}

// ModelID is a model name without its provider prefix: the id the
// price table and config `price.<model>` keys use.
func ModelID(name string) string {
	for _, p := range []string{"anthropic/", "openai/"} {
		if id, ok := strings.CutPrefix(name, p); ok {
			return id
		}
	}
	return name
}

// PriceOf is the list price of model (an id, or a name with its provider
// prefix), from the longest prefix of it in table, or in the built-in
// table when table is nil; ok is false when none matches.
func PriceOf(model string, table map[string]Price) (p Price, ok bool) {
	if table == nil {
		table = prices
	}
	id := ModelID(model)
	best := -1
	for k, v := range table {
		if len(k) > best && strings.HasPrefix(id, ModelID(k)) {
			p, ok, best = v, true, len(k)
		}
	}
	return p, ok
}

// Prices returns a copy of the built-in table, for a caller to add
// configured prices to.
func Prices() map[string]Price {
	out := make(map[string]Price, len(prices))
	for k, v := range prices {
		out[k] = v
	}
	return out
}

// ParsePrice reads a price as config writes it: US dollars per million
// tokens, `input=3 output=15 cache_read=0.3 cache_write=3.75` (fields in
// any order, separated by spaces or commas; cache ones optional).
func ParsePrice(s string) (Price, error) {
	var p Price
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return Price{}, fmt.Errorf("%q is not field=dollars", f)
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < 0 {
			return Price{}, fmt.Errorf("%s=%s is not a number of dollars of 0 or more", k, v)
		}
		switch k {
		case "input":
			p.Input = x
		case "output":
			p.Output = x
		case "cache_read":
			p.CacheRead = x
		case "cache_write":
			p.CacheWrite = x
		default:
			return Price{}, fmt.Errorf("unknown field %q; use input, output, cache_read, cache_write", k)
		}
		seen[k] = true
	}
	if !seen["input"] || !seen["output"] {
		return Price{}, fmt.Errorf("%q needs at least input= and output=", s)
	}
	return p, nil
}
