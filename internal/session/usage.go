package session

import "github.com/synaps-cli/synaps/internal/llm"

// Usage is llm.Usage as a session file spells it. A record carries it
// beside the answer it paid for, so the file alone says what the session
// has cost: a resume shows the same token counts as the run that left it.
type Usage struct {
	In         int `json:"in,omitempty"`
	Out        int `json:"out,omitempty"`
	CacheRead  int `json:"cache_read,omitempty"`
	CacheWrite int `json:"cache_write,omitempty"`
	// USD is the cost in US dollars; Unpriced is 1 when the model had no
	// price.
	USD      float64 `json:"usd,omitempty"`
	Unpriced int     `json:"unpriced,omitempty"`
}

func usageOf(u llm.Usage) *Usage {
	return &Usage{In: u.InputTokens, Out: u.OutputTokens, CacheRead: u.CacheReadTokens, CacheWrite: u.CacheWriteTokens, USD: u.CostUSD, Unpriced: u.Unpriced}
}

func (u Usage) llm() llm.Usage {
	return llm.Usage{InputTokens: u.In, OutputTokens: u.Out, CacheReadTokens: u.CacheRead, CacheWriteTokens: u.CacheWrite, CostUSD: u.USD, Unpriced: u.Unpriced}
}
