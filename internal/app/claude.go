package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/claude"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/safefile"
)

// Config keys of Claude Code compatibility.
const (
	// KeyClaudeUserHooks turns on the hooks of ~/.claude/settings.json
	// (off by default: they were written for Claude Code, and a user opts
	// in to running them here too).
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
)

// claudeHooks finds the Claude Code command hooks of a session and makes
// them links of the hook chain: every enabled plugin's (hooks/hooks.json
// or its manifest's "hooks"), a trusted project's .claude/settings.json
// and .claude/settings.local.json, and ~/.claude/settings.json when
// claude.import_user_hooks is true. The extension host calls it at each
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
	tr    *claude.Transcript
}

// table builds the links for plugins.
func (c *claudeHooks) table(plugins []*plugin.Plugin) hook.Table {
	a := c.a
	type source struct {
		id, root, file string
		data           []byte
		sandbox        *plugin.Sandbox
	}
	var sources []source
	for _, p := range plugins {
		if p.Err != nil || p.Disabled || p.Untrusted {
			continue
		}
		files, err := p.ClaudeHooks()
		if err != nil {
			c.warn(fmt.Sprintf("plugin %s: %v", p.ID, err))
		}
		for f, data := range files {
			sources = append(sources, source{p.ID, p.Dir, f, data, p.Manifest.Sandbox})
		}
	}
	settings := func(id, file string) {
		data, err := safefile.ReadAll(file, plugin.MaxManifestSize)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			c.warn(fmt.Sprintf("Claude hooks of %s not loaded: %v", id, err))
		default:
			sources = append(sources, source{id, "", file, data, nil})
		}
	}
	if a.projectTrusted() {
		settings(claudeProjectID, filepath.Join(a.WorkDir, ".claude", "settings.json"))
		settings(claudeProjectID, filepath.Join(a.WorkDir, ".claude", "settings.local.json"))
	}
	if v, _ := a.Config.Get(KeyClaudeUserHooks); v == "true" {
		if home := a.opts.Getenv("HOME"); home != "" {
			settings(claudeUserID, filepath.Join(home, ".claude", "settings.json"))
		}
	}
	closed := map[string]bool{}
	for _, id := range a.Config.List(KeyClaudeFailClosed) {
		closed[id] = true
	}
	env := a.env
	t := hook.Table{}
	names := map[string][]string{}
	for _, s := range sources {
		h, warnings, err := claude.Parse(s.file, s.data)
		for _, w := range warnings {
			c.warn("Claude hooks: " + w)
		}
		if err != nil {
			c.warn(fmt.Sprintf("Claude hooks not loaded: %v", err))
			continue
		}
		l := &claude.Link{
			Name: s.id, Hooks: h, Env: env, ProjectDir: a.WorkDir, PluginRoot: s.root,
			Session: c.session, Ask: a.askClaudeHook, Wake: a.wakeFromHook, CallTool: a.callHookTool, Title: a.titleFromHook, ReloadSkills: a.reloadSkillsFromHook,
			Notify: func(id, text string) {
				if a.opts.OnEvent != nil {
					a.opts.OnEvent(agent.Event{Type: agent.EventNotice, Text: fmt.Sprintf("%s hook: %s", id, text)})
				}
			},
		}
		if s.root != "" {
			l.PluginData = filepath.Join(a.BaseDir, "plugin-data", s.id)
			_ = os.MkdirAll(l.PluginData, 0o700)
			l.Policy = a.pluginPolicy(s.id, s.root, s.sandbox)
		} else {
			l.Policy = a.unownedPolicy("Claude hooks of " + s.id)
		}
		names[s.id] = subscribedHooks(names[s.id], h)
		for _, sub := range l.Subscriptions() {
			t[sub.Hook] = append(t[sub.Hook], &hook.Entry{
				Link: l, Subs: []hook.Subscription{sub}, FailClosed: closed[s.id], Transform: true,
				Timeout: entryTimeout(h),
			})
		}
	}
	c.mu.Lock()
	c.hooks = names
	c.mu.Unlock()
	return t
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
	for _, groups := range h.Events {
		for _, g := range groups {
			for _, hd := range g.Handlers {
				t := hd.Timeout
				if t <= 0 {
					t = claude.DefaultTimeout
				}
				longest = max(longest, t)
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
	ok, _ := plugin.IsTrusted(a.BaseDir, a.WorkDir)
	return ok
}
