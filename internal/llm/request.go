package llm

import "encoding/json"

// ToolDef describes a tool the model may call.
type ToolDef struct {
	Name        string
	Description string
	// InputSchema is the JSON Schema of the tool's input object. Nil is
	// sent as {"type":"object"}.
	InputSchema json.RawMessage
}

// Request is one call to a model: the conversation so far plus settings.
type Request struct {
	// Model is the provider's model id, without the "anthropic/" style
	// prefix that ParseModel strips.
	Model string
	// System is the system prompt; empty means none.
	System   string
	Messages []Message
	Tools    []ToolDef
	// MaxTokens caps the output, in tokens. 0 means the provider's default
	// (anthropic: 8192; openai: not sent, so the server decides).
	MaxTokens int
	// Temperature is sent only when not nil.
	Temperature *float64
	// ThinkingBudget, in tokens, turns on Anthropic extended thinking when
	// above 0 (the API requires at least 1024, and MaxTokens above it).
	// Other providers ignore it.
	ThinkingBudget int
	// ReasoningEffort ("low", "medium", "high") is sent to
	// OpenAI-compatible reasoning models as reasoning_effort; others
	// ignore it.
	ReasoningEffort string
	// Effort is the level asked for, for providers that take it as it is
	// (an extension's model, in provider.complete, and Anthropic models
	// that take output_config.effort: see AnthropicEffort); "" for the
	// default.
	Effort Effort
	// AnthropicEffort sends Effort as output_config.effort with adaptive
	// thinking (Claude 4.6 and later) instead of a thinking budget.
	AnthropicEffort bool
	// Prefix, when set, keeps the encoding of the conversation between
	// requests (see Prefix); nil encodes every message every time.
	Prefix *Prefix
}
