// Package agent is the loop at the centre of synaps: it sends the
// conversation to the model, streams the reply, runs the tool calls the
// model makes through the extension hooks, and repeats until the model
// stops. It has no UI: everything a UI shows arrives as Events.
package agent

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/permission"
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
	// RequiredGuards are the guards (report ids, or plugin names) that
	// must judge every tool call they match (config required_guards): a
	// call one of them did not judge — it is dead, not started, disabled
	// — is blocked, naming it.
	RequiredGuards []string
	// Skipped are hooks configured here but not run (an untrusted
	// project's Claude hooks), named in every call's report.
	Skipped []SkippedLink
	// ApproveConfirms answers extensions' confirm requests with yes
	// (--auto-approve-confirms); permission questions are still asked.
	ApproveConfirms bool
	// DeferCalls: a hook's "defer" ends the turn before the call,
	// resumable from it (deferred.go); a headless run (-p) sets it.
	// Without it a defer is a confirm.
	DeferCalls bool
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
	// Instructions are the instructions files the system prompt holds
	// (PromptInput.Loaded), for on_instructions_loaded at session start.
	Instructions []Instructions
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
	// deferred collects the calls a hook deferred (deferred.go).
	deferred deferrals
	// refusedPictures is how many of the session's first messages have
	// their pictures left out: the API refused a request for one.
	refusedPictures int
	// steer is text sent while a turn runs (Steer).
	steer steering
	// next holds hook context for the next user message (AddContext).
	next nextContext
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
	a.instructionsLoaded(ctx, source)
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
