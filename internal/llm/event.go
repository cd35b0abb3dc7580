package llm

import "time"

// EventType is the kind of a stream event.
type EventType string

const (
	// EventText carries a piece of assistant text in Text.
	EventText EventType = "text"
	// EventThinking carries a piece of the model's thinking in Text.
	EventThinking EventType = "thinking"
	// EventToolUse carries a complete tool call in ToolUse, its input fully
	// assembled. It is delivered once per call, never in pieces.
	EventToolUse EventType = "tool_use"
	// EventRetry says the provider is about to retry after a 429, a 5xx or
	// a dropped connection: Err says why, Delay how long it will wait
	// first. It never follows a content event of the same turn.
	EventRetry EventType = "retry"
)

// Event is one streamed delta of an assistant turn.
type Event struct {
	Type    EventType
	Text    string
	ToolUse *Block
	Err     error
	Delay   time.Duration
	// Retry and Retries number an EventRetry: this is retry Retry of at
	// most Retries, both counted from 1, so a UI can say "2/5".
	Retry, Retries int
}
