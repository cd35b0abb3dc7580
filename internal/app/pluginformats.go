package app

import (
	"fmt"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// What other agents' plugins bring that a session takes in beyond
// commands, skills, hooks and MCP servers: a Gemini CLI extension's
// context file in the system prompt, and its excludeTools and policies as
// deny and ask rules (plugin/gemini.go, plugin/gemini_policy.go). Only
// enabled, trusted plugins count, as for every other part.

// enabledPlugins are the session's plugins that load.
func (a *App) enabledPlugins() []*plugin.Plugin {
	if a.opts.NoExtensions {
		return nil
	}
	var out []*plugin.Plugin
	for _, p := range a.discover() {
		if p.Err == nil && !p.Disabled && !p.Untrusted && p.Manifest != nil {
			out = append(out, p)
		}
	}
	return out
}

// pluginContext is the context files the plugins add to the system
// prompt.
func (a *App) pluginContext() []agent.PluginContext {
	var out []agent.PluginContext
	for _, p := range a.enabledPlugins() {
		paths, _ := p.ContextFilePaths()
		for _, path := range paths {
			out = append(out, agent.PluginContext{Plugin: p.ID, Path: path})
		}
	}
	return out
}

// pluginRules are the deny and ask rules the plugins' excludeTools and
// policies stand for; a rule synaps cannot read is a note.
func (a *App) pluginRules() (deny, ask []permission.Rule) {
	for _, p := range a.enabledPlugins() {
		if p.Manifest.Format != plugin.FormatGemini {
			continue
		}
		d, _ := p.Manifest.DenyRules()
		pol := p.GeminiPolicies()
		parse := func(list []string, source string) []permission.Rule {
			var out []permission.Rule
			for _, s := range list {
				r, err := permission.ParseRule(s)
				if err != nil {
					a.Notes = append(a.Notes, fmt.Sprintf("plugin %s: %s %q is not applied: %v", p.ID, source, s, err))
					continue
				}
				r.Source = "plugin " + p.ID + " " + source
				out = append(out, r)
			}
			return out
		}
		deny = append(deny, parse(d, "excludeTools")...)
		deny = append(deny, parse(pol.Deny, "policies")...)
		ask = append(ask, parse(pol.Ask, "policies")...)
	}
	return deny, ask
}
