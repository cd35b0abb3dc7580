package hook

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Event is one lifecycle event, as the agent reports it.
type Event struct {
	Kind string
	// ToolName is the model-facing tool name; ToolRuntimeName the stable
	// id ("bash", "hello-ext:hello"). Tool hooks only.
	ToolName, ToolRuntimeName string
	ToolInput                 json.RawMessage
	// ToolOutput is the tool's output (after_tool_call); nil elsewhere.
	ToolOutput *string
	// StartSource says why on_session_start fires: "startup", "resume"
	// (a saved session goes on) or "compact" (a compacted session
	// begins). Links that tell them apart read it (a Claude SessionStart
	// matcher); the extension protocol's wire form does not carry it.
	StartSource string
	// EndReason says why on_session_end fires: "clear" (the user started
	// a new session), "prompt_input_exit" (the user quit the terminal
	// UI) or "other". Links that tell them apart read it (a Claude
	// SessionEnd matcher); the wire form does not carry it.
	EndReason string
	// ToolError: the tool failed (after_tool_call). Links that tell
	// failures apart read it (a Claude PostToolUseFailure hook); the
	// extension protocol's wire form does not carry it.
	ToolError bool
	// ToolDetail is the tool's whole result (a tool.Result) on
	// after_tool_call, for links that report more than its text (a Claude
	// PostToolUse hook's originalFile and structuredPatch); nil when the
	// caller had none. Not on the extension wire.
	ToolDetail any
	// ToolUse is the model's call (its id, when it began) on tool
	// events, from the call's context (WithToolUse); nil outside one.
	// Not on the extension wire.
	ToolUse *ToolUse
	// Message is the user's message (before_message) or the assistant's
	// text (on_message_complete); nil elsewhere.
	Message    *string
	SessionID  string
	Transcript json.RawMessage // on_session_end
	Data       json.RawMessage // on_message_complete, on_compaction, on_subagent_complete
	// Subagent is the child loop the event comes from; nil in the main
	// loop. The chain fills it from the context (WithSubagent).
	Subagent *Subagent
	// AgentTranscript is the subagent's conversation, a JSON array of
	// messages (on_subagent_complete), for links that keep a copy (a
	// Claude SubagentStop's agent_transcript_path); the extension
	// protocol's wire form does not carry it.
	AgentTranscript json.RawMessage
}

// wireEvent is the hook.handle params: every key always present, null
// where it does not apply, so readers of both dialects find what they look
// for; "hook" repeats "kind" and "context" repeats the non-null fields for
// extensions written from the authoring guide.
type wireEvent struct {
	Kind            string          `json:"kind"`
	Hook            string          `json:"hook"`
	ToolName        *string         `json:"tool_name"`
	ToolRuntimeName *string         `json:"tool_runtime_name"`
	ToolInput       json.RawMessage `json:"tool_input"`
	ToolOutput      *string         `json:"tool_output"`
	Message         *string         `json:"message"`
	SessionID       *string         `json:"session_id"`
	Transcript      json.RawMessage `json:"transcript"`
	Data            json.RawMessage `json:"data"`
	// The subagent keys are present only on events from inside a
	// subagent, so the main loop's events keep the shape they always had.
	AgentID         *string     `json:"agent_id,omitempty"`
	AgentType       *string     `json:"agent_type,omitempty"`
	ParentToolUseID *string     `json:"parent_tool_use_id,omitempty"`
	Context         wireContext `json:"context"`
}

type wireContext struct {
	ToolName        *string         `json:"tool_name,omitempty"`
	ToolRuntimeName *string         `json:"tool_runtime_name,omitempty"`
	ToolInput       json.RawMessage `json:"tool_input,omitempty"`
	ToolOutput      *string         `json:"tool_output,omitempty"`
	Message         *string         `json:"message,omitempty"`
	SessionID       *string         `json:"session_id,omitempty"`
	Transcript      json.RawMessage `json:"transcript,omitempty"`
	Data            json.RawMessage `json:"data,omitempty"`
	AgentID         *string         `json:"agent_id,omitempty"`
	AgentType       *string         `json:"agent_type,omitempty"`
	ParentToolUseID *string         `json:"parent_tool_use_id,omitempty"`
}

// Encode builds the event in the extension protocol's wire form, the
// hook.handle params. Tool output beyond limit bytes is cut to a prefix and
// a note of its full size (contract.MaxToolOutputHook for most links,
// contract.MaxReplaceOutput for one that may replace the output).
func (ev *Event) Encode(limit int) json.RawMessage {
	w := wireEvent{
		Kind:            ev.Kind,
		Hook:            ev.Kind,
		ToolName:        strOrNil(ev.ToolName),
		ToolRuntimeName: strOrNil(ev.ToolRuntimeName),
		ToolInput:       nullIfEmpty(ev.ToolInput),
		Message:         ev.Message,
		SessionID:       strOrNil(ev.SessionID),
		Transcript:      nullIfEmpty(ev.Transcript),
		Data:            nullIfEmpty(ev.Data),
	}
	if ev.ToolOutput != nil {
		out := *ev.ToolOutput
		if len(out) > limit {
			out = CutUTF8(out, limit) + fmt.Sprintf("…[truncated, %d total bytes]", len(*ev.ToolOutput))
		}
		w.ToolOutput = &out
	}
	if s := ev.Subagent; s != nil {
		// agent_type may be "" (Claude Code sends it so for its
		// general-purpose agent): present, as a string, all the same.
		id, typ := s.ID, s.Type
		w.AgentID, w.AgentType, w.ParentToolUseID = &id, &typ, strOrNil(s.ParentToolUseID)
	}
	w.Context = wireContext{
		ToolName: w.ToolName, ToolRuntimeName: w.ToolRuntimeName, ToolInput: w.ToolInput,
		ToolOutput: w.ToolOutput, Message: w.Message, SessionID: w.SessionID,
		Transcript: w.Transcript, Data: w.Data,
		AgentID: w.AgentID, AgentType: w.AgentType, ParentToolUseID: w.ParentToolUseID,
	}
	b, err := json.Marshal(w)
	if err != nil {
		// Only an invalid RawMessage gets here; send it as a string so
		// the event still goes out.
		w.ToolInput, _ = json.Marshal(string(ev.ToolInput))
		w.Context.ToolInput = w.ToolInput
		b, _ = json.Marshal(w)
	}
	return b
}

func strOrNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nullIfEmpty(r json.RawMessage) json.RawMessage {
	if IsNull(r) {
		return nil
	}
	return r
}

// CutUTF8 cuts s to at most n bytes without splitting a character.
func CutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// IsNull reports whether raw is absent or the JSON null.
func IsNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}
