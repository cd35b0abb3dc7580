package app

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/claude"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/trust"
)

// Config keys of Claude Code compatibility.
const (
	// KeyClaudeUserHooks = false turns off the user's own Claude Code
	// configuration: the hooks of ~/.claude/settings.json, ~/.claude/
	// commands and agents, and the MCP servers of ~/.claude.json. They
	// are read by default: they are the user's own guards, and a guard
	// skipped because it was written for Claude Code lets its rm -rf run.
	KeyClaudeUserHooks = "claude.import_user_hooks"
	// KeyClaudeFailClosed lists the Claude hook sources (plugin ids,
	// "claude-project", "claude-user") whose failures block the tool call
	// instead of being skipped.
	KeyClaudeFailClosed = "claude.fail_closed"
)

// Link ids of the settings files' hooks; plugins' hooks go by plugin id.
const (
	claudeProjectID = "claude-project"
	claudeUserID    = "claude-user"
	// claudeFlagID is the link of --settings' hooks.
	claudeFlagID = "claude-settings-flag"
)

// claudeHooks finds the Claude Code command hooks of a session and makes
// them links of the hook chain: every enabled plugin's (hooks/hooks.json
// or its manifest's "hooks"), a trusted project's .claude/settings.json
// and .claude/settings.local.json (each hook group as trust allows it),
// and ~/.claude/settings.json unless claude.import_user_hooks is false.
// The extension host calls it at each
// start and reload. Problems are said once per start (notes), never
// silently dropped.
type claudeHooks struct {
	a *App

	mu       sync.Mutex
	warnings []string
	// hooks are the synaps hooks each source's links answer, by id, as
	// the last table built them: what listings show, without reading
	// the files again (the TUI lists every two seconds).
	hooks map[string][]string
	// settingsHooks counts the running hooks of settings files (not a
	// plugin's: those count with their plugin), for the status line.
	settingsHooks int
	tr            *claude.Transcript
	// promptID names the user prompt being answered (newPrompt).
	promptID   string
	promptKept bool
	// seen are the settings files as the session last looked at them,
	// held those whose change a ConfigChange hook blocked, as the
	// session keeps them (configchange.go).
	seen, held map[string]settingsFile
}

// claudeSource is one file of Claude hooks.
type claudeSource struct {
	// id is the link's id in the chain: the plugin id, claudeProjectID
	// or claudeUserID.
	id string
	// key is the source in the hooks' stable ids (hook.ClaudeHookID):
	// "plugin:<id>", "project", "local" or "user".
	key        string
	root, file string
	data       []byte
	sandbox    *plugin.Sandbox
	// dialect rewrites payloads for another agent's hooks (nil: none).
	dialect func([]byte) []byte
	// skip says why the file's hooks do not run in this session; only a
	// listing (sources with all) has such sources.
	skip string
	// failed: skip is a failure (a plugin that did not load), not a
	// choice.
	failed bool
	// offset is, by Claude event, how many hooks the source's earlier
	// files hold (build sets it): the first number of this file's.
	offset map[string]int
	// optEnv are the plugin's user options as CLAUDE_PLUGIN_OPTION_<KEY>
	// (userconfig.go).
	optEnv []string
}

// table builds the links for plugins.
func (c *claudeHooks) table(plugins []*plugin.Plugin) hook.Table {
	t, _ := c.build(c.sources(plugins, false), false)
	return t
}

// sources finds the Claude hook files of a session. With all, it also
// returns those that do not run here (a disabled or untrusted plugin, an
// untrusted project, user hooks not imported), each with why, for a
// listing; a session's chain is built without them.
func (c *claudeHooks) sources(plugins []*plugin.Plugin, all bool) []claudeSource {
	a := c.a
	var sources []claudeSource
	for _, p := range plugins {
		skip, failed := a.notRunning(p)
		if skip != "" && !all {
			continue
		}
		files, err := p.ClaudeHooks()
		if err != nil && skip == "" {
			c.warn(fmt.Sprintf("plugin %s: %v", p.ID, err))
		}
		// In file order, so that a plugin's chain order is the same at
		// every start.
		var sb *plugin.Sandbox
		var dialect func([]byte) []byte
		if p.Manifest != nil {
			sb = p.Manifest.Sandbox
			if p.Manifest.Format == plugin.FormatGemini {
				dialect = plugin.GeminiPayload
			}
		}
		opts := OptionValues(a.BaseDir, a.Config, p)
		for _, f := range slices.Sorted(maps.Keys(files)) {
			sources = append(sources, claudeSource{id: p.ID, key: "plugin:" + p.ID, root: p.Dir, file: f, data: expandOptions(files[f], opts), sandbox: sb, dialect: dialect, skip: skip, failed: failed, optEnv: OptionEnv(opts)})
		}
	}
	settings := func(id, key, file, skip string, filter func([]byte) []byte) {
		data, err := c.readSettings(key, file, !all && skip == "")
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil && skip == "":
			c.warn(fmt.Sprintf("Claude hooks of %s not loaded: %v", id, err))
		case err == nil:
			if filter != nil && skip == "" {
				data = filter(data)
			}
			sources = append(sources, claudeSource{id: id, key: key, file: file, data: data, skip: skip})
		}
	}
	projectSkip := ""
	if !a.projectTrusted() {
		projectSkip = a.untrustedWhy()
	}
	if projectSkip == "" || all {
		// Each hook group loads only as `synaps trust` approved it: an
		// edited or added one is held back (and named at start).
		for i, rel := range trust.SettingsFiles {
			rel := rel
			key := "project"
			if i > 0 {
				key = "local"
			}
			settings(claudeProjectID, key, filepath.Join(a.WorkDir, filepath.FromSlash(rel)), projectSkip, func(data []byte) []byte {
				return trust.FilterSettings(rel, data, a.trustAllows)
			})
		}
	}
	userSkip := ""
	if !importClaudeUser(a.Config.Get) {
		userSkip = "Claude Code's user hooks are turned off (" + KeyClaudeUserHooks + " = false in the synaps config)"
	}
	if userSkip == "" || all {
		if home := a.opts.Getenv("HOME"); home != "" {
			settings(claudeUserID, "user", filepath.Join(home, ".claude", "settings.json"), userSkip, nil)
		}
	}
	// --settings: the user gave them for this run, as trusted as the
	// command line itself.
	for _, s := range a.opts.ClaudeSettings {
		sources = append(sources, claudeSource{id: claudeFlagID, key: "flag", file: s.File, data: s.Data})
	}
	return sources
}

// build makes the sources' links. For a session (listing false) the
// hooks config disabled_hooks names are left out, so they are never
// started, and each plugin gets its data directory and sandbox. For a
// listing every hook stays, and links maps each link to its source.
func (c *claudeHooks) build(sources []claudeSource, listing bool) (t hook.Table, links map[hook.Link]claudeSource) {
	a := c.a
	closed := map[string]bool{}
	for _, id := range a.Config.List(KeyClaudeFailClosed) {
		closed[id] = true
	}
	off := hook.NewDisabled(a.Config.List(config.KeyDisabledHooks))
	// A source's later files number their hooks on from its earlier
	// ones, so that every id of a plugin is its own.
	offsets := map[string]map[string]int{}
	env := a.env
	t, links = hook.Table{}, map[hook.Link]claudeSource{}
	names := map[string][]string{}
	settingsHooks := 0
	for _, s := range sources {
		h, warnings, err := claude.Parse(s.file, s.data)
		for _, w := range warnings {
			c.warn("Claude hooks: " + w)
		}
		if err != nil {
			c.warn(fmt.Sprintf("Claude hooks not loaded: %v", err))
			continue
		}
		if offsets[s.key] == nil {
			offsets[s.key] = map[string]int{}
		}
		base := offsets[s.key]
		s.offset = maps.Clone(base)
		h = h.WithIDs(func(event string, n int) string { return hook.ClaudeHookID(s.key, event, base[event]+n) })
		full := h
		if !listing {
			h = h.Without(func(event string, n int) bool { return off.Has(hook.ClaudeHookID(s.key, event, base[event]+n)) })
		}
		for _, nh := range full.Numbered() {
			base[nh.Event]++
		}
		l := &claude.Link{
			Name: s.id, Key: s.key, Hooks: h, Env: slices.Concat(env, s.optEnv), ProjectDir: a.WorkDir, PluginRoot: s.root, Dialect: s.dialect,
			Session: c.session, Ask: a.askClaudeHook, Wake: a.wakeFromHook, CallTool: a.callHookTool, Title: a.titleFromHook, ReloadSkills: a.reloadSkillsFromHook,
			Notify: func(id, text string) {
				if a.opts.OnEvent != nil {
					a.opts.OnEvent(agent.Event{Type: agent.EventNotice, Text: fmt.Sprintf("%s hook: %s", id, text)})
				}
			},
		}
		switch {
		case listing:
			links[l] = s
		case s.root != "":
			l.PluginData = filepath.Join(a.BaseDir, "plugin-data", s.id)
			_ = os.MkdirAll(l.PluginData, 0o700)
			l.Policy = a.pluginPolicy(s.id, s.root, s.sandbox)
		default:
			l.Policy = a.unownedPolicy("Claude hooks of " + s.id)
			settingsHooks += len(h.Numbered())
		}
		names[s.id] = subscribedHooks(names[s.id], h)
		for _, sub := range l.Subscriptions() {
			t[sub.Hook] = append(t[sub.Hook], &hook.Entry{
				Link: l, Subs: []hook.Subscription{sub}, FailClosed: closed[s.id], Transform: true,
				Timeout: entryTimeout(h),
			})
		}
	}
	if !listing {
		c.mu.Lock()
		c.hooks, c.settingsHooks = names, settingsHooks
		c.mu.Unlock()
	}
	return t, links
}

// names is extension.Options.PartHooks for a session: the synaps hooks
// p's Claude hooks answer in the running chain.
func (c *claudeHooks) names(p *plugin.Plugin) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hooks[p.ID]
}

func (c *claudeHooks) warn(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.warnings = append(c.warnings, s)
}

// takeWarnings returns the warnings gathered since the last call.
func (c *claudeHooks) takeWarnings() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.warnings
	c.warnings = nil
	return w
}

// session is what a payload carries about the session: its id, the
// Claude-shaped transcript mirror (brought up to date first, since hooks
// read it), the project and the permission mode.
func (c *claudeHooks) session(id string) claude.Session {
	a := c.a
	s := claude.Session{ID: id, Cwd: a.WorkDir, PermissionMode: "default"}
	if a.Permissions != nil {
		s.PermissionMode = string(a.Permissions.Mode())
	}
	s.PromptID = c.prompt()
	if e := a.effort; e != "" && e != llm.EffortOff {
		s.Effort = string(e) // the level in force, as CLAUDE_EFFORT
	}
	if a.Session == nil {
		return s
	}
	c.mu.Lock()
	if c.tr == nil || c.tr.SessionID != a.Session.ID {
		c.tr = &claude.Transcript{Path: claude.TranscriptPath(a.BaseDir, a.Session.ID), SessionID: a.Session.ID, Cwd: a.WorkDir}
	}
	tr := c.tr
	c.mu.Unlock()
	if err := tr.Sync(a.Session.View()); err == nil {
		s.TranscriptPath = tr.Path
	}
	return s
}

// entryTimeout is how long the chain waits for a file's hooks: the
// longest handler's timeout (Claude's default when one sets none) and a
// second to spare, so that a hook's own timeout is what stops it.
func entryTimeout(h claude.Hooks) time.Duration {
	longest := 0.0
	for ev, groups := range h.Events {
		for _, g := range groups {
			for _, hd := range g.Handlers {
				longest = max(longest, claude.TimeoutOf(ev, hd))
			}
		}
	}
	return time.Duration(longest*float64(time.Second)) + time.Second
}

// projectTrusted reports whether the session's project is trusted
// (--trust-project or `synaps trust`): only then are its .claude files
// read, as its .synaps plugins are.
func (a *App) projectTrusted() bool {
	if a.opts.TrustProject {
		return true
	}
	if a.trust != nil {
		return a.trust.Listed
	}
	ok, _ := plugin.IsTrusted(a.BaseDir, a.WorkDir)
	return ok
}

// untrustedWhy says why a project's files do not run: the hook point of
// project trust (`synaps trust`). Whatever more trust learns to say of a
// project (changed since it was trusted) is said here, and every listing
// and skip reads it.
func (a *App) untrustedWhy() string {
	return "the project is not trusted; `synaps trust` here (or --trust-project) runs its hooks"
}
