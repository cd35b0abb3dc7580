package synaps

import "encoding/json"

// Hook names.
const (
	BeforeToolCall    = "before_tool_call"
	AfterToolCall     = "after_tool_call"
	BeforeMessage     = "before_message"
	OnMessageComplete = "on_message_complete"
	OnCompaction      = "on_compaction"
	OnSessionStart    = "on_session_start"
	OnSessionEnd      = "on_session_end"
	// OnSubagentComplete fires when a subagent gives its final answer.
	OnSubagentComplete = "on_subagent_complete"
)

// Event is a hook event (the params of hook.handle).
type Event struct {
	Kind            string          `json:"kind"`
	ToolName        string          `json:"tool_name"`
	ToolRuntimeName string          `json:"tool_runtime_name"`
	ToolInput       json.RawMessage `json:"tool_input"`
	ToolOutput      *string         `json:"tool_output"`
	Message         *string         `json:"message"`
	SessionID       string          `json:"session_id"`
	Transcript      json.RawMessage `json:"transcript"`
	Data            json.RawMessage `json:"data"`
	// AgentID, AgentType and ParentToolUseID are set on events from
	// inside a subagent (its tool calls, on_subagent_complete); empty in
	// the main loop.
	AgentID         string `json:"agent_id,omitempty"`
	AgentType       string `json:"agent_type,omitempty"`
	ParentToolUseID string `json:"parent_tool_use_id,omitempty"`
}

// Input decodes the tool input into v.
func (e *Event) Input(v any) error { return json.Unmarshal(e.ToolInput, v) }

// Result is a hook's answer. Build it with Continue, Block, Confirm,
// Modify, Replace or Inject.
type Result struct {
	Action  string          `json:"action"`
	Reason  string          `json:"reason,omitempty"`
	Message string          `json:"message,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	Output  *string         `json:"output,omitempty"`
	Content string          `json:"content,omitempty"`
}

// Continue lets the event proceed unchanged.
func Continue() Result { return Result{Action: "continue"} }

// Block stops a tool call (before_tool_call); the model sees the reason.
func Block(reason string) Result { return Result{Action: "block", Reason: reason} }

// Confirm asks the user before a tool call runs (before_tool_call).
func Confirm(message string) Result { return Result{Action: "confirm", Message: message} }

// Modify replaces a tool call's input (before_tool_call). input must
// marshal to a JSON object.
func Modify(input any) Result {
	b, err := json.Marshal(input)
	if err != nil {
		return Block("extension could not encode its modified input: " + err.Error())
	}
	return Result{Action: "modify", Input: b}
}

// Replace replaces a tool's output (after_tool_call; needs the
// tools.transform_output permission).
func Replace(output string) Result { return Result{Action: "replace", Output: &output} }

// Inject adds context (before_message: to the user's message;
// on_session_start: to the system prompt).
func Inject(content string) Result { return Result{Action: "inject", Content: content} }
