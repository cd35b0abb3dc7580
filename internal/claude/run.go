package claude

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Running one handler of an event, whatever its type, to its Outcome;
// and what the handler's fields (once, onFailure) add to that.

// timeoutFor is a handler's time limit on event: its own, else Claude
// Code's default (defaultTimeout).
func timeoutFor(h Handler, event string) time.Duration {
	t := h.Timeout
	if t <= 0 {
		t = defaultTimeout(h.Type, event)
	}
	return time.Duration(t * float64(time.Second))
}

// defaultTimeout is Claude Code's time limit, in seconds, for a handler
// of type on event that sets none: command, http and mcp_tool 600 s,
// lowered to 30 s on UserPromptSubmit, PreModelSwitch and
// PostModelSwitch; prompt 30 s; agent 60 s; and on SessionEnd, which
// must not hold up the end of a session, 1.5 s for any type (Claude
// Code's hooks reference).
func defaultTimeout(typ, event string) float64 {
	switch {
	case event == "SessionEnd":
		return SessionEndTimeout
	case typ == "prompt":
		return PromptTimeout
	case typ == "agent":
		return AgentTimeout
	case event == "UserPromptSubmit" || event == "PreModelSwitch" || event == "PostModelSwitch":
		return PromptTimeout
	}
	return DefaultTimeout
}

// SessionEndTimeout is a SessionEnd hook's default time limit, in seconds.
const SessionEndTimeout = 1.5

// AgentTimeout is an agent hook's default time limit, in seconds.
const AgentTimeout = 60

// runHandler runs h for event e with its payload and interprets what it
// did as Claude Code does.
func (l *Link) runHandler(ctx context.Context, e *Event, h Handler, payload []byte, env []string) Outcome {
	return stopContext(e, l.runOne(ctx, e, h, payload, env))
}

// runOne runs a handler of any type, with onFailure applied.
func (l *Link) runOne(ctx context.Context, e *Event, h Handler, payload []byte, env []string) Outcome {
	timeout := timeoutFor(h, e.Name)
	var o Outcome
	switch h.Type {
	case "http":
		r := Post(ctx, h, payload, timeout, nil)
		o = Interpret(e, h.label(), r)
		sessionOutputs(e, &o, r.Stdout)
		if r.StartErr != nil {
			o.Failed = "the http hook failed: " + r.StartErr.Error()
		}
	case "mcp_tool":
		r := l.callTool(ctx, h, payload, timeout)
		o = Interpret(e, h.label(), r)
		sessionOutputs(e, &o, r.Stdout)
		if r.StartErr != nil {
			o.Failed = "the mcp_tool hook failed: " + r.StartErr.Error()
		}
	case "prompt", "agent":
		return l.askHook(ctx, e, h, payload, timeout)
	default:
		r := Exec(ctx, Command{Line: h.Command, Args: h.Args, Shell: h.Shell, Dir: l.ProjectDir, Env: env, Timeout: timeout, Policy: l.Policy}, payload)
		o = Interpret(e, h.label(), r)
		sessionOutputs(e, &o, r.Stdout)
		if h.OnFailureBlock && o.Failed != "" {
			o = failClosed(e, h, o, r)
		}
		return o
	}
	if h.OnFailureBlock && o.Failed != "" {
		o = failClosed(e, h, o, Run{})
	}
	return o
}

// failClosed turns a failed hook with onFailure "block" into the block
// Claude Code makes of it, on the events whose block guards something
// (a tool call, a prompt; after a tool, feedback to the model). On
// Stop, SubagentStop, SessionStart and the rest, Claude ignores
// onFailure: the failure stays one.
func failClosed(e *Event, h Handler, o Outcome, r Run) Outcome {
	switch e.Name {
	case "PreToolUse", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PermissionRequest":
	default:
		return o
	}
	what := "failed"
	if r.TimedOut {
		what = "timed out"
	}
	detail := strings.TrimSpace(r.Stderr)
	switch {
	case h.Type != "command":
		detail = o.Failed
	case detail == "":
		detail = "No stderr output"
	}
	why := "blocking because onFailure is \"block\""
	if h.Type == "mcp_tool" {
		why += " and the hook got no usable answer from its MCP server (synaps mcp list shows the server's state)"
	}
	b := exit2(e, h.label(), fmt.Sprintf("%s; %s %s", what, why, detail))
	b.Notes = o.Notes
	return b
}

// spend reports whether a `once` handler may run now, and marks it run:
// Claude Code removes such a hook after its first run in the session.
func (l *Link) spend(h Handler) bool {
	if !h.Once {
		return true
	}
	l.onceMu.Lock()
	defer l.onceMu.Unlock()
	if l.ran == nil {
		l.ran = map[string]bool{}
	}
	if l.ran[h.at] {
		return false
	}
	l.ran[h.at] = true
	return true
}

// onceState is what a Link remembers of its `once` handlers.
type onceState struct {
	onceMu sync.Mutex
	ran    map[string]bool
	// pwshWarned: the powershell hooks already said to be skipped.
	pwshWarned map[string]bool
}
