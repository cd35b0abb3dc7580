package app

import (
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/llm"
)

// pricePrefix starts a config key that prices a model:
//
//	price.claude-sonnet-4-5 = input=3 output=15 cache_read=0.3 cache_write=3.75
//
// in US dollars per million tokens. It overrides the built-in table
// (llm.PriceOf) for every model id it is a prefix of, and prices a model
// the table does not know.
const pricePrefix = "price."

// priceTable is the built-in price table with the config's prices on top,
// and a warning for each price key whose value cannot be read (naming
// file, key and the form to write).
func priceTable(cfg *config.File) (map[string]llm.Price, []string) {
	table := llm.Prices()
	var warnings []string
	for _, k := range cfg.Keys() {
		model, ok := strings.CutPrefix(k, pricePrefix)
		if !ok {
			continue
		}
		v, _ := cfg.Get(k)
		p, err := llm.ParsePrice(v)
		if err != nil || model == "" {
			if err == nil {
				err = fmt.Errorf("no model named after %q", pricePrefix)
			}
			warnings = append(warnings, fmt.Sprintf("%s: %s: %v, so it is not used; write e.g. `price.claude-sonnet-4-5 = input=3 output=15 cache_read=0.3 cache_write=3.75` (US dollars per million tokens)", cfg.Path, k, err))
			continue
		}
		table[model] = p
	}
	return table, warnings
}

// Price is the price of a model id or name, from the built-in table and
// config `price.<model>`. The scripted model (id "script", ResolveModel)
// answers from a file and bills nothing: it costs 0 rather than having
// no price, unless config price.script says otherwise (pricing tests).
func (a *App) Price(model string) (llm.Price, bool) {
	if p, ok := llm.PriceOf(model, a.prices); ok {
		return p, true
	}
	if model == llm.KindScript {
		return llm.Price{}, true
	}
	return llm.Price{}, false
}

// FormatCost is a session's cost for a status line or summary: "$0.0123",
// with a "+" when some requests had no price; "" when nothing was
// counted (no request yet, or none with a price).
func FormatCost(u llm.Usage) string {
	if u.CostUSD == 0 {
		return ""
	}
	var s string
	switch {
	case u.CostUSD >= 1:
		s = fmt.Sprintf("$%.2f", u.CostUSD)
	case u.CostUSD >= 0.01:
		s = fmt.Sprintf("$%.4f", u.CostUSD)
	default:
		s = fmt.Sprintf("$%.6f", u.CostUSD)
	}
	if u.Unpriced > 0 {
		s += "+" // some requests had no price
	}
	return s
}
