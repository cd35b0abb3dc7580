package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/hook"
)

// Run is what a hook process did.
type Run struct {
	ExitCode int
	Stdout   string
	Stderr   string
	// StdoutCut and StderrCut count the bytes dropped past maxCapture.
	StdoutCut, StderrCut int64
	// TimedOut: the hook ran past its timeout and was killed.
	TimedOut bool
	Timeout  time.Duration
	// StartErr: the command could not be started at all.
	StartErr error
}

// Decision is what a hook decided about the event.
type Decision int

const (
	// Continue: no decision; the event goes on.
	Continue Decision = iota
	// Allow: an explicit yes (PreToolUse allow or legacy approve). Under
	// synaps's chain it is Continue that may also skip a permission ask.
	Allow
	// Block: PreToolUse deny or exit 2 (the tool does not run, Reason goes
	// to the model); UserPromptSubmit block (the prompt is not sent);
	// Stop block (the agent goes on with Reason as a new message).
	Block
	// Ask: PreToolUse ask or defer; the user confirms, Reason says why.
	Ask
)

func (d Decision) String() string {
	return [...]string{"continue", "allow", "block", "ask"}[d]
}

// Outcome is what one hook's run means, in Claude Code's terms.
type Outcome struct {
	Decision Decision
	// Reason goes with Block and Ask (see Decision).
	Reason string
	// UpdatedInput is the tool input to run instead, in Claude's shape
	// (see FromClaudeInput).
	UpdatedInput json.RawMessage
	// UpdatedOutput replaces the tool's result (PostToolUse).
	UpdatedOutput *string
	// Context is text for the model: additionalContext, plain stdout of a
	// SessionStart or UserPromptSubmit hook, or a PostToolUse hook's
	// blocking feedback (after the tool result).
	Context string
	// Stop ends the turn (continue:false); StopReason is shown to the user.
	Stop       bool
	StopReason string
	// Defer: PreToolUse's "defer" (an Ask that a headless run turns into
	// the end of the run, resumable from the call).
	Defer bool
	// Title is UserPromptSubmit's sessionTitle: what the session is
	// to be called.
	Title string
	// ReloadSkills is SessionStart's reloadSkills: skills are looked
	// for again once the event's hooks are done.
	ReloadSkills bool
	// Permissions are PermissionRequest's updatedPermissions, with an
	// allow: changes to the session's permissions.
	Permissions []hook.PermissionUpdate
	// Notes are shown to the user and never to the model: systemMessage,
	// a non-blocking stderr, plain stdout of other events.
	Notes []string
	// Failed says how the hook failed (an exit code other than 0 or 2, a
	// timeout, output that is not the JSON it began to be, a command
	// that would not start). The chain's failure policy decides: by
	// default the event goes on with a warning; a fail-closed plugin's
	// tool calls are blocked.
	Failed string
}

// hookJSON is a hook's JSON output: the common fields and every event's
// specific ones. Older hooks put the specific fields at the top level;
// both are read.
type hookJSON struct {
	Continue       *bool   `json:"continue"`
	StopReason     string  `json:"stopReason"`
	SystemMessage  string  `json:"systemMessage"`
	SuppressOutput bool    `json:"suppressOutput"`
	Decision       string  `json:"decision"`
	Reason         string  `json:"reason"`
	Specific       *hookSO `json:"hookSpecificOutput"`
	hookSO
}

type hookSO struct {
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage `json:"updatedInput"`
	AdditionalContext        string          `json:"additionalContext"`
	UpdatedToolOutput        *string         `json:"updatedToolOutput"`
	UpdatedMCPToolOutput     json.RawMessage `json:"updatedMCPToolOutput"`
	// PermissionRequestDecision is PermissionRequest's
	// {"behavior": "allow"|"deny", …} (newerOutcome).
	PermissionRequestDecision json.RawMessage `json:"decision"`
	// Retry is PermissionDenied's: the model may try the call again.
	Retry bool `json:"retry"`
}

// Interpret reads a hook's run for event e as Claude Code does. command
// is the hook's command as written (Claude quotes it, unexpanded, in the
// message the model sees after an exit 2).
//
// What it returns is bounded (bound): the text for the model at
// MaxContext characters, what is shown to the user at MaxNote.
func Interpret(e *Event, command string, r Run) Outcome {
	o := interpret(e, command, r)
	bound(&o, r)
	return o
}

func interpret(e *Event, command string, r Run) Outcome {
	var o Outcome
	switch {
	case r.StartErr != nil:
		o.Failed = fmt.Sprintf("the hook did not start: %v", r.StartErr)
		return o
	case r.TimedOut:
		o.Failed = fmt.Sprintf("the hook ran past its timeout of %s and was stopped", r.Timeout)
		return o
	case r.ExitCode == 2:
		return exit2(e, command, strings.TrimSpace(r.Stderr))
	case r.ExitCode != 0:
		o.Failed = fmt.Sprintf("the hook exited with code %d", r.ExitCode)
		if s := strings.TrimSpace(r.Stderr); s != "" {
			o.Failed += ": " + s
		}
		return o
	}
	out := strings.TrimSpace(r.Stdout)
	if !strings.HasPrefix(out, "{") {
		if out != "" {
			if e.Name == "SessionStart" || e.Name == "UserPromptSubmit" {
				o.Context = out
			} else {
				o.Notes = append(o.Notes, out)
			}
		}
		return o
	}
	var j hookJSON
	dec := json.NewDecoder(bytes.NewReader([]byte(out)))
	if err := dec.Decode(&j); err != nil {
		o.Failed = fmt.Sprintf("the hook's output begins like JSON but is not: %v", err)
		return o
	}
	return fromJSON(e, command, &j)
}

// exit2 is a blocking error: stderr is the message, JSON is ignored.
func exit2(e *Event, command, stderr string) Outcome {
	var o Outcome
	switch e.Name {
	case "PreToolUse":
		o.Decision = Block
		o.Reason = fmt.Sprintf("PreToolUse:%s hook error: [%s]: %s", e.ToolName, command, stderr)
	case "UserPromptSubmit", "Stop", "SubagentStop":
		o.Decision = Block
		o.Reason = stderr
	case "PostToolUse", "PostToolUseFailure":
		o.Context = fmt.Sprintf("%s:%s hook error: [%s]: %s", e.Name, e.ToolName, command, stderr)
	default:
		if !newerExit2(e, stderr, &o) && stderr != "" {
			o.Notes = append(o.Notes, stderr)
		}
	}
	return o
}

func fromJSON(e *Event, command string, j *hookJSON) Outcome {
	var o Outcome
	so := j.hookSO
	if j.Specific != nil {
		so = *j.Specific
	}
	if j.Continue != nil && !*j.Continue {
		o.Stop, o.StopReason = true, j.StopReason
	}
	if j.SystemMessage != "" {
		o.Notes = append(o.Notes, j.SystemMessage)
	}
	o.Context = so.AdditionalContext
	switch e.Name {
	case "PreToolUse":
		switch strings.ToLower(so.PermissionDecision) {
		case "allow":
			o.Decision = Allow
		case "deny":
			o.Decision, o.Reason = Block, so.PermissionDecisionReason
		case "ask", "defer":
			o.Decision, o.Reason = Ask, so.PermissionDecisionReason
			o.Defer = strings.EqualFold(so.PermissionDecision, "defer")
		case "":
			switch j.Decision { // the legacy fields
			case "approve", "allow":
				o.Decision = Allow
			case "block", "deny": // "deny": Gemini CLI's spelling (plugin.GeminiHooks)
				o.Decision, o.Reason = Block, j.Reason
			}
		}
		if o.Decision == Block && o.Reason == "" {
			o.Reason = fmt.Sprintf("PreToolUse:%s hook denied the call", e.ToolName)
		}
		if len(so.UpdatedInput) > 0 && !isNull(so.UpdatedInput) {
			o.UpdatedInput = so.UpdatedInput
		}
	case "PostToolUse", "PostToolUseFailure":
		if j.Decision == "block" {
			feedback := fmt.Sprintf("%s:%s hook blocking error from command %q: %s", e.Name, e.ToolName, command, j.Reason)
			o.Context = joinText(feedback, o.Context)
		}
		if so.UpdatedToolOutput != nil {
			o.UpdatedOutput = so.UpdatedToolOutput
		} else if len(so.UpdatedMCPToolOutput) > 0 && !isNull(so.UpdatedMCPToolOutput) {
			s := string(so.UpdatedMCPToolOutput)
			var str string
			if json.Unmarshal(so.UpdatedMCPToolOutput, &str) == nil {
				s = str
			}
			o.UpdatedOutput = &s
		}
	case "UserPromptSubmit", "Stop", "SubagentStop":
		if j.Decision == "block" {
			o.Decision, o.Reason = Block, j.Reason
		}
	default:
		newerOutcome(e, j, so, &o)
	}
	return o
}

func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
