package claude

import (
	"bytes"
	"encoding/json"
	"time"
)

// Session is what every payload says about the session it comes from.
type Session struct {
	ID string
	// TranscriptPath is the Claude-shaped mirror of the conversation that
	// hooks read (to find the last assistant message, say).
	TranscriptPath string
	Cwd            string
	// PermissionMode is Claude's name of the mode ("default", "plan" …).
	PermissionMode string
	// PromptID names the user turn the event belongs to.
	PromptID string
	// Effort is the thinking level ("high"); empty leaves it out.
	Effort string
}

// Event is one hook event with what its payload carries. Name is Claude's
// event name; the other fields are read by the events that have them.
type Event struct {
	Name    string
	Session Session

	// Tool events. ToolName and ToolInput are in Claude's terms (see
	// ClaudeName, ToClaudeInput); ToolResponse in its tool's shape.
	ToolName     string
	ToolInput    json.RawMessage
	ToolUseID    string
	ToolResponse any
	Error        string // PostToolUseFailure: "Exit code 1"
	Interrupted  bool
	Duration     time.Duration

	Prompt string // UserPromptSubmit

	Source string // SessionStart: startup, resume, clear, compact
	Model  string // SessionStart after compact

	Reason string // SessionEnd: clear, logout, prompt_input_exit, other

	Trigger            string // PreCompact: manual, auto
	CustomInstructions string

	// Stop and SubagentStop.
	StopHookActive       bool
	LastAssistantMessage string
	AgentID, AgentType   string
	AgentTranscriptPath  string

	// Notification.
	Message          string
	NotificationType string

	// The newer events' fields (eventpayload.go).
	Newer
}

// MatchValue is what a group's matcher is tested against for this event,
// and whether the event takes a matcher at all (UserPromptSubmit, Stop
// and the like run every group).
func (e *Event) MatchValue() (string, bool) {
	switch e.Name {
	case "PreToolUse", "PostToolUse", "PostToolUseFailure":
		return e.ToolName, true
	case "SessionStart":
		return e.Source, true
	case "SubagentStop":
		return e.AgentType, true
	case "PreCompact":
		return e.Trigger, true
	case "SessionEnd":
		return e.Reason, true
	case "Notification":
		return e.NotificationType, true
	}
	return e.newerMatch()
}

// Selects reports whether a group with matcher m runs for the event.
func (e *Event) Selects(m Matcher) bool {
	v, takes := e.MatchValue()
	if takes && v == "Agent" && m.Match("Task") {
		return true // hooks written before Claude Code renamed Task to Agent
	}
	return !takes || m.Match(v)
}

// Payload is the event's stdin: one compact JSON object with the fields
// Claude Code sends for it, in its order.
func (e *Event) Payload() []byte {
	s := e.Session
	f := fields{{"session_id", s.ID}, {"transcript_path", s.TranscriptPath}, {"cwd", s.Cwd}}
	turn := func() {
		if s.PromptID != "" {
			f = append(f, field{"prompt_id", s.PromptID})
		}
	}
	mode := func() {
		if s.PermissionMode != "" {
			f = append(f, field{"permission_mode", s.PermissionMode})
		}
	}
	effort := func() {
		if s.Effort != "" {
			f = append(f, field{"effort", map[string]string{"level": s.Effort}})
		}
	}
	name := func() { f = append(f, field{"hook_event_name", e.Name}) }
	// agent names the subagent an event comes from, after the permission
	// mode as Claude Code writes it; the main loop's events have none.
	agent := func() {
		if e.AgentID != "" {
			f = append(f, field{"agent_id", e.AgentID}, field{"agent_type", e.AgentType})
		}
	}
	input := e.ToolInput
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	switch e.Name {
	case "SessionStart":
		if e.Source == "compact" { // a compaction happens within a turn
			turn()
		}
		name()
		f = append(f, field{"source", e.Source})
		if e.Model != "" {
			f = append(f, field{"model", e.Model})
		}
	case "UserPromptSubmit":
		turn()
		mode()
		name()
		f = append(f, field{"prompt", e.Prompt})
	case "PreToolUse":
		turn()
		mode()
		agent()
		effort()
		name()
		f = append(f, field{"tool_name", e.ToolName}, field{"tool_input", input}, field{"tool_use_id", e.ToolUseID})
	case "PostToolUse":
		turn()
		mode()
		agent()
		effort()
		name()
		f = append(f, field{"tool_name", e.ToolName}, field{"tool_input", input}, field{"tool_response", e.ToolResponse},
			field{"tool_use_id", e.ToolUseID}, field{"duration_ms", e.Duration.Milliseconds()})
	case "PostToolUseFailure":
		turn()
		mode()
		agent()
		effort()
		name()
		f = append(f, field{"tool_name", e.ToolName}, field{"tool_input", input}, field{"tool_use_id", e.ToolUseID},
			field{"error", e.Error}, field{"is_interrupt", e.Interrupted}, field{"duration_ms", e.Duration.Milliseconds()})
	case "Stop", "SubagentStop":
		turn()
		mode()
		if e.Name == "SubagentStop" {
			f = append(f, field{"agent_id", e.AgentID}, field{"agent_type", e.AgentType})
		} else {
			agent() // a Stop from inside a subagent: not fired by synaps, but shaped so
		}
		effort()
		name()
		f = append(f, field{"stop_hook_active", e.StopHookActive})
		if e.Name == "SubagentStop" {
			f = append(f, field{"agent_transcript_path", e.AgentTranscriptPath})
		}
		f = append(f, field{"last_assistant_message", e.LastAssistantMessage}, field{"background_tasks", []any{}}, field{"session_crons", []any{}})
	case "SessionEnd":
		turn()
		name()
		f = append(f, field{"reason", e.Reason})
	case "PreCompact":
		turn()
		name()
		// No instructions is null, as Claude Code 2.1.332 sends it.
		var custom any
		if e.CustomInstructions != "" {
			custom = e.CustomInstructions
		}
		f = append(f, field{"trigger", e.Trigger}, field{"custom_instructions", custom})
	case "Notification":
		turn()
		mode()
		name()
		f = append(f, field{"message", e.Message}, field{"notification_type", e.NotificationType})
	default:
		f = e.newerPayload(f)
	}
	b, _ := f.MarshalJSON()
	return b
}

// field and fields write a JSON object with its keys in a chosen order.
type field struct {
	key   string
	value any
}

type fields []field

func (fs fields) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshalCompact(f.value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalCompact encodes v without HTML escaping (Claude writes `<` as
// is) and without the encoder's newline.
func marshalCompact(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
