package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/claude"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/mcp"
)

// Headless output in Claude Code's shapes, so that scripts written for
// `claude -p --output-format stream-json|json` read synaps unchanged.
//
// A stream is one JSON object per line: a `system`/`init` line first;
// an `assistant` line per model message and a `user` line per tool
// result, both carrying Anthropic-shaped `message` objects; and a
// `result` line that ends each prompt. synaps's own events (text as it
// streams, tool_start and tool_end with the hooks' decisions, retries,
// notices, injects) are further lines with their own `type`s, which a
// Claude consumer skips.

// resultRun accumulates what one prompt's result line reports.
type resultRun struct {
	start    time.Time
	apiStart time.Time     // when the model request in flight began
	api      time.Duration // time spent waiting for the model
	turns    int           // model requests answered
	usage    llm.Usage
	denials  []map[string]any // tool calls refused: by the permission mode or rules, or by a hook
	calls    []*agent.ToolCall
}

func newResultRun(now time.Time) *resultRun {
	return &resultRun{start: now, apiStart: now}
}

// claudeStream writes a stream-json run. pending holds the assistant
// message until its turn_end brings the stop reason and usage.
type claudeStream struct {
	enc     *json.Encoder
	session string
	model   string
	run     *resultRun
	pending *llm.Message
	// kidPending is pending for each running subagent (by id): children
	// running side by side interleave their messages.
	kidPending map[string]*llm.Message
	now        func() time.Time
	// partial is --include-partial-messages: text and thinking as they
	// stream, as stream_event lines; parts is where the message is.
	partial bool
	parts   partialState
}

// parentToolUseID is Claude's parent_tool_use_id of an event's lines:
// the agent call that started the subagent it comes from, null for the
// main loop's.
func parentToolUseID(ev agent.Event) any {
	if ev.Subagent == nil {
		return nil
	}
	return ev.Subagent.ParentToolUseID
}

// event turns one agent event into the lines it stands for, and keeps
// the counts the result line needs.
func (s *claudeStream) event(ev agent.Event) {
	r := s.run
	if ev.Subagent != nil {
		s.kidEvent(ev)
		return
	}
	if s.partial && s.enc != nil {
		s.partialEvent(ev)
	}
	switch ev.Type {
	case agent.EventMessage:
		s.pending = ev.Message
		return
	case agent.EventTurnEnd:
		r.turns++
		r.api += s.now().Sub(r.apiStart)
		r.usage = r.usage.Add(ev.Usage)
		if s.pending != nil && s.enc != nil {
			s.enc.Encode(map[string]any{
				"type": "assistant", "uuid": claude.NewUUID(), "session_id": s.session, "parent_tool_use_id": nil,
				"message": anthropicMessage(s.pending, s.model, ev.StopReason, ev.Usage),
			})
		}
		s.pending = nil
		return
	case agent.EventToolEnd:
		r.calls = append(r.calls, ev.Tool)
		// As Claude Code's: every call its permission system denied (a
		// mode, a deny rule, an ask nobody could answer), and the
		// calls a hook blocked, which Claude reports the same way.
		if ev.Tool.Refused || ev.Tool.BlockedBy != "" {
			r.denials = append(r.denials, map[string]any{"tool_name": ev.Tool.Name, "tool_use_id": ev.Tool.ID, "tool_input": rawOrEmpty(ev.Tool.Input)})
		}
		if s.enc != nil {
			s.enc.Encode(map[string]any{
				"type": "user", "uuid": claude.NewUUID(), "session_id": s.session, "parent_tool_use_id": nil,
				"message": map[string]any{"role": "user", "content": []any{map[string]any{
					"type": "tool_result", "tool_use_id": ev.Tool.ID, "content": ev.Tool.Output, "is_error": ev.Tool.IsError,
				}}},
			})
		}
		// The next model request starts when the last tool is done.
		r.apiStart = s.now()
	}
	if s.enc != nil {
		s.enc.Encode(streamEvent(ev))
	}
}

// kidEvent writes a subagent's lines as Claude Code does: its assistant
// messages and tool results with parent_tool_use_id set to the agent
// call, and synaps's own event lines with the agent's id and type. What
// it spends counts in the result's usage and cost; its turns and calls
// are its own (not num_turns, tool_calls or permission_denials).
func (s *claudeStream) kidEvent(ev agent.Event) {
	id := ev.Subagent.ID
	switch ev.Type {
	case agent.EventMessage:
		if s.kidPending == nil {
			s.kidPending = map[string]*llm.Message{}
		}
		s.kidPending[id] = ev.Message
		return
	case agent.EventTurnEnd:
		s.run.usage = s.run.usage.Add(ev.Usage)
		if m := s.kidPending[id]; m != nil && s.enc != nil {
			s.enc.Encode(map[string]any{
				"type": "assistant", "uuid": claude.NewUUID(), "session_id": s.session, "parent_tool_use_id": parentToolUseID(ev),
				"message": anthropicMessage(m, s.model, ev.StopReason, ev.Usage),
			})
		}
		delete(s.kidPending, id)
		return
	case agent.EventToolEnd:
		if s.enc != nil {
			s.enc.Encode(map[string]any{
				"type": "user", "uuid": claude.NewUUID(), "session_id": s.session, "parent_tool_use_id": parentToolUseID(ev),
				"message": map[string]any{"role": "user", "content": []any{map[string]any{
					"type": "tool_result", "tool_use_id": ev.Tool.ID, "content": ev.Tool.Output, "is_error": ev.Tool.IsError,
				}}},
			})
		}
	case agent.EventSubagentEnd:
		delete(s.kidPending, id)
	}
	if s.enc != nil {
		s.enc.Encode(streamEvent(ev))
	}
}

// anthropicMessage is m as the Messages API returns it.
func anthropicMessage(m *llm.Message, model, stop string, u llm.Usage) map[string]any {
	content := make([]any, 0, len(m.Content))
	for _, b := range m.Content {
		switch b.Type {
		case llm.BlockText:
			content = append(content, map[string]any{"type": "text", "text": b.Text})
		case llm.BlockToolUse:
			content = append(content, map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": rawOrEmpty(b.Input)})
		case llm.BlockThinking:
			content = append(content, map[string]any{"type": "thinking", "thinking": b.Thinking, "signature": b.Signature})
		case llm.BlockRedactedThinking:
			content = append(content, map[string]any{"type": "redacted_thinking", "data": b.Data})
		}
	}
	return map[string]any{
		"id": "msg_" + claude.NewUUID()[:8], "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usageJSON(u),
	}
}

// usageJSON is usage in the Messages API's field names. Input tokens
// there exclude the cached parts, which have fields of their own.
func usageJSON(u llm.Usage) map[string]int {
	return map[string]int{
		"input_tokens":                max(u.InputTokens-u.CacheReadTokens-u.CacheWriteTokens, 0),
		"cache_creation_input_tokens": u.CacheWriteTokens,
		"cache_read_input_tokens":     u.CacheReadTokens,
		"output_tokens":               u.OutputTokens,
	}
}

// result is the object that ends a prompt, in Claude's fields, with
// synaps's own (model, error, tool_calls for json) beside them.
func (r *resultRun) result(now time.Time, session, model, answer string, err error, withCalls bool) map[string]any {
	subtype := "success"
	var deferred *agent.DeferredError
	if errors.As(err, &deferred) {
		// Not an error: the run stopped where a hook asked it to wait
		// (Claude Code's terminal_reason tool_deferred).
		err = nil
	}
	switch {
	case errors.Is(err, agent.ErrTurnLimit):
		subtype = "error_max_turns"
	case errors.As(err, new(errStructuredOutput)):
		subtype = "error_max_structured_output_retries"
	case isBudget(err):
		subtype = "error_max_budget_usd"
	case err != nil:
		subtype = "error_during_execution"
	}
	denials := r.denials
	if denials == nil {
		denials = []map[string]any{}
	}
	res := map[string]any{
		"type": "result", "subtype": subtype, "is_error": err != nil,
		"duration_ms": now.Sub(r.start).Milliseconds(), "duration_api_ms": r.api.Milliseconds(),
		"num_turns": r.turns, "result": answer, "session_id": session, "uuid": claude.NewUUID(),
		"total_cost_usd": r.usage.CostUSD, "usage": usageJSON(r.usage), "permission_denials": denials,
		"model": model,
	}
	if err != nil {
		res["error"] = err.Error()
		res["errors"] = []string{err.Error()}
	}
	if withCalls {
		res["tool_calls"] = toolCallsJSON(r.calls)
	}
	if deferred != nil && len(deferred.Uses) > 0 {
		u := deferred.Uses[0]
		res["terminal_reason"] = "tool_deferred"
		res["deferred_tool_use"] = map[string]any{"id": u.ID, "name": claude.ClaudeName(u.Name), "input": u.Input}
	}
	return res
}

// systemInit is the first line of a stream: what the run has to work with.
func systemInit(session, model, cwd, version, mode string, tools, slash []string, mcpServers []map[string]string) map[string]any {
	if tools == nil {
		tools = []string{}
	}
	if mcpServers == nil {
		mcpServers = []map[string]string{}
	}
	if slash == nil {
		slash = []string{}
	}
	if mode == "" {
		mode = "default"
	}
	return map[string]any{
		"type": "system", "subtype": "init", "uuid": claude.NewUUID(), "session_id": session,
		"cwd": cwd, "model": model, "tools": tools, "mcp_servers": mcpServers,
		"permissionMode": mode, "slash_commands": slash, "apiKeySource": "none",
		"synaps_version": version,
	}
}

func rawOrEmpty(b []byte) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("{}")
	}
	return json.RawMessage(b)
}

// streamInput reads `--input-format stream-json`: one user message per
// line, {"type":"user","message":{"role":"user","content":…}} where
// content is a string or a list of blocks; the text blocks are the
// prompt. A line that is not such a message is an error naming its
// number.
type streamInput struct {
	dec  *json.Decoder
	line int
}

func (in *streamInput) next() (string, error) {
	var m struct {
		Type    string `json:"type"`
		Message *struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	in.line++
	if err := in.dec.Decode(&m); err != nil {
		if err == io.EOF {
			return "", io.EOF
		}
		return "", fmt.Errorf("--input-format stream-json: message %d: %v; each line must be {\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"…\"}}", in.line, err)
	}
	if m.Type == "control_request" {
		// The Claude Agent SDK's first line: its control protocol
		// (initialize, permission callbacks) is not one synaps speaks.
		return "", fmt.Errorf("--input-format stream-json: message %d is a control_request, from the Claude Agent SDK's control protocol, which synaps does not speak; send plain user messages ({\"type\":\"user\",\"message\":{…}}) or drive synaps with synaps rpc (docs/rpc.md)", in.line)
	}
	if m.Type != "user" || m.Message == nil {
		return "", fmt.Errorf("--input-format stream-json: message %d has type %q; only {\"type\":\"user\",\"message\":{…}} is read", in.line, m.Type)
	}
	var s string
	if json.Unmarshal(m.Message.Content, &s) == nil {
		return s, nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(m.Message.Content, &blocks); err != nil {
		return "", fmt.Errorf("--input-format stream-json: message %d: content must be a string or a list of blocks", in.line)
	}
	for _, b := range blocks {
		if b.Type != "text" {
			return "", fmt.Errorf("--input-format stream-json: message %d: a %q block; synaps reads text blocks here", in.line, b.Type)
		}
		s += b.Text
	}
	return s, nil
}

// mcpServersJSON is the init line's mcp_servers in Claude Code's shape:
// name and status (connected, failed, pending, disabled).
func mcpServersJSON(sts []mcp.Status) []map[string]string {
	out := []map[string]string{}
	for _, st := range sts {
		status := "pending"
		switch st.State {
		case mcp.StateReady:
			status = "connected"
		case mcp.StateFailed:
			status = "failed"
		case mcp.StateDisabled:
			status = "disabled"
		}
		out = append(out, map[string]string{"name": st.Name, "status": status})
	}
	return out
}

// isBudget reports whether --max-budget-usd stopped the run.
func isBudget(err error) bool {
	var l *agent.LimitError
	return errors.As(err, &l) && l.Flag == "--max-budget-usd"
}
