package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/tool"
)

// The moments of Claude Code's newer hook events, each a hook of synaps's
// own protocol (contract.Hooks), fired here so that the agent's loop
// reads as it did: one call at each moment.

// permissionRequest fires on_permission_request for a call that needs
// the user's permission (why: the permission's reason), before the
// question — or, with nobody to ask, before the refusal. A block denies
// the call unasked (refusal, by); granted: a link answered the question
// with allow (a Claude PermissionRequest hook's behavior "allow");
// input: the input a link wrote instead (updatedInput), nil for none.
// The permission changes a granting link asked for (updatedPermissions)
// are applied here.
func (a *Agent) permissionRequest(ctx context.Context, spec tool.Spec, input json.RawMessage, why string) (refusal, by string, granted bool, newInput json.RawMessage) {
	if a.cfg.Hooks == nil {
		return "", "", false, nil
	}
	data, _ := json.Marshal(map[string]string{"reason": why})
	d := a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookOnPermissionRequest, ToolName: spec.Name, ToolRuntimeName: spec.RuntimeName,
		ToolInput: input, SessionID: a.cfg.Session.ID, Data: data, ToolUse: hook.ToolUseOf(ctx)})
	switch {
	case d.Stopped:
		// Denied, and the turn ends here (Claude Code's deny with
		// interrupt, or continue:false).
		a.stop.set(d.StoppedBy, d.StopReason)
		return fmt.Sprintf("not run: %s stopped the turn: %s", d.StoppedBy, d.StopReason), d.StoppedBy, false, nil
	case d.Blocked:
		return d.Reason, d.BlockedBy, false, nil
	}
	if d.AllowedBy != "" {
		a.applyPermissionUpdates(d.Permissions)
	}
	return "", "", d.AllowedBy != "", d.Input
}

// permissionDenied fires on_permission_denied once a call was refused by
// the permission rules, the mode or the user (reason: the refusal the
// model gets). The refusal stands; what links inject is added to it
// (Claude Code's PermissionDenied retry: the model is told it may try
// the call again).
func (a *Agent) permissionDenied(ctx context.Context, spec tool.Spec, input json.RawMessage, reason string) (inject string) {
	if a.cfg.Hooks == nil || reason == "" {
		return ""
	}
	data, _ := json.Marshal(map[string]string{"reason": reason})
	d := a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookOnPermissionDenied, ToolName: spec.Name, ToolRuntimeName: spec.RuntimeName,
		ToolInput: input, SessionID: a.cfg.Session.ID, Data: data, ToolUse: hook.ToolUseOf(ctx)})
	a.emitInjects(d, "tool result")
	return d.InjectText()
}

// BatchCall is one call of a batch in after_tool_batch's data.
type BatchCall struct {
	ToolName        string          `json:"tool_name"`
	ToolRuntimeName string          `json:"tool_runtime_name"`
	ToolInput       json.RawMessage `json:"tool_input"`
	ToolUseID       string          `json:"tool_use_id"`
	ToolOutput      string          `json:"tool_output"`
	IsError         bool            `json:"is_error"`
}

// toolBatch fires after_tool_batch once every call of one model message
// has its result, before the next request. Outputs are cut as a tool
// hook's are (contract.MaxToolOutputHook). What links inject goes with
// the results, for the next request (Claude Code's PostToolBatch
// additionalContext): the blocks to add.
func (a *Agent) toolBatch(ctx context.Context, calls, results []llm.Block) []llm.Block {
	if len(calls) == 0 || !a.heard(contract.HookAfterToolBatch) {
		return nil // nobody listens: the outputs are not copied for nothing
	}
	out := make([]BatchCall, 0, len(calls))
	for i, c := range calls {
		bc := BatchCall{ToolName: c.Name, ToolRuntimeName: c.Name, ToolInput: c.Input, ToolUseID: c.ID}
		if _, spec, ok := a.lookupTool(c.Name); ok {
			bc.ToolRuntimeName = spec.RuntimeName
		}
		if len(bc.ToolInput) == 0 {
			bc.ToolInput = json.RawMessage("{}")
		}
		if i < len(results) {
			bc.ToolOutput = hook.CutUTF8(results[i].Content, contract.MaxToolOutputHook)
			bc.IsError = results[i].IsError
		}
		out = append(out, bc)
	}
	data, err := json.Marshal(map[string]any{"tool_calls": out})
	if err != nil {
		return nil // an input that is not JSON: the model's own, already refused
	}
	d := a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookAfterToolBatch, SessionID: a.cfg.Session.ID, Data: data})
	inject := d.InjectText()
	if inject == "" {
		return nil
	}
	a.emitInjects(d, "user")
	return []llm.Block{{Type: llm.BlockText, Text: inject, Inject: true}}
}

// stopFailure fires on_stop_failure when the turn ends on a model API
// error (err), with the answer streamed so far (else the error, as the
// user saw it); the main loop only (a
// subagent's error is its tool call's result).
func (a *Agent) stopFailure(ctx context.Context, err error, partial string) {
	if a.cfg.Hooks == nil || err == nil || a.child != nil {
		return
	}
	if partial == "" {
		// As Claude Code's last_assistant_message: the error the user saw.
		partial = "API Error: " + err.Error()
	}
	data, _ := json.Marshal(map[string]string{"error": ErrorType(err), "error_details": err.Error()})
	a.cfg.Hooks.RunHook(context.WithoutCancel(ctx), hook.Event{Kind: contract.HookOnStopFailure, SessionID: a.cfg.Session.ID, Message: &partial, Data: data})
}

// subagentStart fires on_subagent_start before a child's first request;
// what links inject joins the child's system prompt.
func (a *Agent) subagentStart(ctx context.Context, sub *hook.Subagent, description, prompt string) string {
	if a.cfg.Hooks == nil {
		return ""
	}
	data, _ := json.Marshal(map[string]string{"description": description})
	d := a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookOnSubagentStart, SessionID: a.cfg.Session.ID, Message: &prompt, Data: data, Subagent: sub})
	a.emitInjects(d, "system")
	return d.InjectText()
}

// ErrorType names a model error in Claude Code's words (StopFailure's
// error, which its matchers test): rate_limit, overloaded,
// authentication_failed, billing_error, invalid_request, model_not_found,
// server_error, else unknown.
func ErrorType(err error) string {
	var api *llm.APIError
	if !errors.As(err, &api) {
		return "unknown"
	}
	switch {
	case api.Status == 429 || api.Type == "rate_limit_error":
		return "rate_limit"
	case api.Status == 529 || api.Type == "overloaded_error":
		return "overloaded"
	case api.Status == 401 || api.Status == 403 || api.Type == "authentication_error" || api.Type == "permission_error":
		return "authentication_failed"
	case api.Status == 402 || api.Type == "billing_error":
		return "billing_error"
	case api.Status == 404 || api.Type == "not_found_error":
		return "model_not_found"
	case api.Status == 400 || api.Status == 413 || api.Type == "invalid_request_error":
		return "invalid_request"
	case api.Status >= 500:
		return "server_error"
	}
	return "unknown"
}

// Instructions is an instructions file read into the system prompt.
type Instructions struct {
	// Path is the file (AGENTS.md, else CLAUDE.md).
	Path string
	// Scope is Claude Code's memory_type: "User" (the base directory's)
	// or "Project".
	Scope string
}

// instructionsLoaded fires on_instructions_loaded for each instructions
// file of the system prompt, at session start (source: on_session_start's,
// Claude's load_reason "session_start", or "compact" after a compaction).
func (a *Agent) instructionsLoaded(ctx context.Context, source string) {
	reason := "session_start"
	if source == "compact" {
		reason = "compact"
	}
	for _, f := range a.cfg.Instructions {
		data, _ := json.Marshal(map[string]string{"file_path": f.Path, "memory_type": f.Scope, "load_reason": reason})
		a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookOnInstructionsLoaded, SessionID: a.cfg.Session.ID, Data: data})
	}
}

// subscriber is the part of Hooks that says whether a hook has links
// (*extension.Host has it), so that an event nobody hears is not built.
type subscriber interface {
	Subscribed(kind string) bool
}

// heard reports whether kind may have links: true unless the Hooks can
// say it has none.
func (a *Agent) heard(kind string) bool {
	if a.cfg.Hooks == nil {
		return false
	}
	s, ok := a.cfg.Hooks.(subscriber)
	return !ok || s.Subscribed(kind)
}
