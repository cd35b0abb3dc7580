package agent

import (
	"time"

	"github.com/synaps-cli/synaps/internal/hook"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/tool"
)

// EventType names what an Event reports.
type EventType string

// Event types, in the order a turn produces them.
const (
	EventText      EventType = "text"       // a piece of the answer (Text)
	EventThinking  EventType = "thinking"   // a piece of the model's thinking (Text)
	EventRetry     EventType = "retry"      // the provider retries (Err, Delay)
	EventMessage   EventType = "message"    // the assistant message is complete (Message)
	EventToolStart EventType = "tool_start" // a tool call begins (Tool)
	EventToolEnd   EventType = "tool_end"   // a tool call ended (Tool)
	EventTurnEnd   EventType = "turn_end"   // the model stopped (StopReason, Usage)
	EventNotice    EventType = "notice"     // something the user should know (Text)
	EventInject    EventType = "inject"     // extensions added context (Text: their ids, Where)
	EventSteer     EventType = "steer"      // text the user sent mid-turn joined it (Text; see Agent.Steer)
	// A subagent began (Subagent; Text: the task's description) or
	// ended (Subagent, Usage: all it spent, Err, Text: its answer).
	// Between them, the child's own events arrive with Subagent set.
	EventSubagentStart EventType = "subagent_start"
	EventSubagentEnd   EventType = "subagent_end"
	// EventOutput is output of a command the user ran (a plugin's
	// interactive command), as it comes: Text, and Stream saying which
	// kind — text, system, error or task (progress).
	EventOutput EventType = "output"
)

// NoticeCancelled is the notice of a turn that was cancelled: the last
// thing it says, after the partial answer it kept. A UI that holds the
// partial answer back (still streaming) shows it before this notice.
const NoticeCancelled = "cancelled"

// Event is what the agent tells a UI. Events arrive in order on the
// Config.OnEvent callback; a UI turns them into screen updates.
type Event struct {
	Type       EventType
	Text       string
	Message    *llm.Message
	Tool       *ToolCall
	StopReason string
	Usage      llm.Usage
	Err        error
	Delay      time.Duration
	// Retry and Retries number an EventRetry (retry 2 of at most 5).
	Retry, Retries int
	// Where says where injected context went: "system" (session start)
	// or "user" (before_message).
	Where string
	// Subagent is the child loop the event comes from (its id, type and
	// the parent's tool call); nil for the main loop's own events.
	Subagent *hook.Subagent
	// Stream is the kind of an EventOutput.
	Stream string
}

// ToolCall describes one tool call as it runs and after.
type ToolCall struct {
	ID   string
	Name string // model-facing name
	// Input is what ran (after any modify); InputRequested what the model asked.
	Input, InputRequested []byte
	Output                string
	IsError               bool
	// Diff is what the call changed in a file, for the UI to show; the
	// model got only Output. Nil when the tool reported none.
	Diff     *tool.Diff
	Duration time.Duration
	// Refused: the permission mode or a rule refused the call, or the
	// user declined it, or nobody could be asked; Output says why and,
	// headless, which flag or rule allows it.
	Refused bool
	// Who intervened: the extension that blocked, modified or replaced.
	BlockedBy  string
	ModifiedBy []string
	ReplacedBy []string
	// Report is what decided the call (coverage): every link of the
	// chain, the permission rule or mode, the verdict. Complete by
	// EventToolEnd.
	Report *CallReport
}
