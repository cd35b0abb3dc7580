package hook

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/spelling"
)

// ErrUnknownAction is an action name this runtime does not know; the
// dispatcher logs it and continues, as for any action the hook does not
// allow.
var ErrUnknownAction = errors.New("unknown action")

// UnknownActionError is ErrUnknownAction with the name the handler wrote,
// so the dispatcher can tell the user which name, and what it might have
// meant (NearestAction).
type UnknownActionError struct {
	// Action is the name as read: lower case, without surrounding spaces.
	Action string
}

func (e *UnknownActionError) Error() string {
	return fmt.Sprintf("%v %q (known: continue, allow, block, confirm, modify, replace, inject, stop, context_phase)", ErrUnknownAction, e.Action)
}

// Is makes errors.Is(err, ErrUnknownAction) hold.
func (e *UnknownActionError) Is(target error) bool { return target == ErrUnknownAction }

// NearestAction is the action the hook allows that name is most likely a
// misspelling of ("blok" → block), or "" when none is close. A misspelt
// action is treated as continue, which lets a guarded call run, so the
// user is told what was probably meant.
func NearestAction(name string, spec contract.HookSpec) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if len(name) > 32 {
		// No action name is near that long; the distance table would be.
		return ""
	}
	best, bestD := "", 3
	if len(name) < 6 {
		bestD = 2
	}
	for _, a := range append([]contract.Action{contract.ActionContinue}, spec.Actions...) {
		if d := spelling.Distance(name, string(a)); d < bestD {
			best, bestD = string(a), d
		}
	}
	return best
}

// ErrMalformedModify is a modify result without an object "input".
var ErrMalformedModify = errors.New(`modify needs "input": a JSON object with the new tool input`)

// Result is one handler's answer, normalised.
type Result struct {
	Action  contract.Action
	Reason  string          // block
	Message string          // confirm
	Input   json.RawMessage // modify: the new tool input, a JSON object
	Output  *string         // replace
	Content string          // inject
	// Phase is a context_phase report's phase ("new_task", …): advisory.
	Phase string
	// Grant: the link answers the permission question for this input —
	// Claude Code's permissionDecision "allow", which runs a call the
	// permission mode would ask about. Extensions cannot grant ("allow"
	// on the wire means no objection); deny rules and plan mode still win.
	Grant bool
	// Context is text for the model after a tool's result (any
	// before_tool_call or after_tool_call answer may carry it): Claude
	// Code's additionalContext. The agent adds it to the result, framed and
	// attributed.
	Context string
	// Defer, on a confirm, is Claude Code's PreToolUse "defer": a
	// headless run ends before the call, resumable from it; elsewhere
	// it is the confirm.
	Defer bool
	// Permissions, with a Grant on on_permission_request, are changes to
	// the session's permissions (Claude Code's updatedPermissions).
	Permissions []PermissionUpdate
}

// DecodeResult reads a hook.handle result (the extension protocol's wire form) tolerantly: {} , null,
// {"action":"continue"} and {"action":"allow"} all continue. Every action
// of both dialects is understood; the allowed-for-this-hook check is the
// dispatcher's. A modify without an object input is an error, which the
// dispatcher turns into a block: a malformed rewrite never lets the
// original run silently.
func DecodeResult(raw json.RawMessage) (Result, error) {
	if IsNull(raw) {
		return Result{Action: contract.ActionContinue}, nil
	}
	var r struct {
		Action  *string         `json:"action"`
		Reason  *string         `json:"reason"`
		Message *string         `json:"message"`
		Input   json.RawMessage `json:"input"`
		Output  json.RawMessage `json:"output"`
		Content json.RawMessage `json:"content"`
		Context *string         `json:"context"`
		Phase   json.RawMessage `json:"phase"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return Result{}, fmt.Errorf("hook result is not a JSON object: %s", truncate(string(raw), 120))
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
	if action == string(contract.ActionContextPhase) {
		return decodeContextPhase(r.Phase)
	}
	res, err := decodeAction(action, r.Reason, r.Message, r.Input, r.Output, r.Content, text)
	if err == nil && r.Context != nil {
		res.Context = *r.Context
	}
	return res, err
}

func decodeAction(action string, reasonP, messageP *string, input, output, content json.RawMessage, text func(*string) string) (Result, error) {
	switch action {
	case "", "continue", "allow":
		return Result{Action: contract.ActionContinue}, nil
	case "stop":
		reason := cmp.Or(text(reasonP), text(messageP), "no reason given")
		return Result{Action: contract.ActionStop, Reason: reason}, nil
	case "block", "deny":
		reason := cmp.Or(text(reasonP), text(messageP), "no reason given")
		return Result{Action: contract.ActionBlock, Reason: reason}, nil
	case "confirm", "ask":
		msg := cmp.Or(text(messageP), text(reasonP), "an extension asks for confirmation")
		res := Result{Action: contract.ActionConfirm, Message: msg}
		// A confirm may carry a new input: the user is asked about it,
		// and it is what runs (Claude's updatedInput with ask).
		if len(input) > 0 && !IsNull(input) {
			var obj map[string]json.RawMessage
			if json.Unmarshal(input, &obj) != nil || obj == nil {
				return Result{}, ErrMalformedModify
			}
			res.Input = input
		}
		return res, nil
	case "modify":
		var obj map[string]json.RawMessage
		if len(input) == 0 || json.Unmarshal(input, &obj) != nil || obj == nil {
			return Result{}, ErrMalformedModify
		}
		return Result{Action: contract.ActionModify, Input: input}, nil
	case "replace":
		out, err := TextOf(output)
		if err != nil {
			return Result{}, fmt.Errorf(`replace needs "output": the new tool output as a string`)
		}
		return Result{Action: contract.ActionReplace, Output: &out}, nil
	case "inject":
		content, err := TextOf(content)
		if err != nil || content == "" {
			return Result{}, fmt.Errorf(`inject needs "content": the text to add`)
		}
		return Result{Action: contract.ActionInject, Content: content}, nil
	default:
		return Result{}, &UnknownActionError{Action: action}
	}
}

// decodeContextPhase reads a context_phase answer: its phase must be a
// non-empty string.
func decodeContextPhase(raw json.RawMessage) (Result, error) {
	var phase string
	if json.Unmarshal(raw, &phase) != nil || strings.TrimSpace(phase) == "" {
		return Result{}, fmt.Errorf(`context_phase needs "phase": the phase as a non-empty string, such as "new_task"`)
	}
	return Result{Action: contract.ActionContextPhase, Phase: phase}, nil
}

// TextOf reads a text value of the wire (a replace output, an inject
// content, a tool.call or provider.complete result): a string, or text
// blocks [{type:"text",text}] joined by newlines.
func TextOf(raw json.RawMessage) (string, error) {
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

// truncate cuts s to n bytes for an error message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
