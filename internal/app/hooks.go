package app

// The hooks of a directory as a user sees them (`synaps hooks`, /hooks):
// every link of every hook's chain, in the order the chain runs them, with
// the permission rules and mode after before_tool_call's links — they
// judge the call the links let through, in that order (agent.permit,
// permission.Policy.Decide). The table is the one a session builds
// (extension.Host.Plan: buildTable, the Claude links, hook.Table.Sort);
// this file only adds the links that do not run here, each with why, and
// says what each is.

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/claude"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/tool"
	"github.com/synaps-cli/synaps/internal/trust"
)

// HookList is every hook of a directory, in chain order (`synaps hooks
// --json`; docs/hooks-debugging.md documents the schema).
type HookList struct {
	// Dir is the project directory the list is for.
	Dir string `json:"dir"`
	// Started: the extensions were started to learn what they subscribe
	// to (--start); otherwise their manifests said it.
	Started bool `json:"started"`
	// Hooks are the links, event by event (contract order), each event's
	// in chain order.
	Hooks []HookInfo `json:"hooks"`
	// Warnings are what reading the hooks met (a Claude hook type or
	// event synaps does not run, a plugin directory it could not read).
	Warnings []string `json:"warnings"`
}

// HookInfo is one link of a chain.
type HookInfo struct {
	// ID is the hook's stable id: `synaps hooks disable ID` takes it,
	// and a per-call report names the hook by it. Permission rows have
	// the ids a report names them by ("rule:Bash(rm:*)", "mode:default")
	// but are changed in the config, not disabled.
	ID string `json:"id"`
	// Event is the synaps hook (before_tool_call …); ClaudeEvent the
	// Claude Code event a Claude hook is written for.
	Event       string `json:"event"`
	ClaudeEvent string `json:"claude_event,omitempty"`
	// Position is the link's place in the event's chain, from 1; links
	// that do not run are placed where they would run.
	Position int `json:"position"`
	// Kind is "extension", "claude" or "permission".
	Kind string `json:"kind"`
	// Source is the plugin id, "claude-project", "claude-user", or for
	// a permission rule where it was written.
	Source string `json:"source"`
	// Matcher says which calls it is asked about ("*": all; "" for
	// events that are not about a tool).
	Matcher string `json:"matcher"`
	// Command is a Claude hook's command line.
	Command string `json:"command,omitempty"`
	// File is where the hook is declared.
	File string `json:"file,omitempty"`
	// Status is "running", "disabled", "skipped" or "failed"; Why says
	// why for all but running (and notes for running ones).
	Status string `json:"status"`
	Why    string `json:"why,omitempty"`
	// TimeoutMS is how long the chain waits for it (0 for permissions).
	TimeoutMS int64 `json:"timeout_ms"`
	// FailClosed: its failure blocks the call (failure_policy closed,
	// claude.fail_closed); otherwise the call goes on without it.
	FailClosed bool `json:"fail_closed"`
}

// Hook statuses.
const (
	HookRunning  = "running"
	HookDisabled = "disabled"
	HookSkipped  = "skipped"
	HookFailed   = "failed"
)

// ListHooks lists the hooks of o.WorkDir without opening a session.
// With start, the extensions are started (and stopped) to learn what
// they subscribe to at initialize; without, their manifests say it.
func ListHooks(ctx context.Context, o Options, start bool) (*HookList, error) {
	a, err := openLister(o)
	if err != nil {
		return nil, err
	}
	return a.listHooks(ctx, start, nil)
}

// ListHooks lists the hooks of the running session: the statuses of its
// extensions (failed, restarting) are the running ones.
func (a *App) ListHooks(ctx context.Context) (*HookList, error) {
	l, err := openLister(a.opts)
	if err != nil {
		return nil, err
	}
	// The session's own policy: its mode may have been switched, and
	// "always" answers added rules, since it opened.
	l.BaseDir, l.WorkDir, l.Permissions = a.BaseDir, a.WorkDir, a.Permissions
	return l.listHooks(ctx, false, a.Statuses())
}

// openLister is the part of Open a listing needs: config, permissions,
// the Claude hook finder. Nothing is started.
func openLister(o Options) (*App, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	base, work, cfg, err := dirsOf(o)
	if err != nil {
		return nil, err
	}
	a := &App{BaseDir: base, WorkDir: work, Config: cfg, opts: o}
	a.claude = &claudeHooks{a: a}
	if err := a.openPermissions(); err != nil {
		return nil, err
	}
	// What trust lets load, item by item, as a session would see it;
	// a listing records nothing (openTrust's upgrade of a path-only
	// entry is a session's to do).
	listed, _ := plugin.IsTrusted(base, work)
	a.trust = trust.Evaluate(base, work, listed, o.TrustProject)
	return a, nil
}

// listedSource is what a listing knows of a link beyond the table.
type listedSource struct {
	claude *claudeSource
	// skip, failed: the link does not run here, and why.
	skip   string
	failed bool
}

// skippedLink holds the place of an extension that does not run here
// (a disabled or untrusted plugin), so that the table's own sort places
// it. It is never called.
type skippedLink struct{ id string }

func (s *skippedLink) ID() string { return s.id }
func (s *skippedLink) Handle(context.Context, contract.HookSpec, *hook.Event, json.RawMessage) (hook.Result, error) {
	return hook.Result{Action: contract.ActionContinue}, nil
}
func (s *skippedLink) InputFault(error) string { return "" }
func (s *skippedLink) Gone() string            { return "" }

func (a *App) listHooks(ctx context.Context, start bool, running []extension.Status) (*HookList, error) {
	sources := map[hook.Link]listedSource{}
	list := &HookList{Dir: a.WorkDir, Started: start, Hooks: []HookInfo{}, Warnings: []string{}}
	host := extension.NewHost(extension.Options{
		BaseDir: a.BaseDir, ProjectDir: a.WorkDir, TrustProject: a.opts.TrustProject, Config: a.Config,
		Getenv: a.opts.Getenv, Version: a.opts.Version, Registry: tool.NewRegistry(), HookTimeout: hookTimeout(a.Config),
		KeepDisabledHooks: true,
		Links: func(plugins []*plugin.Plugin) hook.Table {
			t, links := a.claude.build(a.claude.sources(plugins, true), true)
			for l, s := range links {
				sources[l] = listedSource{claude: &s, skip: s.skip, failed: s.failed}
			}
			return t
		},
	})
	var table hook.Table
	var plugins []*plugin.Plugin
	if start {
		if err := host.Start(ctx); err != nil {
			return nil, err
		}
		defer host.Shutdown()
		table, plugins = host.Table(), host.Plugins()
		list.Warnings = append(list.Warnings, host.Warnings()...)
		running = host.Statuses()
	} else {
		var warnings []string
		table, plugins, warnings = host.Plan()
		list.Warnings = append(list.Warnings, warnings...)
	}
	list.Warnings = append(list.Warnings, a.claude.takeWarnings()...)
	list.Warnings = append(list.Warnings, a.Notes...)
	table = a.withSkipped(table, plugins, sources)
	byID := map[string]*plugin.Plugin{}
	for _, p := range plugins {
		byID[p.ID] = p
	}
	state := map[string]extension.Status{}
	for _, s := range running {
		state[s.ID] = s
	}
	off := hook.NewDisabled(a.Config.List(config.KeyDisabledHooks))
	timeout := cmp.Or(hookTimeout(a.Config), contract.MethodDeadlines[contract.MethodHookHandle])
	for _, spec := range contract.Hooks {
		pos := 0
		for _, e := range table[spec.Name] {
			for _, h := range a.describe(spec, e, sources[e.Link], byID[e.Link.ID()], state, timeout, start) {
				pos++
				h.Position = pos
				// Off wins over running and failed: the chain does not
				// hold it, so it neither runs nor fails.
				if h.Status != HookSkipped && off.Has(h.ID) {
					h.Status, h.Why = HookDisabled, "turned off in "+a.Config.Path+" ("+config.KeyDisabledHooks+"); `synaps hooks enable "+h.ID+"` turns it on"
				}
				list.Hooks = append(list.Hooks, h)
			}
		}
		if spec.Name == contract.HookBeforeToolCall {
			for _, h := range a.permissionRows() {
				pos++
				h.Position = pos
				list.Hooks = append(list.Hooks, h)
			}
		}
	}
	return list, nil
}

// withSkipped adds to t the places of the extensions that do not run
// here (a disabled or untrusted plugin; one that did not load and is no
// broken guard), then sorts it as the chain does.
func (a *App) withSkipped(t hook.Table, plugins []*plugin.Plugin, sources map[hook.Link]listedSource) hook.Table {
	for _, p := range plugins {
		if p.Manifest == nil || p.Manifest.Extension == nil || p.Spawnable() || (p.BrokenGuard != nil && !p.Disabled && !p.Untrusted) {
			continue
		}
		skip, failed := a.notRunning(p)
		l := &skippedLink{id: p.ID}
		sources[l] = listedSource{skip: skip, failed: failed}
		m := p.Manifest.Extension
		byHook := map[string][]hook.Subscription{}
		for _, s := range m.Hooks {
			byHook[s.Hook] = append(byHook[s.Hook], s)
		}
		if len(m.Hooks) == 0 {
			for _, spec := range contract.Hooks {
				if m.Permissions.PermitsHook(spec.Name) {
					byHook[spec.Name] = nil
				}
			}
		}
		for name, subs := range byHook {
			t[name] = append(t[name], &hook.Entry{Link: l, Subs: subs, FailClosed: m.FailurePolicy == "closed"})
		}
	}
	t.Sort()
	return t
}

// describe is one table entry as rows: one for an extension's place, one
// per command for a Claude hooks file.
func (a *App) describe(spec contract.HookSpec, e *hook.Entry, src listedSource, p *plugin.Plugin, running map[string]extension.Status, timeout time.Duration, started bool) []HookInfo {
	status, why := HookRunning, ""
	if src.skip != "" {
		status, why = HookSkipped, src.skip
		if src.failed {
			status = HookFailed
		}
	}
	if cl, ok := e.Link.(*claude.Link); ok && src.claude != nil {
		return claudeRows(spec, e, cl, src.claude, status, why)
	}
	h := HookInfo{
		ID: hook.ExtensionHookID(e.Link.ID(), spec.Name), Event: spec.Name, Kind: "extension", Source: e.Link.ID(),
		Matcher: subsMatcher(spec, e.Subs), Status: status, Why: why,
		TimeoutMS: cmp.Or(e.Timeout, timeout).Milliseconds(), FailClosed: e.FailClosed,
	}
	if p != nil {
		h.File = p.Dir
		if p.Manifest != nil && p.Manifest.File != "" {
			h.File = p.Manifest.File
		}
	}
	switch st, ok := running[e.Link.ID()]; {
	case h.Status != HookRunning:
	case p != nil && p.BrokenGuard != nil && p.LoadErr() != nil:
		// A fail-closed plugin whose manifest did not load: its place
		// answers every call with the load error, which blocks.
		h.Status, h.Why = HookFailed, "its manifest did not load, and its failure_policy is closed, so the calls it guards are blocked: "+firstLine(p.LoadErr().Error())
	case ok && st.State == extension.StateFailed:
		why := "the extension failed to start: " + firstLine(st.Error)
		if e.FailClosed {
			why += "; its failure_policy is closed, so the calls it guards are blocked"
		}
		h.Status, h.Why = HookFailed, why
	case !started && p != nil && p.Manifest != nil && p.Manifest.Extension != nil && len(p.Manifest.Extension.Hooks) == 0:
		h.Why = "it subscribes when it starts (its manifest declares no hooks), so its place covers every call its permissions allow; `synaps hooks --start` shows what it subscribes to"
	}
	return []HookInfo{h}
}

// claudeRows are the commands of one Claude hooks file that answer spec.
func claudeRows(spec contract.HookSpec, e *hook.Entry, l *claude.Link, src *claudeSource, status, why string) []HookInfo {
	events := claude.EventsOf(spec.Name)
	var out []HookInfo
	for _, nh := range l.Hooks.Numbered() {
		if !slices.Contains(events, nh.Event) {
			continue
		}
		m := nh.Matcher
		if m == "" && spec.ToolFilter {
			m = "*"
		}
		if nh.Handler.If != "" {
			m += " if " + nh.Handler.If
		}
		status, why := status, why
		if w := claude.NotRunWhy(nh.Handler); w != "" && status == HookRunning {
			status, why = HookSkipped, w
		}
		out = append(out, HookInfo{
			ID: hook.ClaudeHookID(src.key, nh.Event, src.offset[nh.Event]+nh.N), Event: spec.Name, ClaudeEvent: nh.Event,
			Kind: "claude", Source: src.id, Matcher: m, Command: nh.Handler.Command, File: src.file,
			Status: status, Why: why, FailClosed: e.FailClosed,
			TimeoutMS: int64(claude.TimeoutOf(nh.Event, nh.Handler) * 1000),
		})
	}
	return out
}

// subsMatcher says which calls an extension's subscriptions to one hook
// cover.
func subsMatcher(spec contract.HookSpec, subs []hook.Subscription) string {
	if !spec.ToolFilter {
		return ""
	}
	var parts []string
	for _, s := range subs {
		part := s.Tool
		if part == "" {
			part = "*"
		}
		if m := s.Match; m != nil {
			if m.InputContains != nil {
				part += fmt.Sprintf(" input_contains %q", *m.InputContains)
			}
			if m.InputEquals != nil {
				part += " input_equals " + string(m.InputEquals)
			}
		}
		parts = append(parts, part)
		if part == "*" {
			return "*"
		}
	}
	if len(parts) == 0 {
		return "*"
	}
	return strings.Join(parts, " | ")
}

// permissionRows are the permission policy as links after the hooks of
// before_tool_call, in the order Policy.Decide reads them: deny rules,
// ask rules, allow rules, then the mode.
func (a *App) permissionRows() []HookInfo {
	if a.Permissions == nil {
		return nil
	}
	var out []HookInfo
	rules := a.Permissions.Rules()
	for _, k := range []struct {
		kind  string
		rules []permission.Rule
	}{{"deny", rules.Deny}, {"ask", rules.Ask}, {"allow", rules.Allow}} {
		for _, r := range k.rules {
			out = append(out, HookInfo{
				ID: "rule:" + r.Text, Event: contract.HookBeforeToolCall, Kind: "permission",
				Source: r.Source, Matcher: r.Text, Status: HookRunning,
			})
		}
	}
	mode := a.Permissions.Mode()
	out = append(out, HookInfo{
		ID: "mode:" + string(mode), Event: contract.HookBeforeToolCall, Kind: "permission", Source: "permission_mode",
		Matcher: "*", Status: HookRunning, Why: string(mode) + " mode: " + mode.Describe(),
	})
	return out
}

// notRunning says why plugin p's hooks do not run in a session ("" when
// they do); failed marks a failure rather than a choice. The Claude hook
// sources and the extension rows of a listing both say it this way.
func (a *App) notRunning(p *plugin.Plugin) (why string, failed bool) {
	switch {
	case p.Err != nil:
		return "the plugin did not load: " + firstLine(p.Err.Error()), true
	case p.Disabled:
		return "plugin disabled (disabled_plugins); `synaps extensions enable " + p.ID + "` turns it on", false
	case p.Untrusted:
		return a.untrustedWhy(), false
	}
	return "", false
}
