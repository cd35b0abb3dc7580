package extension

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/memory"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool"
)

// Options configure a Host. Zero values take the documented defaults.
type Options struct {
	// BaseDir is $SYNAPS_BASE_DIR: plugins/, extensions/logs/,
	// extensions/intercept.jsonl and trusted-projects live there. Required.
	BaseDir string
	// ProjectDir is the project whose .synaps/plugins are considered;
	// "" for none.
	ProjectDir string
	// TrustProject trusts ProjectDir for this run (--trust-project).
	TrustProject bool
	// Config is the global config (disabled_plugins, extension.<id>.<key>).
	// Nil: empty.
	Config *config.File
	// Getenv reads the environment; nil: os.Getenv. Tests inject it.
	Getenv func(string) string
	// Version is sent as synaps_version in initialize.
	Version string
	// HookTimeout is the deadline of one hook.handle call. Default 5 s.
	HookTimeout time.Duration
	// Deadlines override the default deadline of other methods
	// (initialize 10 s, tool.call 120 s, provider.complete 60 s).
	Deadlines map[string]time.Duration
	// MaxBody is the largest frame body accepted, in bytes. Default 16 MiB.
	MaxBody int
	// Registry receives extension tools; nil: the host makes its own.
	Registry *tool.Registry
	// Progress, when set, hears which extensions are still starting: all
	// of them once discovered, then after each start ends (started or
	// failed) the rest, finally none. A UI shows them instead of a blank
	// screen. Calls do not overlap.
	Progress func(starting []string)
	// Trace receives trace records; nil: extensions/trace.jsonl when
	// SYNAPS_EXTENSIONS_TRACE is on, else none.
	Trace interface{ Write([]byte) (int, error) }
	// Notify receives what the user must see while the session runs, one
	// message at a time: a hook that timed out (once per extension), a
	// guard that is gone for good (on every tool call it would have
	// judged). The UI shows it (the TUI, stderr with -p). Nil: only the
	// extension's log has it.
	Notify func(string)
	// Links adds hook links that are not extension processes (Claude
	// command hooks) for the plugins of each start and reload; they join
	// the chain in plugin-id order with the extensions. Nil: none.
	Links func(plugins []*plugin.Plugin) hook.Table
	// KeepDisabledHooks keeps the hooks of config disabled_hooks in the
	// table, for a listing that shows them as disabled (Plan); a session
	// leaves it false, so they are never called.
	KeepDisabledHooks bool
	// PartHooks names the hooks a plugin's parts other than its
	// extension subscribe to (Claude command hooks), for Statuses' Hooks;
	// nil: only the extension's are listed.
	PartHooks func(p *plugin.Plugin) []string
	// Discovered, when set, is a discovery already made with this host's
	// options (the session's start shares one): Start or Begin uses it
	// instead of discovering again. Reload always discovers afresh.
	Discovered *Discovery
	// InitCache lets a tools-only extension whose initialize answer is
	// cached wait for its first call instead of starting now
	// (initcache.go). A session sets it; a listing, which exists to see
	// every extension start, leaves it off. SYNAPS_EXTENSIONS_INIT_CACHE=0
	// turns it off for a session too.
	InitCache bool
	// Hold, when set, keeps every extension process from being spawned
	// until it is closed (or the start's context ends). The terminal UI
	// holds them until its first frame is on the screen: a dozen
	// interpreters starting at once would otherwise take the machine's
	// CPUs from the frame the user waits for (issue 37, "ready to type").
	// Cached answers, discovery and the hook table do not wait.
	Hold <-chan struct{}
}

// hostEnv is the immutable part of the host that extensions share.
type hostEnv struct {
	getenv      func(string) string
	config      *config.File
	baseDir     string
	projectDir  string
	logDir      string
	version     string
	maxBody     int
	hookTimeout time.Duration
	deadlines   map[string]time.Duration
	trace       *tracer
	intercept   *interceptLog
	notify      *notifier
	// memory is the store behind memory.append and memory.query.
	memory *memory.Store
	// watchers are the config.changed subscriptions, by plugin dir.
	watchers configWatchers
	// stop are the waits of the stop sequence (tests shorten them).
	stop stopTimeouts
	// stall is how long an extension may leave jsonrpc.DefaultMaxInFlight
	// replies to its own requests unread before it is failed (tests
	// shorten it).
	stall time.Duration
	// initCache is Options.InitCache.
	initCache bool
	// startDeferredGuards starts every deferred extension of the running
	// set that hooks tool calls (Host.startDeferredGuards).
	startDeferredGuards func()
	// redeclared registers again the tools and hook places of an
	// extension whose fresh answer replaced its cached one
	// (Host.redeclared).
	redeclared func(*Extension)
	// hold is Options.Hold.
	hold <-chan struct{}
}

// defaultStall is hostEnv.stall. Reaching the in-flight bound already
// takes a pipe buffer full of unread replies (some 1,000 of them); an
// extension that reads its stdin at all catches up long before this.
const defaultStall = 10 * time.Second

func (h *hostEnv) deadline(method string) time.Duration {
	if d, ok := h.deadlines[method]; ok && d > 0 {
		return d
	}
	return contract.MethodDeadlines[method]
}

// Host discovers plugins, runs their extensions, registers their tools and
// dispatches hooks to them.
type Host struct {
	opts     Options
	env      *hostEnv
	registry *tool.Registry

	// chain runs hooks through the running set; its table is swapped
	// whole on start, reload and shutdown so a walk never takes a lock.
	chain *hook.Chain

	mu sync.Mutex
	// plugins is the last discovery, in id order. Guarded by mu.
	plugins []*plugin.Plugin
	// links are Options.Links' for plugins (Relink). Guarded by mu.
	links hook.Table
	// exts are the extensions of spawnable plugins, in id order. Guarded by mu.
	exts []*Extension
	// toolNames maps extension id to its tools' model-facing names.
	// Guarded by mu.
	toolNames map[string][]string
	// warnings are the non-fatal problems of the last discovery. Guarded
	// by mu.
	warnings []string
	// editors are the open settings editors' last renders, by plugin id
	// and field. Guarded by mu.
	editors map[string]EditorState
}

// NewHost prepares a host; Start spawns the extensions.
func NewHost(o Options) *Host {
	getenv := o.Getenv
	if getenv == nil {
		getenv = osGetenv
	}
	env := &hostEnv{
		getenv:      getenv,
		config:      o.Config,
		baseDir:     o.BaseDir,
		projectDir:  o.ProjectDir,
		logDir:      filepath.Join(o.BaseDir, "extensions", "logs"),
		version:     o.Version,
		maxBody:     o.MaxBody,
		hookTimeout: o.HookTimeout,
		deadlines:   o.Deadlines,
		intercept:   &interceptLog{path: filepath.Join(o.BaseDir, "extensions", "intercept.jsonl")},
		notify:      &notifier{f: o.Notify},
		memory:      memory.Open(filepath.Join(o.BaseDir, "memory")),
		stop:        defaultStop,
		stall:       defaultStall,
		initCache:   o.InitCache,
		hold:        o.Hold,
	}
	if env.hookTimeout <= 0 {
		env.hookTimeout = contract.MethodDeadlines[contract.MethodHookHandle]
	}
	if o.Trace != nil {
		env.trace = &tracer{w: o.Trace}
	} else if traceOn(getenv(TraceEnv)) {
		env.trace = &tracer{path: filepath.Join(o.BaseDir, "extensions", "trace.jsonl")}
	}
	reg := o.Registry
	if reg == nil {
		reg = tool.NewRegistry()
	}
	h := &Host{opts: o, env: env, registry: reg, toolNames: map[string][]string{}}
	env.startDeferredGuards = h.startDeferredGuards
	env.redeclared = h.redeclared
	h.chain = hook.NewChain(hook.Options{Timeout: env.hookTimeout, Record: env.intercept.record, Notify: env.notify.say,
		HideSessionID: sessionIDOff(getenv(HookSessionIDEnv))})
	return h
}

// HookSessionIDEnv set to 0 (or false, no, off) sends every hook event
// with session_id null: SynapsCLI's privacy switch, for users who would
// rather extensions could not tell sessions apart.
const HookSessionIDEnv = "SYNAPS_HOOK_SESSION_ID"

// sessionIDOff reads HookSessionIDEnv.
func sessionIDOff(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}

// SetConfig replaces the global config (disabled_plugins and extension
// settings) used by the next Start or Reload.
func (h *Host) SetConfig(cfg *config.File) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.opts.Config = cfg
	h.env.config = cfg
}

// SetTrustProject trusts the project's plugins for the rest of this run
// from the next Reload on (the terminal UI's "trust once").
func (h *Host) SetTrustProject(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.opts.TrustProject = on
}

// Registry is the tool registry extension tools are added to.
func (h *Host) Registry() *tool.Registry { return h.registry }

// Start discovers the plugins and starts every spawnable extension in
// parallel, waiting until each has answered initialize or failed. Plugins
// that fail are reported by Statuses; a plugins directory that cannot be
// read is a warning (Warnings), not an error: synaps starts with the
// plugins it could read. The error is always nil; it is kept for callers
// that may one day need it.
func (h *Host) Start(ctx context.Context) error {
	plugins, err := h.firstDiscovery()
	h.startWith(ctx, plugins, unjoinStrings(err), true)
	return nil
}

// Begin is Start without the wait: the extensions start in the
// background and each joins as soon as it is ready (its tools registered,
// its hooks exact in the chain). Meanwhile a starting extension already
// holds a place in the chain for every hook its permissions cover, and
// that place waits for its start (within the hook's deadline) before
// answering, so no call it would have judged goes by unjudged; a
// request's tools wait for the extensions that may register some
// (AwaitTools). A start that fails is said through Options.Notify. The
// terminal UI uses it: the user types and the first request goes out
// while guards that only watch tool calls are still starting.
func (h *Host) Begin(ctx context.Context) {
	plugins, err := h.firstDiscovery()
	h.startWith(ctx, plugins, unjoinStrings(err), false)
}

func (h *Host) discoverOptions() plugin.DiscoverOptions {
	h.mu.Lock()
	defer h.mu.Unlock()
	return plugin.DiscoverOptions{
		BaseDir:      h.opts.BaseDir,
		ProjectDir:   h.opts.ProjectDir,
		TrustProject: h.opts.TrustProject,
		Disabled:     h.opts.Config.List("disabled_plugins"),
		Verify:       verifyMode(h.opts.Config),
	}
}

// startWith starts the extensions of discovered plugins and makes them the
// running set. With wait it returns when every start has ended and
// registers the tools in plugin-id order (so a name clash always goes to
// the same plugin); without, each extension's tools and hooks join when
// its start ends.
func (h *Host) startWith(ctx context.Context, plugins []*plugin.Plugin, warnings []string, wait bool) {
	owners := configEnvOwners(plugins)
	var exts []*Extension
	for _, p := range plugins {
		if p.Spawnable() {
			e := newExtension(p, h.env)
			e.envOwners = owners
			exts = append(exts, e)
		}
	}
	var links hook.Table
	if h.opts.Links != nil {
		links = h.opts.Links(plugins)
	}
	off := h.disabledHooks()
	table := func() hook.Table {
		h.mu.Lock()
		l := h.links // Relink's, once it has run
		h.mu.Unlock()
		return assemble(exts, plugins, l, off)
	}
	h.mu.Lock()
	h.plugins, h.exts, h.toolNames, h.warnings, h.links = plugins, exts, map[string][]string{}, warnings, links
	h.mu.Unlock()
	if !wait {
		h.chain.Set(table()) // starting extensions hold their places
	}
	progress := h.opts.Progress
	if progress == nil {
		progress = func([]string) {}
	}
	var (
		pmu     sync.Mutex
		waiting = make([]string, len(exts))
	)
	for i, e := range exts {
		waiting[i] = e.ID()
	}
	progress(slices.Clone(waiting))
	var wg sync.WaitGroup
	for _, e := range exts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.start(ctx)
			live := !wait && h.current(e)
			if live {
				h.register(e)
			}
			// The start has ended for AwaitTools and the hooks only
			// once its tools are registered: the request that waited
			// for it lists them (the chain below is built from it).
			// Not under pmu: another extension's notice, said under
			// it, may wait for the terminal UI's loop, and that loop
			// for this start (/model with a model it provides).
			close(e.startDone)
			pmu.Lock()
			defer pmu.Unlock()
			if live {
				h.chain.Set(table())
				if state, reason, _, _, _ := e.snapshot(); state == StateFailed {
					h.env.notify.failedToLoad(e.ID(), reason)
				} else {
					// Loaded with a refused hook or a manifest note: it
					// works, but not as its author meant (LoadWarning).
					for _, w := range append(slices.Clone(e.plugin.Warnings), problems(e)...) {
						h.env.notify.say("%s", LoadWarning(e.ID(), w))
					}
				}
			}
			waiting = slices.DeleteFunc(waiting, func(id string) bool { return id == e.ID() })
			progress(slices.Clone(waiting))
		}()
	}
	if !wait {
		return
	}
	wg.Wait()
	for _, e := range exts {
		h.register(e)
	}
	h.chain.Set(table())
}

// LoadWarning is how a plugin's load warning is told where the user is
// (the start of -p, chat, rpc; a notice in the terminal UI): a hook
// refused for want of its permission leaves a guard that loads and never
// guards, which `synaps extensions list` alone would not make heard.
func LoadWarning(id, warning string) string {
	return fmt.Sprintf("plugin %s loaded with a warning: %s (`synaps extensions info %s` shows its warnings)", id, warning, id)
}

// problems are e's load notes (refused capabilities).
func problems(e *Extension) []string {
	_, _, p, _, _ := e.snapshot()
	return p
}

// current reports whether e belongs to the running set (not replaced by
// a reload or removed by a shutdown while it started).
func (h *Host) current(e *Extension) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Contains(h.exts, e)
}

// Warnings are the problems of the last discovery that did not stop it: a
// plugins directory that could not be read, an unreadable trusted-projects
// file. Each names the path and what to do.
func (h *Host) Warnings() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.warnings...)
}

func unjoinStrings(err error) []string {
	var out []string
	for _, e := range plugin.Errors(err) {
		out = append(out, e.Error())
	}
	return out
}

// Shutdown stops every extension in parallel and removes their tools and
// hooks. It returns when every process has been reaped.
func (h *Host) Shutdown() { h.ShutdownContext(context.Background()) }

// ShutdownContext is Shutdown, cut short when ctx ends: extensions still
// stopping are killed at once instead of being given their polite stop
// sequence (shutdown request, EOF, SIGTERM). A user's second Ctrl-C and
// the end-of-session budget end it this way.
func (h *Host) ShutdownContext(ctx context.Context) {
	h.mu.Lock()
	exts := h.exts
	// Nothing runs any more: the list must not show the plugins as loaded.
	h.plugins, h.exts, h.toolNames = nil, nil, map[string][]string{}
	h.mu.Unlock()
	h.chain.Set(hook.Table{})
	var wg sync.WaitGroup
	for _, e := range exts {
		h.registry.Remove(e.source())
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.stopContext(ctx)
		}()
	}
	wg.Wait()
}

// Reload discovers again and, only if every plugins directory could be
// read, stops the running set and starts the new one: added, removed and
// edited plugins are picked up. It is all or nothing: when discovery fails
// (say .synaps/plugins was turned into a file) the running extensions —
// fail-closed guards among them — keep running, and the error says why.
func (h *Host) Reload(ctx context.Context) error {
	plugins, err := plugin.Discover(h.discoverOptions())
	if err != nil {
		h.mu.Lock()
		n := len(h.exts)
		h.mu.Unlock()
		return fmt.Errorf("reload failed, so the %s already running %s running: %w", plural.Count(n, "extension"), plural.Pick(n, "keeps", "keep"), err)
	}
	h.Shutdown()
	h.startWith(ctx, plugins, nil, true)
	return nil
}

// Status is one plugin as /extensions list shows it.
type Status struct {
	ID          string       `json:"id"`
	Name        string       `json:"name,omitempty"`
	Version     string       `json:"version,omitempty"`
	Description string       `json:"description,omitempty"`
	Dir         string       `json:"dir"`
	Scope       plugin.Scope `json:"scope"`
	State       State        `json:"status"`
	Error       string       `json:"error,omitempty"`
	Warnings    []string     `json:"warnings,omitempty"`
	Tools       []string     `json:"tools,omitempty"`
	Hooks       []string     `json:"hooks,omitempty"`
	// Parts are what the plugin brings (extension, skills, claude-hooks).
	Parts []plugin.Part `json:"parts,omitempty"`
	// Format is the layout the plugin was written for (synaps,
	// claude-code, codex, open-plugins, gemini); empty when its manifest
	// did not load.
	Format plugin.Format `json:"format,omitempty"`
	// Commands, Settings and Sidecar are what a SynapsCLI manifest
	// declares: its commands (/<id>:<name>), settings categories, and
	// its sidecar's lifecycle word ("/word", or "yes" without one).
	Commands []string `json:"commands,omitempty"`
	Settings []string `json:"settings,omitempty"`
	Sidecar  string   `json:"sidecar,omitempty"`
	Restarts int      `json:"restarts,omitempty"`
	// LastCrash says why a degraded or restarting extension last went
	// down.
	LastCrash string `json:"last_crash,omitempty"`
	// Info is the extension's answer to info.get (SynapsCLI-dialect
	// extensions with tools or providers are asked once after initialize).
	Info json.RawMessage `json:"info,omitempty"`
	PID  int             `json:"pid,omitempty"`
	// Deferred: its tools came from the initialize cache and its process
	// starts at the first call of one of them (initcache.go).
	Deferred bool `json:"deferred,omitempty"`
	// Pin is the plugin against its install record (plugin.CheckPin),
	// filled in by the listings that show it (app.CheckPins), not by
	// Statuses, which the terminal UI calls on every redraw.
	Pin *plugin.PinCheck `json:"pin,omitempty"`
}

// Statuses lists every discovered plugin, loaded or not.
func (h *Host) Statuses() []Status {
	h.mu.Lock()
	plugins, exts, names := h.plugins, h.exts, h.toolNames
	h.mu.Unlock()
	off := h.disabledHooks() // turned off, so not hooked
	byID := map[string]*Extension{}
	for _, e := range exts {
		byID[e.ID()] = e
	}
	out := make([]Status, 0, len(plugins))
	for _, p := range plugins {
		st := Status{ID: p.ID, Dir: p.Dir, Scope: p.Scope, Warnings: p.Warnings}
		var partHooks []string
		if p.Err == nil && !p.Untrusted {
			st.Parts = p.Parts()
			// A disabled plugin hooks nothing, as its extension does
			// not run: its Claude Code hooks are not listed either.
			if h.opts.PartHooks != nil && !p.Disabled && slices.Contains(st.Parts, plugin.PartClaudeHooks) {
				partHooks = h.opts.PartHooks(p)
			}
		}
		if m := p.Manifest; m != nil {
			st.Name, st.Version, st.Description, st.Format = m.Name, m.Version, m.Description, m.Format
			for _, c := range m.Commands {
				st.Commands = append(st.Commands, "/"+p.ID+":"+c.Name)
			}
			for _, c := range m.Settings {
				st.Settings = append(st.Settings, c.ID)
			}
			if sc := m.Sidecar; sc != nil {
				st.Sidecar = "yes"
				if sc.Lifecycle != "" {
					st.Sidecar = "/" + sc.Lifecycle
				}
			}
		}
		switch e := byID[p.ID]; {
		case p.LoadErr() != nil:
			st.State, st.Error = StateFailed, p.LoadErr().Error()
			if p.Err == nil && len(st.Parts) > 0 {
				// The extension is broken but the plugin brings more.
				st.State = StatePartial
				st.Error = "partially loaded: its extension is invalid, so no process runs; its " + partNames(st.Parts) + " loaded:\n" + st.Error
			}
			if p.BrokenGuard != nil && !p.Disabled && !p.Untrusted {
				st.Warnings = append(append([]string(nil), st.Warnings...), plugin.BrokenGuardNote(p.BrokenGuard))
				for _, s := range p.BrokenGuard {
					if !slices.Contains(st.Hooks, s.Hook) {
						st.Hooks = append(st.Hooks, s.Hook)
					}
				}
			}
		case p.Disabled:
			st.State = StateDisabled
		case p.Untrusted && p.Held != "":
			st.State, st.Error = StateUntrusted, "project plugin "+p.Held+": its files are not what `synaps trust` approved; run `synaps trust` in the project to approve them, or pass --trust-project"
		case p.Untrusted:
			st.State, st.Error = StateUntrusted, "project plugins run only in trusted projects; run `synaps trust` in the project or pass --trust-project"
		case e == nil:
			st.State = StateLoaded // skills-only plugin: nothing to run
		default:
			state, reason, problems, restarts, pid := e.snapshot()
			st.State, st.Restarts, st.PID = state, restarts, pid
			st.Deferred = e.isDeferred()
			switch state {
			case StateFailed:
				st.Error = reason
			case StateDegraded, StateRestarting:
				st.LastCrash = reason
			}
			st.Warnings = append(append([]string(nil), st.Warnings...), problems...)
			st.Tools = names[p.ID]
			st.Info = e.Info()
			if !e.started() {
				break // its subscriptions are not known yet
			}
			_, subs := e.declared()
			for _, s := range subs {
				if !slices.Contains(st.Hooks, s.Hook) && !off.Has(hook.ExtensionHookID(p.ID, s.Hook)) {
					st.Hooks = append(st.Hooks, s.Hook)
				}
			}
		}
		st.Hooks = mergeNames(st.Hooks, partHooks)
		out = append(out, st)
	}
	return out
}

// partNames lists parts for a message ("skills, commands").
func partNames(parts []plugin.Part) string {
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}

// WaitInfo waits until every info.get asked after initialize has been
// answered or has timed out (5 s at most), or ctx ends. A session does not
// wait; a one-off listing does, so it shows the answers.
func (h *Host) WaitInfo(ctx context.Context) {
	h.mu.Lock()
	exts := h.exts
	h.mu.Unlock()
	for _, e := range exts {
		e.mu.Lock()
		done := e.infoDone
		e.mu.Unlock()
		if done == nil {
			continue
		}
		select {
		case <-done:
		case <-ctx.Done():
			return
		}
	}
}

// Logs returns up to n recent log lines of a running extension (stderr and
// synaps's notes), oldest first.
func (h *Host) Logs(id string, n int) ([]string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range h.exts {
		if e.ID() == id {
			return e.log.lines(n), true
		}
	}
	return nil, false
}

// RunHook dispatches one event through its chain.
func (h *Host) RunHook(ctx context.Context, ev hook.Event) hook.Decision {
	return h.chain.Run(ctx, ev)
}

// Subscribed reports whether any link holds a place for the hook kind,
// so that a caller can skip building an event nobody hears.
func (h *Host) Subscribed(kind string) bool { return h.chain.Subscribed(kind) }

// BeforeToolCall runs before_tool_call for a tool call and settles confirm
// requests (hook.Chain.BeforeToolCall).
func (h *Host) BeforeToolCall(ctx context.Context, spec tool.Spec, input json.RawMessage, sessionID string, c hook.Confirmer) hook.Decision {
	return h.chain.BeforeToolCall(ctx, spec.Name, spec.RuntimeName, input, sessionID, c)
}

// RecordDeclined notes in the intercept log that the user declined
// extension id's confirm for a call of spec (hook.Chain.RecordDeclined).
func (h *Host) RecordDeclined(spec tool.Spec, sessionID, id string) {
	h.chain.RecordDeclined(spec.RuntimeName, sessionID, id)
}

// AfterToolCall runs after_tool_call; Decision.Output is the replaced
// output when an extension replaced it.
func (h *Host) AfterToolCall(ctx context.Context, spec tool.Spec, input json.RawMessage, output string, isError bool, sessionID string) hook.Decision {
	return h.chain.AfterToolCall(ctx, spec.Name, spec.RuntimeName, input, output, isError, sessionID)
}

// AfterToolResult is AfterToolCall with the tool's whole result, which
// links that report more than its text read (hook.Event.ToolDetail).
func (h *Host) AfterToolResult(ctx context.Context, spec tool.Spec, input json.RawMessage, res tool.Result, sessionID string) hook.Decision {
	if !h.chain.Subscribed(contract.HookAfterToolCall) {
		return hook.Decision{} // nobody listens: the result is not boxed for nothing
	}
	return h.chain.AfterToolResult(ctx, spec.Name, spec.RuntimeName, input, res.Output, res.IsError, sessionID, res)
}

// mergeNames adds the names of more that a are missing, in order.
func mergeNames(a, more []string) []string {
	for _, n := range more {
		if !slices.Contains(a, n) {
			a = append(a, n)
		}
	}
	return a
}
