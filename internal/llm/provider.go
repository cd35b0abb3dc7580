package llm

import "context"

// Provider streams one assistant turn. onEvent (may be nil) receives deltas
// as they arrive, synchronously and in order, on the calling goroutine or
// one the provider owns — never concurrently. The return value is the
// assembled message, whether or not onEvent was given.
type Provider interface {
	Complete(ctx context.Context, req *Request, onEvent func(Event)) (*Response, error)
}

// Stop reasons, normalised to the Anthropic names. Providers pass a reason
// they cannot map through unchanged.
const (
	StopEndTurn      = "end_turn"
	StopToolUse      = "tool_use"
	StopMaxTokens    = "max_tokens"
	StopStopSequence = "stop_sequence"
	StopRefusal      = "refusal"
)

// Usage counts tokens for one turn.
type Usage struct {
	// InputTokens is the prompt size as the service billed it.
	InputTokens int
	// OutputTokens is what the model generated, thinking included.
	OutputTokens int
	// CacheReadTokens and CacheWriteTokens are the parts of InputTokens
	// read from and written to the service's prompt cache, where it says
	// (Anthropic: both; OpenAI: reads); 0 when it does not.
	CacheReadTokens, CacheWriteTokens int
	// CostUSD is what the tokens cost in US dollars, from the price of
	// the model that answered (Price); Unpriced counts the requests whose
	// model has no price, which CostUSD leaves out. Providers set
	// neither: the agent prices what they report.
	CostUSD  float64
	Unpriced int
}

// Add is u and v counted together.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + v.InputTokens,
		OutputTokens:     u.OutputTokens + v.OutputTokens,
		CacheReadTokens:  u.CacheReadTokens + v.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
		CostUSD:          u.CostUSD + v.CostUSD,
		Unpriced:         u.Unpriced + v.Unpriced,
	}
}

// Response is an assembled assistant turn.
type Response struct {
	// Message has Role RoleAssistant and the blocks in stream order.
	Message Message
	// StopReason is "end_turn", "tool_use", "max_tokens", "stop_sequence",
	// "refusal", ... normalised: OpenAI "stop" is "end_turn", "tool_calls"
	// is "tool_use", "length" is "max_tokens", "content_filter" is
	// "refusal".
	StopReason string
	Usage      Usage
	// Model is the model that answered, as the service named it.
	Model string
}
