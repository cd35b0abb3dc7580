// Package agent is the loop at the centre of synaps: it sends the
// conversation to the model, streams the reply, runs the tool calls the
// model makes through the extension hooks, and repeats until the model
// stops. It has no UI: everything a UI shows arrives as Events.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/tool"
)

// Hooks is how the loop runs lifecycle events through the hook chain
// (internal/hook). The agent knows events and decisions, never what
// answers them: *extension.Host implements it by delegating to its
// hook.Chain; nil means no hooks.
type Hooks interface {
	RunHook(ctx context.Context, ev hook.Event) hook.Decision
	BeforeToolCall(ctx context.Context, spec tool.Spec, input json.RawMessage, sessionID string, c hook.Confirmer) hook.Decision
	AfterToolCall(ctx context.Context, spec tool.Spec, input json.RawMessage, output string, isError bool, sessionID string) hook.Decision
}

// ResultHooks is implemented by Hooks that give after_tool_call links the
// tool's whole result (its Diff and the file's text before), not only its
// text: extension.Host, for Claude PostToolUse hooks' originalFile and
// structuredPatch.
type ResultHooks interface {
	AfterToolResult(ctx context.Context, spec tool.Spec, input json.RawMessage, res tool.Result, sessionID string) hook.Decision
}

// ToolWaiter is implemented by Hooks whose tools may still be arriving
// (an extension host started in the background, extension.Host.Begin):
// before each model request the agent waits for the extensions that may
// register tools, so no request goes out without them.
type ToolWaiter interface{ AwaitTools(ctx context.Context) }

// Config wires an Agent. Zero values take the documented defaults.
type Config struct {
	Provider llm.Provider
	// Model is the provider's model id, sent in every request.
	Model string
	// ProviderName names the provider in on_usage events: "anthropic",
	// "openai", "script", or "<plugin>:<provider>" for an extension's
	// model (llm.ProviderName of the model as the user wrote it). Empty:
	// guessed from Model.
	ProviderName string
	// System is the system prompt without extension injections.
	System string
	Tools  *tool.Registry
	Hooks  Hooks
	// Session receives every complete message. Required.
	Session *session.Session
	// Confirmer asks the user about confirm actions and permission
	// questions, once per call; nil (headless) refuses them. One that is
	// also an Asker may answer "always".
	Confirmer hook.Confirmer
	// Permissions judges every call the before_tool_call chain lets
	// through (mode and rules); nil runs them all.
	Permissions *permission.Policy
	// ApproveConfirms answers extensions' confirm requests with yes
	// (--auto-approve-confirms); permission questions are still asked.
	ApproveConfirms bool
	// LeavePlan says how the user of this front-end leaves plan mode
	// ("Shift+Tab, or /mode default" in the terminal UI), for the
	// refusal plan mode gives; "" names the flag and config key a
	// headless run (-p, rpc, server) is started with.
	LeavePlan string
	// SaveRule keeps an "always" answer's allow rule for later sessions
	// and says where; nil keeps it for this session only.
	SaveRule func(rule string) (where string, err error)
	// OnEvent receives events in order; nil drops them.
	OnEvent func(Event)
	// Subagents configures the agent tool (add Subagents.Tool() to
	// Tools); nil: a call of it says subagents are not set up.
	Subagents *Subagents
	// MaxTokensTotal bounds the tokens (input plus output) of the whole
	// run; 0: none. A subagent's token budget.
	MaxTokensTotal int
	// MaxToolCalls and MaxCostUSD bound the agent's whole run (every
	// message it is sent): tool calls made and dollars spent. 0: none.
	MaxToolCalls int
	MaxCostUSD   float64
	// MaxTurns caps model requests per user message; 0 means no limit
	// (the default: a long task runs to its end unless the user set a
	// limit, --max-turns).
	MaxTurns int
	// tree is the run's budget, shared with the subagents (budget);
	// nil: New makes one from the limits above.
	tree *budget
	// Price is the price of a model id (llm.PriceOf over the built-in
	// table and config); nil prices nothing.
	Price func(model string) (llm.Price, bool)
	// MaxTokens is the reply budget per request. Default 8192.
	MaxTokens int
	// Effort is how hard the model thinks (see llm.Effort); set with
	// SetEffort. The request carries it in the form the model takes.
	Effort llm.Effort
	// MaxToolOutput caps every tool result, in bytes, before any
	// after_tool_call hook sees it (tool.CapOutput). Default
	// tool.DefaultMaxOutput, the built-ins' own cap.
	MaxToolOutput int
}

// Agent runs one session's conversation. Its methods must not be called
// concurrently; a UI serialises user input.
type Agent struct {
	cfg Config
	// systemInject is the on_session_start context, appended to the
	// system prompt once.
	systemInject string
	// usage accumulates over the session; requests counts the model
	// requests it was summed from.
	usage    llm.Usage
	last     llm.Usage // the last request's
	requests int
	started  bool
	// startSource overrides the on_session_start source (StartAs).
	startSource string
	// prefix keeps the conversation's wire encoding between requests
	// (llm.Prefix); reset when the model changes.
	prefix llm.Prefix
	// now is the clock tool durations are measured with (a test's fake).
	now func() time.Time
	// ask serialises questions to the user: calls running side by side,
	// and subagents (which share their parent's), ask one at a time.
	ask *sync.Mutex
	// child is set when the agent runs as a subagent.
	child *child
	// kids sums the usage of subagents that finished in this turn.
	kids kidUsage
	// emitMu serialises OnEvent calls.
	emitMu sync.Mutex
	// stop is a hook's stop action in the current turn.
	stop stopState
	// refusedPictures is how many of the session's first messages have
	// their pictures left out: the API refused a request for one.
	refusedPictures int
	// steer is text sent while a turn runs (Steer).
	steer steering
}

// New returns an agent.
func New(cfg Config) *Agent {
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = 8192
	}
	if cfg.Tools == nil {
		cfg.Tools = tool.NewRegistry()
	}
	if cfg.MaxToolOutput <= 0 {
		cfg.MaxToolOutput = tool.DefaultMaxOutput
	}
	if cfg.tree == nil {
		cfg.tree = newBudget(cfg)
	}
	a := &Agent{cfg: cfg, now: time.Now, ask: &sync.Mutex{}}
	if cfg.Session != nil {
		a.usage = cfg.Session.Usage() // a resumed session's earlier runs
	}
	return a
}

// Usage is the token count of the session so far, earlier runs of a
// resumed session included.
func (a *Agent) Usage() llm.Usage { return a.usage }

// LastUsage is the usage of the last model request, priced.
func (a *Agent) LastUsage() llm.Usage { return a.last }

// Requests is how many model requests the session has made so far.
func (a *Agent) Requests() int { return a.requests }

// Model is the model id the next request sends.
func (a *Agent) Model() string { return a.cfg.Model }

// SetModel switches the provider and model of every later request
// (/model). The conversation, its usage so far and the extensions'
// session context stay: it is the same session, answered by another
// model.
func (a *Agent) SetModel(p llm.Provider, model string) {
	a.cfg.Provider, a.cfg.Model = p, model
	a.prefix.Reset()
}

// SetProviderName changes the provider on_usage names (Config.ProviderName).
func (a *Agent) SetProviderName(name string) { a.cfg.ProviderName = name }

// SessionID is the id of the session being written.
func (a *Agent) SessionID() string { return a.cfg.Session.ID }

// Start fires on_session_start; what extensions inject is appended once to
// the system prompt.
func (a *Agent) Start(ctx context.Context) {
	if a.started {
		return
	}
	a.started = true
	if a.cfg.Hooks == nil {
		return
	}
	source := "startup"
	switch {
	case a.startSource != "":
		source = a.startSource
	case len(a.cfg.Session.View()) > 0:
		source = "resume"
	case a.cfg.Session.Summary != "":
		source = "compact"
	}
	d := a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookOnSessionStart, SessionID: a.cfg.Session.ID, StartSource: source})
	a.systemInject = d.InjectText()
	a.emitInjects(d, "system")
}

// StartAs sets why on_session_start fires, for a start the session alone
// cannot tell ("clear": the user asked for a new session); call it before
// the first message.
func (a *Agent) StartAs(source string) { a.startSource = source }

// End fires on_session_end with the transcript and closes the session file.
func (a *Agent) End(ctx context.Context) error { return a.EndBecause(ctx, "other") }

// EndBecause is End with the reason the session ends (hook.Event.EndReason).
func (a *Agent) EndBecause(ctx context.Context, reason string) error {
	if a.cfg.Hooks != nil {
		transcript, _ := json.Marshal(a.cfg.Session.Messages())
		a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookOnSessionEnd, SessionID: a.cfg.Session.ID, Transcript: transcript, EndReason: reason})
	}
	return a.cfg.Session.Close()
}

// ErrTurnLimit ends a turn that made MaxTurns requests without the model
// stopping. Send returns it wrapped in a *TurnLimitError.
var ErrTurnLimit = errors.New("turn limit reached")

// TurnLimitError says that a turn stopped at Config.MaxTurns model
// requests. The session is consistent: every tool call has its result.
type TurnLimitError struct{ Requests int }

func (e *TurnLimitError) Error() string {
	return "stopped after " + plural.Count(e.Requests, "model request")
}

func (e *TurnLimitError) Unwrap() error { return ErrTurnLimit }

// Send runs one user message (its text and any pictures) to completion: the model answers, its tool
// calls run, their results go back, until the model stops, the turn limit
// is reached or ctx is cancelled. The session is consistent whenever Send
// returns: every tool call in it has a result.
func (a *Agent) Send(ctx context.Context, text string, images ...llm.Image) error {
	a.Start(ctx)
	user := llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: text}}}
	// Pictures the user attached (@shot.png) follow the text.
	a.attach(&user, images)
	// before_message: injected context is saved with the user message it
	// was sent with, marked as an inject, and sent again, byte for byte,
	// with every later request: the conversation's prefix never changes,
	// which is what prompt caching needs, and a resumed session is the
	// one the model saw.
	a.stop.reset()
	if a.child == nil {
		a.cfg.tree.newMessage()
	}
	// A subagent's prompt comes from the model, not the user:
	// before_message is the user's (Claude's UserPromptSubmit).
	if a.cfg.Hooks != nil && a.child == nil {
		d := a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookBeforeMessage, Message: &text, SessionID: a.cfg.Session.ID})
		switch {
		case d.Blocked:
			return &HookStopError{By: d.BlockedBy, Reason: hook.BlockReason(d.Reason), Prompt: true}
		case d.Stopped:
			return &HookStopError{By: d.StoppedBy, Reason: d.StopReason, Prompt: true}
		}
		if inject := d.InjectText(); inject != "" {
			user.Content = append(user.Content, llm.Block{Type: llm.BlockText, Text: inject, Inject: true})
		}
		a.emitInjects(d, "user")
	}
	if err := a.cfg.Session.Append(user); err != nil {
		return err
	}
	defer a.cfg.Session.Sync()

	stopBlocks := 0
	for turn := 0; a.cfg.MaxTurns <= 0 || turn < a.cfg.MaxTurns; turn++ {
		if err := a.overBudget(); err != nil {
			return err
		}
		if w, ok := a.cfg.Hooks.(ToolWaiter); ok {
			w.AwaitTools(ctx)
		}
		req := a.request()
		// partial is the answer streamed so far: an interrupted turn
		// keeps it in the session, as the user saw it.
		var partial strings.Builder
		resp, err := a.cfg.Provider.Complete(ctx, req, func(ev llm.Event) {
			if ev.Type == llm.EventText {
				partial.WriteString(ev.Text)
			}
			a.forward(ev)
		})
		if err != nil {
			if ctx.Err() != nil {
				if err := a.keepPartial(partial.String()); err != nil {
					return err
				}
				a.emit(Event{Type: EventNotice, Text: NoticeCancelled})
				return ctx.Err()
			}
			if a.retryWithoutPictures(err, len(req.Messages)) {
				turn--
				continue
			}
			return err
		}
		used := a.priced(resp.Usage)
		a.usage, a.last = a.usage.Add(used), used
		a.requests++
		a.cfg.tree.spent(used.CostUSD)
		msg := resp.Message
		msg.Role = llm.RoleAssistant
		if err := a.cfg.Session.AppendUsed(msg, used); err != nil {
			return err
		}
		a.emit(Event{Type: EventMessage, Message: &msg})
		done := a.messageComplete(ctx, msg, stopBlocks > 0)
		a.usageReport(ctx, resp, used)

		calls := msg.ToolUses()
		a.emit(Event{Type: EventTurnEnd, StopReason: resp.StopReason, Usage: used})
		if len(calls) == 0 {
			if !done.Blocked || stopBlocks == MaxStopBlocks {
				return nil
			}
			// A hook keeps the agent going: its reason is the next
			// message, and the turn goes on.
			stopBlocks++
			a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("%s keeps the turn going: %s", done.BlockedBy, oneLine(hookReason(done)))})
			next := llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: feedback(done.BlockedBy, hookReason(done))}}}
			if err := a.cfg.Session.Append(next); err != nil {
				return err
			}
			continue
		}
		run := a.allowCalls(len(calls))
		results := a.runTools(ctx, calls[:run])
		a.usage = a.usage.Add(a.kids.take()) // what subagents spent
		for _, c := range calls[run:] {
			results = append(results, llm.Block{Type: llm.BlockToolResult, ToolUseID: c.ID, IsError: true,
				Content: fmt.Sprintf("not run: the run reached its limit of %d tool calls (--max-tool-calls)", a.cfg.tree.maxToolCalls)})
		}
		// Text the user steered in while the calls ran joins here, after
		// their results, unless the turn ends now (cancelled, stopped):
		// then it waits for TakeSteers.
		if ctx.Err() == nil {
			if by, _ := a.stop.get(); by == "" {
				results = append(results, a.steered(ctx)...)
			}
		}
		if err := a.cfg.Session.Append(llm.Message{Role: llm.RoleUser, Content: results}); err != nil {
			return err
		}
		if err := a.cfg.Session.Sync(); err != nil {
			return err
		}
		if ctx.Err() != nil {
			a.emit(Event{Type: EventNotice, Text: NoticeCancelled})
			return ctx.Err()
		}
		if by, reason := a.stop.get(); by != "" {
			return &HookStopError{By: by, Reason: reason}
		}
	}
	return &TurnLimitError{Requests: a.cfg.MaxTurns}
}

// priced is u with its cost at the price of the model that answered.
func (a *Agent) priced(u llm.Usage) llm.Usage {
	if a.cfg.Price == nil {
		u.Unpriced = 1
		return u
	}
	if p, ok := a.cfg.Price(a.cfg.Model); ok {
		u.CostUSD = p.Cost(u)
	} else {
		u.Unpriced = 1
	}
	return u
}

// keepPartial saves the text of an interrupted answer as an assistant
// message, so that the session (and a resume of it) holds what the user
// saw, and the model knows what it had said.
func (a *Agent) keepPartial(text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return a.cfg.Session.Append(llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockText, Text: text}}})
}

// request builds the provider request: the saved conversation as it is
// (a view, not a copy), and a.prefix, which keeps its encoding from
// request to request, so a request costs what the turn added.
func (a *Agent) request() *llm.Request {
	msgs := a.boundPictures(a.cfg.Session.View())
	system := a.cfg.System
	if a.systemInject != "" {
		system = strings.TrimRight(system, "\n") + "\n\n" + a.systemInject
	}
	specs := a.cfg.Tools.Specs()
	tools := make([]llm.ToolDef, len(specs))
	for i, s := range specs {
		tools[i] = llm.ToolDef{Name: s.Name, Description: s.Description, InputSchema: s.InputSchema}
	}
	// By name: extensions start in parallel and register their tools in
	// whatever order they finish, and the tools are the first thing the
	// prompt cache keys on.
	slices.SortFunc(tools, func(x, y llm.ToolDef) int { return strings.Compare(x.Name, y.Name) })
	req := &llm.Request{Model: a.cfg.Model, System: system, Messages: msgs, Tools: tools, MaxTokens: a.cfg.MaxTokens, Prefix: &a.prefix}
	a.thinking(req)
	return req
}

// forward turns provider stream events into agent events.
func (a *Agent) forward(ev llm.Event) {
	switch ev.Type {
	case llm.EventText:
		a.emit(Event{Type: EventText, Text: ev.Text})
	case llm.EventThinking:
		a.emit(Event{Type: EventThinking, Text: ev.Text})
	case llm.EventRetry:
		a.emit(Event{Type: EventRetry, Err: ev.Err, Delay: ev.Delay, Retry: ev.Retry, Retries: ev.Retries})
	}
}

// messageComplete fires on_message_complete; a block in the decision
// asks the agent not to stop yet (see Send).
func (a *Agent) messageComplete(ctx context.Context, msg llm.Message, stopHookActive bool) hook.Decision {
	if a.cfg.Hooks == nil {
		return hook.Decision{}
	}
	if a.child != nil {
		// A subagent's answers fire on_subagent_complete, once, for
		// its final one (Claude's SubagentStop; its Stop is the main
		// loop's).
		if len(msg.ToolUses()) > 0 {
			return hook.Decision{}
		}
		return a.subagentComplete(ctx, lastText([]llm.Message{msg}), stopHookActive)
	}
	var text strings.Builder
	hasToolUse := false
	for _, b := range msg.Content {
		switch b.Type {
		case llm.BlockText:
			text.WriteString(b.Text)
		case llm.BlockToolUse:
			hasToolUse = true
		}
	}
	s := text.String()
	// context_management tells a SynapsCLI extension whether context
	// phases are in use (its context_phase answer): synaps has none.
	data, _ := json.Marshal(map[string]any{"content_block_count": len(msg.Content), "has_tool_use": hasToolUse, "stop_hook_active": stopHookActive,
		"context_management": map[string]any{"enabled": false}})
	return a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookOnMessageComplete, Message: &s, SessionID: a.cfg.Session.ID, Data: data})
}

// hookReason is a block decision's reason without the "blocked by"
// frame, which is for tool results.
func hookReason(d hook.Decision) string {
	return hook.BlockReason(d.Reason)
}

// usageReport runs on_usage once per model response, with the tokens the
// service billed for it (extension protocol 2; the shape of SynapsCLI's
// TurnUsage, which counts input_tokens without the cached parts).
func (a *Agent) usageReport(ctx context.Context, resp *llm.Response, used llm.Usage) {
	if a.cfg.Hooks == nil {
		return
	}
	model := resp.Model
	if model == "" {
		model = a.cfg.Model
	}
	var session any
	if a.cfg.Session.ID != "" {
		session = a.cfg.Session.ID
	}
	data, _ := json.Marshal(map[string]any{
		"provider":   a.providerName(),
		"model":      model,
		"session_id": session,
		"message_id": nil,
		"turn_id":    a.requests,
		"usage": map[string]any{
			"input_tokens":                max(0, used.InputTokens-used.CacheReadTokens-used.CacheWriteTokens),
			"output_tokens":               used.OutputTokens,
			"cache_read_input_tokens":     used.CacheReadTokens,
			"cache_creation_input_tokens": used.CacheWriteTokens,
		},
		"cost_usd":    used.CostUSD,
		"source":      map[string]any{"runtime": "synaps", "event": "message_delta", "streaming": true},
		"occurred_at": a.now().UTC().Format(time.RFC3339),
	})
	a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookOnUsage, SessionID: a.cfg.Session.ID, Data: data})
}

func (a *Agent) providerName() string {
	if a.cfg.ProviderName != "" {
		return a.cfg.ProviderName
	}
	return llm.ProviderName(a.cfg.Model)
}

// runTool runs one tool call through before_tool_call, input validation,
// the tool and after_tool_call, and returns its result block.
func (a *Agent) runTool(ctx context.Context, use llm.Block) llm.Block {
	start := a.now()
	// waited is the time spent waiting for the user to answer a confirm:
	// not part of the call's duration.
	var waited time.Duration
	input := use.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	call := &ToolCall{ID: use.ID, Name: use.Name, Input: input, InputRequested: input}
	// Links that name the call (a Claude hook's tool_use_id and
	// duration_ms) read it from the call's context.
	ctx = hook.WithToolUse(ctx, &hook.ToolUse{ID: use.ID, Started: time.Now()})
	a.emit(Event{Type: EventToolStart, Tool: call})
	finish := func(out string, isErr bool) llm.Block {
		call.Output, call.IsError, call.Duration = out, isErr, a.now().Sub(start)-waited
		a.emit(Event{Type: EventToolEnd, Tool: call})
		return llm.Block{Type: llm.BlockToolResult, ToolUseID: use.ID, Content: out, IsError: isErr}
	}

	t, spec, ok := a.lookupTool(use.Name)
	if !ok {
		if msg := a.child.notAllowed(use.Name, a.cfg.Tools.Names()); msg != "" {
			return finish(a.capped(msg), true)
		}
		return finish(a.capped(fmt.Sprintf("unknown tool %q; the available tools are: %s", use.Name, strings.Join(a.cfg.Tools.Names(), ", "))), true)
	}
	// The schema gate comes before the hooks: no guard or extension ever
	// sees an input the tool would refuse (or one nested deep enough to
	// crash its parser), and unknown top-level fields are gone.
	input, err := tool.Prepare(spec, input)
	if err != nil {
		return finish(a.capped(err.Error()), true)
	}
	call.Input = input
	var c hook.Confirmer
	if a.cfg.Confirmer != nil {
		c = timedConfirmer{a.cfg.Confirmer, a.now, &waited}
	}
	var confirms []hook.Confirm
	var grantedBy string // a hook that answered the permission question
	if a.cfg.Hooks != nil {
		// The chain's confirms are asked by permit, together with any
		// permission question, about the input that will run.
		d := a.cfg.Hooks.BeforeToolCall(ctx, spec, input, a.cfg.Session.ID, deferConfirms{})
		confirms, grantedBy = d.Confirms, d.AllowedBy
		call.ModifiedBy = d.ModifiedBy
		if d.Stopped {
			a.stop.set(d.StoppedBy, d.StopReason)
			call.BlockedBy = d.StoppedBy
			return finish(a.capped(fmt.Sprintf("not run: %s stopped the turn: %s", d.StoppedBy, d.StopReason)), true)
		}
		if d.Blocked {
			if d.Input != nil {
				call.Input = d.Input
			}
			call.BlockedBy = d.BlockedBy
			return finish(a.capped(d.Reason), true)
		}
		if d.Input != nil {
			// A modify passes the same gate.
			if input, err = tool.Prepare(spec, d.Input); err != nil {
				call.Input = d.Input
				return finish(a.capped(err.Error()), true)
			}
			call.Input = input
		}
	}
	if refusal, by := a.permit(ctx, spec, input, confirms, c, grantedBy); refusal != "" {
		call.BlockedBy, call.Refused = by, by == ""
		return finish(a.capped(refusal), true)
	}
	var res tool.Result
	if at, ok := t.(*agentTool); ok {
		// The agent tool's child runs inside this loop, after the same
		// hooks and permission check as any call.
		res = a.runSubagent(ctx, at, use.ID, input)
	} else {
		res, err = t.Run(ctx, input)
	}
	switch {
	case err != nil && errors.Is(err, context.Canceled) && ctx.Err() != nil:
		// Not the tool's failure: the turn was stopped (Esc, abort,
		// session/cancel). Said as for the calls that had not started,
		// not as Go's "context canceled".
		res = tool.Result{Output: "cancelled by the user while it ran; it may have taken effect in part", IsError: true}
	case err != nil:
		res = tool.Result{Output: fmt.Sprintf("tool %s failed: %v", use.Name, err), IsError: true}
	}
	call.Diff = res.Diff
	// Cut before the hooks: a redactor must see all of what the model
	// will get, and what the model gets is what the hooks saw.
	res.Output = a.capped(res.Output)
	if a.cfg.Hooks != nil {
		var d hook.Decision
		if rh, ok := a.cfg.Hooks.(ResultHooks); ok {
			d = rh.AfterToolResult(ctx, spec, input, res, a.cfg.Session.ID)
		} else {
			d = a.cfg.Hooks.AfterToolCall(ctx, spec, input, res.Output, res.IsError, a.cfg.Session.ID)
		}
		if d.Output != nil {
			// A replacement is re-sent with every later request and saved
			// at the cap, so it is held to the same cap: the model gets
			// no more than the session keeps.
			res.Output = a.capped(*d.Output)
			call.ReplacedBy = d.ReplacedBy
		}
		if len(d.Contexts) > 0 {
			res.Output = a.capped(withContexts(res.Output, d.Contexts))
		}
		if d.Stopped {
			a.stop.set(d.StoppedBy, d.StopReason)
		}
	}
	return withPictures(finish(res.Output, res.IsError), res.Images())
}

// capped bounds what a tool result says, whoever wrote it (the tool, a
// guard's block reason, an input error quoting the model's keys, an
// after_tool_call replacement): results are saved and re-sent with every
// later request.
func (a *Agent) capped(s string) string { return tool.CapOutput(s, a.cfg.MaxToolOutput) }

// emitInjects tells the UI which extensions added context, so injected
// text never reaches the model unseen.
func (a *Agent) emitInjects(d hook.Decision, where string) {
	if len(d.Injects) == 0 {
		return
	}
	ids := make([]string, len(d.Injects))
	for i, in := range d.Injects {
		ids[i] = in.Extension
	}
	a.emit(Event{Type: EventInject, Text: strings.Join(ids, ", "), Where: where})
}

func (a *Agent) emit(ev Event) {
	if a.cfg.OnEvent != nil {
		// Calls running side by side emit from their goroutines; a UI
		// hears one event at a time.
		a.emitMu.Lock()
		defer a.emitMu.Unlock()
		a.cfg.OnEvent(ev)
	}
}

// timedConfirmer adds the time each Confirm takes to *waited.
type timedConfirmer struct {
	hook.Confirmer
	now    func() time.Time
	waited *time.Duration
}

func (t timedConfirmer) Confirm(ctx context.Context, tool string, msgs []hook.Confirm) bool {
	start := t.now()
	defer func() { *t.waited += t.now().Sub(start) }()
	return t.Confirmer.Confirm(ctx, tool, msgs)
}

// CallTool runs one tool call outside a model turn, exactly as a model's
// call runs (input gate, before_tool_call, the tool, after_tool_call), and
// returns what the model would get. `synaps mcp serve` uses it, so a
// guard protects an MCP client's calls too. It needs no provider.
func (a *Agent) CallTool(ctx context.Context, id, name string, input json.RawMessage) tool.Result {
	b := a.runTool(ctx, llm.Block{Type: llm.BlockToolUse, ID: id, Name: name, Input: input})
	res := tool.Result{Output: b.Content, IsError: b.IsError}
	for _, im := range b.Images {
		if res.Media == nil {
			res.Media = &tool.Media{}
		}
		res.Media.Images = append(res.Media.Images, tool.Image{MediaType: im.MediaType, Data: im.Data})
	}
	return res
}

// Ask times an Asker's question, or a plain Confirmer's yes or no.
func (t timedConfirmer) Ask(ctx context.Context, q Question) Answer {
	start := t.now()
	defer func() { *t.waited += t.now().Sub(start) }()
	return askUser(ctx, t.Confirmer, q)
}
