package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// Newer holds what the payloads of Claude Code's newer events carry
// (fields from Claude Code 2.1.332's own hook input schema); Event embeds
// it.
type Newer struct {
	// PermissionDenied: why the call was refused.
	DenyReason string
	// PostToolBatch: the calls of the batch, in Claude's shapes.
	ToolCalls []BatchCall
	// PostCompact: the summary the compaction wrote.
	CompactSummary string
	// StopFailure: Claude's error type ("rate_limit") and the error's text.
	ErrorType, ErrorDetails string
	// UserPromptExpansion.
	ExpansionType, CommandName, CommandArgs, CommandSource string
	// InstructionsLoaded.
	FilePath, MemoryType, LoadReason string
	// PreModelSwitch and PostModelSwitch.
	FromModel, ToModel, RequestedModel, SwitchSource string
	ContextTokens                                    int
	// TaskCreated and TaskCompleted: the todo list's task (its 1-based
	// place in the list, its content, its activeForm).
	TaskID, TaskSubject, TaskDescription string
	// ConfigChange: which settings changed (user_settings,
	// project_settings, local_settings); FilePath is the file.
	ConfigSource string
}

// BatchCall is one call of a PostToolBatch payload's tool_calls.
type BatchCall struct {
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolUseID    string          `json:"tool_use_id"`
	ToolResponse any             `json:"tool_response,omitempty"`
}

// newerMatch is MatchValue for the newer events: the catalog names the
// payload field their matchers test.
func (e *Event) newerMatch() (string, bool) {
	spec, ok := LookupEvent(e.Name)
	if !ok || spec.Matcher == "" {
		return "", false
	}
	switch spec.Matcher {
	case "tool_name":
		return e.ToolName, true
	case "agent_type":
		return e.AgentType, true
	case "trigger":
		return e.Trigger, true
	case "error":
		return e.ErrorType, true
	case "command_name":
		return e.CommandName, true
	case "load_reason":
		return e.LoadReason, true
	case "to_model":
		return e.ToModel, true
	case "source":
		return e.ConfigSource, true
	}
	return "", true
}

// newerPayload writes the payload of a newer event after the fields every
// event starts with (session_id, transcript_path, cwd), in Claude Code's
// order: prompt_id, permission_mode, agent_id/agent_type, effort, then
// hook_event_name and the event's own fields.
func (e *Event) newerPayload(f fields) fields {
	s := e.Session
	// Which of the common fields each event carries, as Claude Code
	// 2.1.332 sent them (captured; docs/claude.md): the mode on the
	// events of a turn's loop, the effort on those the model's loop
	// fires, none of the turn's before the first prompt.
	var withMode, withEffort, withTurn bool
	switch e.Name {
	case "UserPromptExpansion":
		withTurn, withMode = true, true
	case "PermissionRequest", "PermissionDenied", "PostToolBatch":
		withTurn, withMode, withEffort = true, true, true
	case "StopFailure":
		withTurn, withEffort = true, true
	case "SubagentStart", "PostCompact", "PreModelSwitch", "PostModelSwitch", "TaskCreated", "TaskCompleted":
		withTurn = true
	case "InstructionsLoaded":
		withTurn = e.LoadReason != "session_start"
	}
	if withTurn && s.PromptID != "" {
		f = append(f, field{"prompt_id", s.PromptID})
	}
	if withMode && s.PermissionMode != "" {
		f = append(f, field{"permission_mode", s.PermissionMode})
	}
	if e.AgentID != "" {
		// SubagentStart names the subagent here too, before the event's
		// name, as every event from inside one does.
		f = append(f, field{"agent_id", e.AgentID}, field{"agent_type", e.AgentType})
	}
	if withEffort && s.Effort != "" {
		f = append(f, field{"effort", map[string]string{"level": s.Effort}})
	}
	f = append(f, field{"hook_event_name", e.Name})
	input := e.ToolInput
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	switch e.Name {
	case "PermissionRequest":
		f = append(f, field{"tool_name", e.ToolName}, field{"tool_input", input})
	case "PermissionDenied":
		f = append(f, field{"tool_name", e.ToolName}, field{"tool_input", input}, field{"tool_use_id", e.ToolUseID}, field{"reason", e.DenyReason})
	case "PostToolBatch":
		calls := e.ToolCalls
		if calls == nil {
			calls = []BatchCall{}
		}
		f = append(f, field{"tool_calls", calls})
	case "PostCompact":
		f = append(f, field{"trigger", e.Trigger}, field{"compact_summary", e.CompactSummary})
	case "StopFailure":
		f = append(f, field{"error", e.ErrorType}, field{"error_details", e.ErrorDetails}, field{"last_assistant_message", e.LastAssistantMessage})
	case "UserPromptExpansion":
		f = append(f, field{"expansion_type", e.ExpansionType}, field{"command_name", e.CommandName}, field{"command_args", e.CommandArgs},
			field{"command_source", e.CommandSource}, field{"prompt", e.Prompt})
	case "InstructionsLoaded":
		f = append(f, field{"file_path", e.FilePath}, field{"memory_type", e.MemoryType}, field{"load_reason", e.LoadReason})
	case "PreModelSwitch", "PostModelSwitch":
		// The cache and price fields are what synaps can say: a switch
		// starts the new model's prompt cache cold; the cost of writing
		// it is not estimated (0, pricing "default").
		f = append(f, field{"from_model", e.FromModel}, field{"to_model", e.ToModel}, field{"requested_model", e.RequestedModel},
			field{"source", e.SwitchSource}, field{"context_tokens", e.ContextTokens}, field{"prompt_cache_warm", false},
			field{"cache_ttl", "5m"}, field{"estimated_cache_write_usd", 0}, field{"pricing", "default"})
	case "ConfigChange":
		f = append(f, field{"source", e.ConfigSource}, field{"file_path", e.FilePath})
	case "TaskCreated", "TaskCompleted":
		// synaps has no agent teams: teammate_name and team_name, which
		// Claude Code sends only for a team's tasks, are left out.
		f = append(f, field{"task_id", e.TaskID}, field{"task_subject", e.TaskSubject}, field{"task_description", e.TaskDescription})
	}
	return f
}

// newerEvent fills a newer event's matcher values from the synaps event
// (the rest waits for completeNewer, once a hook is to run).
func newerEvent(hookName string, e *Event, ev *hook.Event) {
	var d struct {
		Reason     string `json:"reason"`
		Error      string `json:"error"`
		Details    string `json:"error_details"`
		Expansion  string `json:"expansion_type"`
		Name       string `json:"command_name"`
		Args       string `json:"command_args"`
		Source     string `json:"command_source"`
		Prompt     string `json:"prompt"`
		FilePath   string `json:"file_path"`
		MemoryType string `json:"memory_type"`
		LoadReason string `json:"load_reason"`
		From       string `json:"from_model"`
		To         string `json:"to_model"`
		Requested  string `json:"requested_model"`
		SwitchFrom string `json:"source"`
		Tokens     int    `json:"context_tokens"`
		TaskID     string `json:"task_id"`
		Subject    string `json:"task_subject"`
		TaskDesc   string `json:"task_description"`
	}
	_ = json.Unmarshal(ev.Data, &d)
	switch hookName {
	case contract.HookOnPermissionRequest, contract.HookOnPermissionDenied:
		e.ToolName = ClaudeName(ev.ToolRuntimeName)
		e.DenyReason = d.Reason
	case contract.HookOnStopFailure:
		e.ErrorType, e.ErrorDetails = d.Error, d.Details
		if ev.Message != nil {
			e.LastAssistantMessage = *ev.Message
		}
	case contract.HookOnPromptExpansion:
		e.ExpansionType, e.CommandName, e.CommandArgs, e.CommandSource = d.Expansion, d.Name, d.Args, d.Source
		e.Prompt = d.Prompt // the line as typed, as Claude Code sends it
	case contract.HookOnInstructionsLoaded:
		e.FilePath, e.MemoryType, e.LoadReason = d.FilePath, d.MemoryType, d.LoadReason
	case contract.HookBeforeModelSwitch, contract.HookAfterModelSwitch:
		e.FromModel, e.ToModel, e.RequestedModel, e.SwitchSource, e.ContextTokens = d.From, d.To, d.Requested, d.SwitchFrom, d.Tokens
	case contract.HookOnTaskCreated, contract.HookOnTaskCompleted:
		e.TaskID, e.TaskSubject, e.TaskDescription = d.TaskID, d.Subject, d.TaskDesc
	case contract.HookOnConfigChange:
		e.ConfigSource, e.FilePath = d.SwitchFrom, d.FilePath
	}
}

// completeNewer adds what a newer event's payload carries beyond its
// matcher values.
func (l *Link) completeNewer(e *Event, ev *hook.Event) {
	switch e.Name {
	case "PermissionRequest", "PermissionDenied":
		e.ToolInput = ToClaudeInput(ev.ToolRuntimeName, ev.ToolInput, l.ProjectDir)
		if u := ev.ToolUse; u != nil {
			e.ToolUseID = u.ID
		}
	case "PostToolBatch":
		var d struct {
			Calls []struct {
				Runtime string          `json:"tool_runtime_name"`
				Input   json.RawMessage `json:"tool_input"`
				ID      string          `json:"tool_use_id"`
				Output  string          `json:"tool_output"`
			} `json:"tool_calls"`
		}
		_ = json.Unmarshal(ev.Data, &d)
		for _, c := range d.Calls {
			// tool_response is the result as the model reads it (Claude
			// Code sends the tool_result's content here, not
			// PostToolUse's per-tool shape).
			in := ToClaudeInput(c.Runtime, c.Input, l.ProjectDir)
			e.ToolCalls = append(e.ToolCalls, BatchCall{ToolName: ClaudeName(c.Runtime), ToolInput: in, ToolUseID: c.ID, ToolResponse: c.Output})
		}
	case "PostCompact":
		if ev.Message != nil {
			e.CompactSummary = *ev.Message
		}
	}
}

// newerOutcome reads the JSON answer of a hook of a newer event (so: its
// hookSpecificOutput or the top level).
func newerOutcome(e *Event, j *hookJSON, so hookSO, o *Outcome) {
	switch e.Name {
	case "PermissionRequest":
		// {"decision": {"behavior": "allow" | "deny", "message": …,
		// "updatedInput": …}}
		var d struct {
			Behavior           string          `json:"behavior"`
			Message            string          `json:"message"`
			Interrupt          bool            `json:"interrupt"`
			UpdatedInput       json.RawMessage `json:"updatedInput"`
			UpdatedPermissions []claudeUpdate  `json:"updatedPermissions"`
		}
		if len(so.PermissionRequestDecision) == 0 || json.Unmarshal(so.PermissionRequestDecision, &d) != nil {
			return
		}
		switch strings.ToLower(d.Behavior) {
		case "allow":
			o.Decision = Allow
			if len(d.UpdatedInput) > 0 && !isNull(d.UpdatedInput) {
				o.UpdatedInput = d.UpdatedInput
			}
			for _, u := range d.UpdatedPermissions {
				o.Permissions = append(o.Permissions, u.update())
			}
		case "deny":
			o.Decision, o.Reason = Block, d.Message
			if o.Reason == "" {
				o.Reason = fmt.Sprintf("PermissionRequest:%s hook denied the permission", e.ToolName)
			}
			if d.Interrupt {
				// Denied, and Claude stops: the turn ends.
				o.Stop, o.StopReason = true, o.Reason
			}
		}
	case "PermissionDenied":
		// Only retry is read (Claude Code reads no additionalContext
		// here): the model is told, with the refusal, that it may try
		// the call again.
		o.Context = ""
		if so.Retry {
			o.Context = fmt.Sprintf("A PermissionDenied hook says this %s call may be retried: you may make it again.", e.ToolName)
		}
	case "UserPromptExpansion", "TaskCreated", "TaskCompleted", "ConfigChange":
		if j.Decision == "block" {
			o.Decision, o.Reason = Block, j.Reason
		}
	case "PreModelSwitch":
		// permissionDecision "deny" keeps the model; "ask" has nobody
		// to ask in synaps's /model and is taken as a deny, said so.
		switch strings.ToLower(so.PermissionDecision) {
		case "deny":
			o.Decision, o.Reason = Block, so.PermissionDecisionReason
		case "ask":
			o.Decision, o.Reason = Block, "asks before the switch, and /model has no question to ask: "+so.PermissionDecisionReason
		}
		if o.Decision == Block && strings.TrimSpace(o.Reason) == "" {
			o.Reason = "PreModelSwitch hook denied the switch"
		}
	}
}

// newerExit2 is an exit 2 of a hook of a newer event: it denies a
// permission and blocks an expansion, as Claude Code's; elsewhere its
// stderr is for the user. handled is false for other events.
func newerExit2(e *Event, stderr string, o *Outcome) (handled bool) {
	switch e.Name {
	case "PermissionRequest":
		o.Decision, o.Reason = Block, fmt.Sprintf("PermissionRequest:%s hook denied the permission: %s", e.ToolName, stderr)
		return true
	case "UserPromptExpansion", "PreModelSwitch", "TaskCreated", "TaskCompleted", "ConfigChange":
		o.Decision, o.Reason = Block, stderr
		return true
	}
	return false
}

// compaction runs on_compaction's two Claude events: PreCompact, then
// PostCompact with the summary. synaps compacts first and fires after
// (docs/claude.md), so both see the compaction done; their answers are
// observed only.
func (l *Link) compaction(ctx context.Context, spec contract.HookSpec, ev *hook.Event) (hook.Result, error) {
	var errs []error
	for _, name := range hookEvents(spec.Name) {
		if _, err := l.handle(ctx, spec, ev, l.eventAs(name, spec.Name, ev)); err != nil {
			errs = append(errs, err)
		}
	}
	return hook.Result{Action: contract.ActionContinue}, errors.Join(errs...)
}
