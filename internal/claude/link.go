package claude

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/sandbox"
	"github.com/synaps-cli/synaps/internal/tool"
)

// Link runs one file's Claude command hooks as a link of synaps's hook
// chain, so that they keep the chain's rules — order, block wins, a
// modify is judged again by the guards after it, one confirm — beside
// synaps's own extensions. Each event starts the matching commands, one
// process each, as Claude Code does.
type Link struct {
	// Name is the link's id in the chain, decisions and notices: the
	// plugin's name, or "claude-settings" for a settings file.
	Name string
	// Key is the source in the hooks' ids (hook.ClaudeHookID):
	// "plugin:<id>", "project", "local" or "user"; Hooks' handlers
	// carry their own ids (Hooks.WithIDs).
	Key   string
	Hooks Hooks
	// Env is the environment every hook starts from (synaps's scrubbed
	// one); HookEnv adds Claude's variables.
	Env        []string
	ProjectDir string
	// PluginRoot and PluginData are set for a plugin's hooks.
	PluginRoot, PluginData string
	// Policy, when set, confines every hook the link starts: the
	// plugin's sandbox policy, or the default one for a settings file.
	Policy *sandbox.Policy
	// Session says what payloads carry about the session; nil leaves the
	// fields empty but for the id.
	Session func(sessionID string) Session
	// Notify shows the user what a hook says to the user (systemMessage,
	// stderr of a non-blocking error); never the model.
	Notify func(linkID, text string)
	// Ask answers prompt and agent hooks (see Asker); nil: they fail.
	Ask Asker
	// Wake gives the model text from a hook that ran in the background
	// (async): at its next request, and an idle agent takes it as a
	// message of its own.
	Wake func(linkID, text string)
	// CallTool calls an MCP server's tool for mcp_tool hooks; nil:
	// they fail.
	CallTool ToolCaller
	// Title names the session (UserPromptSubmit's sessionTitle); nil:
	// the title is said to the user only.
	Title func(title string)
	// ReloadSkills looks for skills again (SessionStart's reloadSkills)
	// and returns the system-prompt text that lists the new ones.
	ReloadSkills func() string
	// Dialect, when set, rewrites each payload for hooks written for
	// another agent (a Gemini CLI extension's: its event and tool names);
	// matchers and outputs stay Claude Code's.
	Dialect func(payload []byte) []byte

	onceState
}

// ID implements hook.Link.
func (l *Link) ID() string { return l.Name }

// ReportID implements hook.ReportIDer: the id of the link's hooks of
// one event (hook.ClaudeFileID), the prefix of each hook's own id (see
// Parts), by which a report names the link when its hooks have no ids.
func (l *Link) ReportID(hookName string) string {
	ev := claudeEvent(hookName)
	if ev == "" {
		ev = hookName
	}
	if l.Key != "" {
		return hook.ClaudeFileID(l.Key, ev)
	}
	return "claude:" + l.Name + "/" + ev
}

// Subject implements hook.Subjecter: no extension is involved, so a
// block says whose hook it was ("Tool call blocked by hook of plugin
// cc-guard: …").
func (l *Link) Subject() string {
	if l.PluginRoot != "" {
		return "hook of plugin " + l.Name
	}
	return "Claude Code hook (" + l.Name + ")"
}

// InputFault implements hook.Link: a command hook has no input it cannot
// be sent.
func (l *Link) InputFault(error) string { return "" }

// Gone implements hook.Link: a command hook starts anew each time.
func (l *Link) Gone() string { return "" }

// Subscriptions lists the synaps hooks the link needs: those whose Claude
// event has hooks in the file. Tool hooks subscribe to every tool; the
// link applies Claude's matchers itself and starts nothing when none
// matches.
func (l *Link) Subscriptions() []hook.Subscription {
	var subs []hook.Subscription
	for _, spec := range contract.Hooks {
		for _, name := range hookEvents(spec.Name) {
			if len(l.Hooks.Events[name]) > 0 {
				subs = append(subs, hook.Subscription{Hook: spec.Name})
				break
			}
		}
	}
	return subs
}

// ErrHookFailed wraps how a hook failed (see Outcome.Failed); the chain's
// failure policy decides what it does.
var ErrHookFailed = errors.New("Claude hook failed")

// Handle implements hook.Link: it runs the commands whose matchers select
// the event, in parallel as Claude does, and joins their outcomes (a block
// wins, then an ask; the first new input; contexts in file order).
func (l *Link) Handle(ctx context.Context, spec contract.HookSpec, ev *hook.Event, _ json.RawMessage) (hook.Result, error) {
	if spec.Name == contract.HookOnCompaction {
		return l.compaction(ctx, spec, ev)
	}
	return l.handle(ctx, spec, ev, l.event(spec.Name, ev))
}

// handle runs the commands of Claude event e (nil: none).
func (l *Link) handle(ctx context.Context, spec contract.HookSpec, ev *hook.Event, e *Event) (hook.Result, error) {
	if e == nil {
		return hook.Result{Action: contract.ActionContinue}, nil
	}
	handlers := l.handlersOf(e, ev, true)
	if len(handlers) == 0 {
		return hook.Result{Action: contract.ActionContinue}, nil
	}
	l.complete(e, ev)
	payload := e.Payload()
	if l.Dialect != nil {
		payload = l.Dialect(payload)
	}
	env := HookEnv(l.Env, l.ProjectDir, ev.SessionID, l.PluginRoot, l.PluginData, "")
	outcomes := make([]Outcome, len(handlers))
	took := make([]time.Duration, len(handlers))
	var wg sync.WaitGroup
	for i, h := range handlers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if h.StatusMessage != "" {
				// Claude Code shows it in its spinner while the hook
				// runs; synaps says it as the hook starts.
				l.notify(h.StatusMessage + " …")
			}
			if h.Async && h.Type == "command" {
				l.background(e, h, payload, env)
				return
			}
			start := time.Now()
			outcomes[i] = l.runHandler(ctx, e, h, payload, env)
			took[i] = time.Since(start)
		}()
	}
	wg.Wait()
	if hook.Reporting(ctx) {
		l.reportParts(ctx, ev, e, handlers, outcomes, took)
	}
	return l.join(spec, ev, outcomes)
}

// handlers are the commands whose matchers (and if filters) select the
// event, each command once; none when the file has no hook for it.
func (l *Link) handlers(hookName string, ev *hook.Event) (*Event, []Handler) {
	e := l.event(hookName, ev)
	if e == nil {
		return nil, nil
	}
	return e, l.handlersOf(e, ev, false)
}

// handlersOf are the handlers of event e that run for ev: matched, their
// `if` covering the call, identical ones once. spend counts a `once`
// handler as run (a session's call does; a report's look does not).
func (l *Link) handlersOf(e *Event, ev *hook.Event, spend bool) []Handler {
	var handlers []Handler
	for _, g := range l.Hooks.Events[e.Name] {
		if e.Selects(g.Matcher) {
			for _, h := range g.Handlers {
				if h.If != "" && !l.covers(h.If, ev) {
					continue
				}
				if slices.ContainsFunc(handlers, func(o Handler) bool { return o.key() == h.key() }) {
					continue // identical commands run once
				}
				if l.pwshMissing(h, spend) {
					continue // said once; not a failure
				}
				if spend && !l.spend(h) {
					continue
				}
				handlers = append(handlers, h)
			}
		}
	}
	return handlers
}

// Selects implements hook.Selector: whether any command of the file
// matches the event, so a report says "not matched" of a file whose
// matchers pass the call by, not "continue".
func (l *Link) Selects(spec contract.HookSpec, ev *hook.Event) bool {
	_, hs := l.handlers(spec.Name, ev)
	return len(hs) > 0
}

// covers applies a handler's `if` filter, a permission rule in Claude's
// syntax, to the tool call (tool events only; other events run). A rule
// synaps cannot read runs the hook: a filter must not silently switch a
// guard off.
func (l *Link) covers(rule string, ev *hook.Event) bool {
	if ev.ToolRuntimeName == "" {
		return true
	}
	r, err := permission.ParseRule(rule)
	if err != nil {
		return true
	}
	_, builtin := permission.ClaudeToolName(ev.ToolRuntimeName)
	return r.Covers(permission.Call{Name: ev.ToolName, RuntimeName: ev.ToolRuntimeName, Builtin: builtin, Input: ev.ToolInput}, l.ProjectDir, "")
}

// event builds the Claude event for a synaps one; nil when the file has
// no hooks for it.
//
// It holds only what matchers read; complete adds the rest once a hook
// is to run, so that a call no matcher selects costs no input
// translation and no transcript sync.
func (l *Link) event(hookName string, ev *hook.Event) *Event {
	return l.eventAs(claudeEvent(hookName), hookName, ev)
}

// eventAs is event for Claude event name.
func (l *Link) eventAs(name, hookName string, ev *hook.Event) *Event {
	e := &Event{Name: name}
	switch hookName {
	case contract.HookBeforeToolCall, contract.HookAfterToolCall:
		e.ToolName = ClaudeName(ev.ToolRuntimeName)
		if ev.ToolError && hookName == contract.HookAfterToolCall {
			// A failed call is PostToolUseFailure in Claude Code, not
			// PostToolUse.
			e.Name = "PostToolUseFailure"
			name = e.Name
		}
	case contract.HookBeforeMessage:
		if ev.Message != nil {
			e.Prompt = *ev.Message
		}
	case contract.HookOnMessageComplete, contract.HookOnSubagentComplete:
		if ev.Message != nil {
			e.LastAssistantMessage = *ev.Message
		}
		var d struct {
			StopHookActive bool `json:"stop_hook_active"`
			HasToolUse     bool `json:"has_tool_use"`
		}
		_ = json.Unmarshal(ev.Data, &d)
		if d.HasToolUse && hookName == contract.HookOnMessageComplete {
			// Claude Code's Stop is the end of the turn: a message that
			// calls tools is not one (claude-compat.md: Stop is
			// on_message_complete with has_tool_use false).
			return nil
		}
		e.StopHookActive = d.StopHookActive
	case contract.HookOnSessionStart:
		e.Source = ev.StartSource
		if e.Source == "" {
			e.Source = "startup"
		}
	case contract.HookOnSessionEnd:
		e.Reason = ev.EndReason
		if e.Reason == "" {
			e.Reason = "other"
		}
	case contract.HookOnCompaction:
		e.Trigger = "manual"
	case contract.HookOnNotification:
		if ev.Message != nil {
			e.Message = *ev.Message
		}
		var d struct {
			Type string `json:"notification_type"`
		}
		_ = json.Unmarshal(ev.Data, &d)
		e.NotificationType = d.Type
	default:
		newerEvent(hookName, e, ev)
	}
	if s := ev.Subagent; s != nil {
		// Claude Code names the subagent in every payload from inside
		// one; SubagentStop's matcher is tested against its type.
		e.AgentID, e.AgentType = s.ID, s.Type
	}
	if len(l.Hooks.Events[name]) == 0 {
		return nil
	}
	return e
}

// complete fills in what the payload carries beyond the matchers' values:
// the session (its transcript mirror brought up to date), the tool input
// in Claude's shape, the result or the error.
func (l *Link) complete(e *Event, ev *hook.Event) {
	e.Session = Session{ID: ev.SessionID, Cwd: l.ProjectDir, PermissionMode: "default"}
	if l.Session != nil {
		e.Session = l.Session(ev.SessionID)
	}
	if e.Name == "SubagentStop" {
		e.AgentTranscriptPath = agentTranscript(e.Session, e.AgentID, ev.AgentTranscript)
	}
	l.completeNewer(e, ev)
	if e.Name == "PermissionRequest" || e.Name == "PermissionDenied" {
		return
	}
	if e.ToolName == "" {
		return
	}
	e.ToolInput = ToClaudeInput(ev.ToolRuntimeName, ev.ToolInput, l.ProjectDir)
	if u := ev.ToolUse; u != nil {
		e.ToolUseID = u.ID
		if !u.Started.IsZero() && e.Name != "PreToolUse" {
			e.Duration = time.Since(u.Started)
		}
	}
	out := ""
	if ev.ToolOutput != nil {
		out = *ev.ToolOutput
	}
	switch e.Name {
	case "PostToolUseFailure":
		e.Error = ErrorText(out)
	case "PostToolUse":
		var before *string
		var patch []Hunk
		if r, ok := ev.ToolDetail.(tool.Result); ok {
			before, patch = r.Before, PatchFromDiff(r.Diff)
		}
		e.ToolResponse = ToolResponse(ev.ToolRuntimeName, e.ToolInput, out, before, patch)
	}
}

// join turns the outcomes of one event's hooks into the link's answer.
func (l *Link) join(spec contract.HookSpec, ev *hook.Event, outcomes []Outcome) (hook.Result, error) {
	var failed, contexts []string
	var block, ask, stop *Outcome
	reload := false
	var granted bool // a hook answered the permission question: allow
	var perms []hook.PermissionUpdate
	var input json.RawMessage
	var output *string
	for i := range outcomes {
		o := &outcomes[i]
		for _, n := range o.Notes {
			if l.Notify != nil {
				l.Notify(l.Name, n)
			}
		}
		if o.Title != "" {
			l.retitle(o.Title)
		}
		reload = reload || o.ReloadSkills
		if o.Failed != "" {
			failed = append(failed, o.Failed)
			continue
		}
		if o.Stop && stop == nil {
			stop = o
		}
		if o.Decision == Allow {
			granted = true
			perms = append(perms, o.Permissions...)
		}
		switch o.Decision {
		case Block:
			if block == nil {
				block = o
			}
		case Ask:
			if ask == nil {
				ask = o
			}
		}
		if input == nil && len(o.UpdatedInput) > 0 {
			input = o.UpdatedInput
		}
		if output == nil && o.UpdatedOutput != nil {
			output = o.UpdatedOutput
		}
		if o.Context != "" {
			contexts = append(contexts, o.Context)
		}
	}
	if len(failed) > 0 && l.Notify != nil {
		// Said to the user whatever the answer is: a block by another
		// hook must not hide that this one failed.
		l.Notify(l.Name, "failed: "+strings.Join(failed, "; "))
	}
	if reload && l.ReloadSkills != nil {
		// After the event's hooks, which may have installed skills;
		// the new ones are listed with the start's context.
		if text := l.ReloadSkills(); text != "" {
			contexts = append(contexts, text)
		}
	}
	allowed := func(a contract.Action) bool { return slices.Contains(spec.Actions, a) }
	// Before and after a tool, context goes with the result (and with
	// whatever else the answer is); elsewhere it is an inject.
	var toolContext string
	if spec.Name == contract.HookAfterToolCall || spec.Name == contract.HookBeforeToolCall {
		toolContext, contexts = strings.Join(contexts, "\n"), nil
	}
	res, err := l.decide(spec, ev, allowed, failed, contexts, block, ask, stop, input, output, granted)
	if err == nil {
		res.Context = toolContext
		if res.Grant {
			res.Permissions = perms
		}
	}
	return res, err
}

// decide picks the link's one answer: continue:false first (it beats any
// decision in Claude Code), then a block, a failure, an ask (with its new
// input, if any), a new input, a new output, context.
func (l *Link) decide(spec contract.HookSpec, ev *hook.Event, allowed func(contract.Action) bool, failed, contexts []string,
	block, ask, stop *Outcome, input json.RawMessage, output *string, granted bool) (hook.Result, error) {
	switch {
	case stop != nil && allowed(contract.ActionStop):
		reason := stop.StopReason
		if reason == "" {
			reason = "a Claude hook ended the turn (continue: false)"
		}
		return hook.Result{Action: contract.ActionStop, Reason: reason}, nil
	case block != nil && allowed(contract.ActionBlock):
		return hook.Result{Action: contract.ActionBlock, Reason: block.Reason}, nil
	case len(failed) > 0:
		// Said to the user (join); the chain's policy decides whether
		// the call runs (fail-open) or is blocked (fail-closed).
		return hook.Result{}, errors.Join(ErrHookFailed, errors.New(strings.Join(failed, "; ")))
	case ask != nil && allowed(contract.ActionConfirm):
		reason := ask.Reason
		if reason == "" {
			reason = "a Claude hook asks before " + ClaudeName(ev.ToolRuntimeName) + " runs"
		}
		res := hook.Result{Action: contract.ActionConfirm, Message: reason, Defer: ask.Defer}
		if ask.UpdatedInput != nil {
			res.Input = FromClaudeInput(ev.ToolRuntimeName, ask.UpdatedInput)
		}
		return res, nil
	case input != nil && allowed(contract.ActionModify):
		return hook.Result{Action: contract.ActionModify, Input: FromClaudeInput(ev.ToolRuntimeName, input), Grant: granted}, nil
	case output != nil && allowed(contract.ActionReplace):
		return hook.Result{Action: contract.ActionReplace, Output: output}, nil
	case len(contexts) > 0 && allowed(contract.ActionInject):
		return hook.Result{Action: contract.ActionInject, Content: strings.Join(contexts, "\n")}, nil
	}
	return hook.Result{Action: contract.ActionContinue, Grant: granted}, nil
}
