package conformance

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// SampleEvent is a plausible event for a subscription: a bash call that
// satisfies its matcher for tool hooks, a short message for the others.
func SampleEvent(s hook.Subscription) *hook.Event {
	ev := &hook.Event{Kind: s.Hook, SessionID: "extensions-test"}
	switch s.Hook {
	case contract.HookBeforeToolCall, contract.HookAfterToolCall, contract.HookOnPermissionRequest, contract.HookOnPermissionDenied:
		name := "bash"
		if s.Tool != "" {
			name = s.Tool
		}
		input := json.RawMessage(`{"command":"echo synaps-test"}`)
		if s.Match != nil {
			switch {
			case s.Match.InputEquals != nil:
				input = s.Match.InputEquals
			case s.Match.InputContains != nil:
				b, _ := json.Marshal(map[string]string{"command": *s.Match.InputContains})
				input = b
			}
		}
		ev.ToolName, ev.ToolRuntimeName, ev.ToolInput = name, name, input
		if s.Hook == contract.HookAfterToolCall {
			out := "synaps-test\n"
			ev.ToolOutput = &out
		}
		switch s.Hook {
		case contract.HookOnPermissionRequest:
			ev.Data = json.RawMessage(`{"reason":"the permission mode asks before bash runs"}`)
		case contract.HookOnPermissionDenied:
			ev.Data = json.RawMessage(`{"reason":"The user declined to run bash."}`)
		}
	case contract.HookBeforeMessage:
		msg := "hello from synaps extensions test"
		ev.Message = &msg
	case contract.HookOnMessageComplete:
		msg := "Hello!"
		ev.Message = &msg
		ev.Data = json.RawMessage(`{"content_block_count":1,"has_tool_use":false,"stop_hook_active":false,"context_management":{"enabled":false}}`)
	case contract.HookOnSubagentComplete:
		msg := "Done: the tests pass."
		ev.Message = &msg
		ev.Data = json.RawMessage(`{"description":"run the tests","stop_hook_active":false}`)
		ev.Subagent = &hook.Subagent{ID: "a0123456789abcdef", Type: "general-purpose", ParentToolUseID: "toolu_extensions_test"}
	case contract.HookOnCompaction:
		summary := "The user asked for a greeting; it was given."
		ev.Message = &summary
		ev.Data = json.RawMessage(`{"old_session_id":"old","new_session_id":"extensions-test","message_count":4,"source":"manual"}`)
	case contract.HookOnNotification:
		msg := "synaps needs your permission to use bash"
		ev.Message = &msg
		ev.Data = json.RawMessage(`{"notification_type":"permission_prompt","title":"synaps"}`)
	case contract.HookAfterToolBatch:
		ev.Data = json.RawMessage(`{"tool_calls":[{"tool_name":"bash","tool_runtime_name":"bash","tool_input":{"command":"echo synaps-test"},"tool_use_id":"toolu_extensions_test","tool_output":"synaps-test\n","is_error":false}]}`)
	case contract.HookOnSubagentStart:
		msg := "Run the tests and report failures."
		ev.Message = &msg
		ev.Data = json.RawMessage(`{"description":"run the tests"}`)
		ev.Subagent = &hook.Subagent{ID: "a0123456789abcdef", Type: "general-purpose", ParentToolUseID: "toolu_extensions_test"}
	case contract.HookOnStopFailure:
		msg := ""
		ev.Message = &msg
		ev.Data = json.RawMessage(`{"error":"overloaded","error_details":"anthropic API error 529 overloaded_error: Overloaded"}`)
	case contract.HookOnPromptExpansion:
		msg := "Commit the staged changes."
		ev.Message = &msg
		ev.Data = json.RawMessage(`{"expansion_type":"slash_command","command_name":"commit","command_args":"","command_source":"userSettings","prompt":"/commit"}`)
	case contract.HookOnConfigChange:
		ev.Data = json.RawMessage(`{"source":"user_settings","file_path":"/home/user/.claude/settings.json"}`)
	case contract.HookBeforeModelSwitch, contract.HookAfterModelSwitch:
		ev.Data = json.RawMessage(`{"from_model":"script:a.jsonl","to_model":"script:b.jsonl","requested_model":"script:b.jsonl","source":"command","context_tokens":120}`)
	case contract.HookOnTaskCreated, contract.HookOnTaskCompleted:
		ev.Data = json.RawMessage(`{"task_id":"1","task_subject":"Run the tests","task_description":"Running the tests","status":"pending"}`)
	case contract.HookOnInstructionsLoaded:
		ev.Data = json.RawMessage(`{"file_path":"/project/AGENTS.md","memory_type":"Project","load_reason":"session_start"}`)
	case contract.HookOnSessionEnd:
		ev.Transcript = json.RawMessage(`[{"role":"user","content":[{"type":"text","text":"hi"}]}]`)
	}
	return ev
}

// riskyCommand is the second sample a bash guard is sent: a guard answers
// the harmless sample with continue, and only a call it guards against
// shows whether its block is spelt right ("blok" is treated as continue,
// so the call would run).
const riskyCommand = "rm -rf build"

// SampleEvents are the events a subscription is sent: SampleEvent and,
// for a before_tool_call guard of bash with no input matcher, the same
// call with riskyCommand.
func SampleEvents(s hook.Subscription) []*hook.Event {
	evs := []*hook.Event{SampleEvent(s)}
	if s.Hook == contract.HookBeforeToolCall && (s.Tool == "" || s.Tool == "bash") && s.Match == nil {
		risky := SampleEvent(s)
		risky.ToolInput = json.RawMessage(`{"command":"` + riskyCommand + `"}`)
		evs = append(evs, risky)
	}
	return evs
}

// SampleInput builds an input that satisfies a JSON Schema's common
// keywords: required properties with values of their type (a default,
// const or first enum value when given).
func SampleInput(schema json.RawMessage) json.RawMessage {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil {
		return json.RawMessage("{}")
	}
	v := sampleValue(s, 0)
	if _, ok := v.(map[string]any); !ok {
		v = map[string]any{}
	}
	b, _ := json.Marshal(v)
	return b
}

func sampleValue(s map[string]any, depth int) any {
	if d, ok := s["default"]; ok {
		return d
	}
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	typ, _ := s["type"].(string)
	if ts, ok := s["type"].([]any); ok && len(ts) > 0 {
		typ, _ = ts[0].(string)
	}
	if typ == "" {
		if _, ok := s["properties"]; ok {
			typ = "object"
		}
	}
	switch typ {
	case "object":
		out := map[string]any{}
		if depth > 5 {
			return out
		}
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]any)
		names := make([]string, 0, len(req))
		for _, r := range req {
			if n, ok := r.(string); ok {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			ps, _ := props[n].(map[string]any)
			out[n] = sampleValue(ps, depth+1)
		}
		return out
	case "array":
		items, _ := s["items"].(map[string]any)
		n := 0
		if mi, ok := s["minItems"].(float64); ok {
			n = int(mi)
		}
		arr := make([]any, 0, n)
		for i := 0; i < n; i++ {
			arr = append(arr, sampleValue(items, depth+1))
		}
		return arr
	case "integer", "number":
		if mn, ok := s["minimum"].(float64); ok {
			return mn
		}
		return 1
	case "boolean":
		return true
	case "null":
		return nil
	default:
		if mn, ok := s["minLength"].(float64); ok && mn > 4 {
			return strings.Repeat("x", int(mn))
		}
		return "test"
	}
}
