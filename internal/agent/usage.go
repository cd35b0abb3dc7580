package agent

import (
	"context"
	"encoding/json"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
)

// What a model request cost: its usage priced at the model's price, and
// the on_usage hook that reports it to extensions once per response.

// priced is u with its cost at the price of the model that answered.
func (a *Agent) priced(u llm.Usage) llm.Usage {
	if a.cfg.Price == nil {
		u.Unpriced = 1
		return u
	}
	if p, ok := a.cfg.Price(a.cfg.Model); ok {
		u.CostUSD = p.Cost(u)
	} else {
		u.Unpriced = 1
	}
	return u
}

// usageReport runs on_usage once per model response, with the tokens the
// service billed for it (extension protocol 2; the shape of SynapsCLI's
// TurnUsage, which counts input_tokens without the cached parts).
func (a *Agent) usageReport(ctx context.Context, resp *llm.Response, used llm.Usage) {
	if a.cfg.Hooks == nil {
		return
	}
	model := resp.Model
	if model == "" {
		model = a.cfg.Model
	}
	var session any
	if a.cfg.Session.ID != "" {
		session = a.cfg.Session.ID
	}
	data, _ := json.Marshal(map[string]any{
		"provider":   a.providerName(),
		"model":      model,
		"session_id": session,
		"message_id": nil,
		"turn_id":    a.requests,
		"usage": map[string]any{
			"input_tokens":                max(0, used.InputTokens-used.CacheReadTokens-used.CacheWriteTokens),
			"output_tokens":               used.OutputTokens,
			"cache_read_input_tokens":     used.CacheReadTokens,
			"cache_creation_input_tokens": used.CacheWriteTokens,
		},
		"cost_usd":    used.CostUSD,
		"source":      map[string]any{"runtime": "synaps", "event": "message_delta", "streaming": true},
		"occurred_at": a.now().UTC().Format(time.RFC3339),
	})
	a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookOnUsage, SessionID: a.cfg.Session.ID, Data: data})
}

func (a *Agent) providerName() string {
	if a.cfg.ProviderName != "" {
		return a.cfg.ProviderName
	}
	return llm.ProviderName(a.cfg.Model)
}
