package extension

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
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
	// Message is the user's message (before_message) or the assistant's
	// text (on_message_complete); nil elsewhere.
	Message    *string
	SessionID  string
	Transcript json.RawMessage // on_session_end
	Data       json.RawMessage // on_message_complete, on_compaction
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
	Context         wireContext     `json:"context"`
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
}

// encode builds the hook.handle params with tool output cut to the
// default 32 KiB.
func (ev *Event) encode() json.RawMessage { return ev.encodeLimit(contract.MaxToolOutputHook) }

// encodeLimit builds the hook.handle params. Tool output beyond limit bytes
// is cut to a prefix and a note of its full size.
func (ev *Event) encodeLimit(limit int) json.RawMessage {
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
			out = cutUTF8(out, limit) + fmt.Sprintf("…[truncated, %d total bytes]", len(*ev.ToolOutput))
		}
		w.ToolOutput = &out
	}
	w.Context = wireContext{
		ToolName: w.ToolName, ToolRuntimeName: w.ToolRuntimeName, ToolInput: w.ToolInput,
		ToolOutput: w.ToolOutput, Message: w.Message, SessionID: w.SessionID,
		Transcript: w.Transcript, Data: w.Data,
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
	if isNull(r) {
		return nil
	}
	return r
}

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// errUnknownAction is an action name this runtime does not know; the
// dispatcher logs it and continues, as for any action the hook does not
// allow.
var errUnknownAction = errors.New("unknown action")

// errMalformedModify is a modify result without an object "input".
var errMalformedModify = errors.New(`modify needs "input": a JSON object with the new tool input`)

// HookResult is one handler's answer, normalised.
type HookResult struct {
	Action  contract.Action
	Reason  string          // block
	Message string          // confirm
	Input   json.RawMessage // modify: the new tool input, a JSON object
	Output  *string         // replace
	Content string          // inject
}

// DecodeHookResult reads a hook.handle result tolerantly: {} , null,
// {"action":"continue"} and {"action":"allow"} all continue. Every action
// of both dialects is understood; the allowed-for-this-hook check is the
// dispatcher's. A modify without an object input is an error, which the
// dispatcher turns into a block: a malformed rewrite never lets the
// original run silently.
func DecodeHookResult(raw json.RawMessage) (HookResult, error) {
	if isNull(raw) {
		return HookResult{Action: contract.ActionContinue}, nil
	}
	var r struct {
		Action  *string         `json:"action"`
		Reason  *string         `json:"reason"`
		Message *string         `json:"message"`
		Input   json.RawMessage `json:"input"`
		Output  json.RawMessage `json:"output"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return HookResult{}, fmt.Errorf("hook result is not a JSON object: %s", truncate(string(raw), 120))
	}
	action := ""
	if r.Action != nil {
		action = strings.ToLower(strings.TrimSpace(*r.Action))
	}
	text := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	switch action {
	case "", "continue", "allow":
		return HookResult{Action: contract.ActionContinue}, nil
	case "block", "deny":
		reason := firstString(text(r.Reason), text(r.Message), "no reason given")
		return HookResult{Action: contract.ActionBlock, Reason: reason}, nil
	case "confirm", "ask":
		msg := firstString(text(r.Message), text(r.Reason), "an extension asks for confirmation")
		return HookResult{Action: contract.ActionConfirm, Message: msg}, nil
	case "modify":
		var obj map[string]json.RawMessage
		if len(r.Input) == 0 || json.Unmarshal(r.Input, &obj) != nil || obj == nil {
			return HookResult{}, errMalformedModify
		}
		return HookResult{Action: contract.ActionModify, Input: r.Input}, nil
	case "replace":
		out, err := textOf(r.Output)
		if err != nil {
			return HookResult{}, fmt.Errorf(`replace needs "output": the new tool output as a string`)
		}
		return HookResult{Action: contract.ActionReplace, Output: &out}, nil
	case "inject":
		content, err := textOf(r.Content)
		if err != nil || content == "" {
			return HookResult{}, fmt.Errorf(`inject needs "content": the text to add`)
		}
		return HookResult{Action: contract.ActionInject, Content: content}, nil
	default:
		return HookResult{}, fmt.Errorf("%w %q (known: continue, allow, block, confirm, modify, replace, inject)", errUnknownAction, action)
	}
}

// textOf reads a string, or text blocks [{type:"text",text}] joined by
// newlines.
func textOf(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &blocks); err != nil || len(blocks) == 0 {
		return "", fmt.Errorf("not text")
	}
	parts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		if b.Type == "text" || b.Type == "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n"), nil
}

func firstString(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
