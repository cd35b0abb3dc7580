package app

import (
	"github.com/synaps-cli/synaps/internal/mcp"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

// The processes synaps starts besides the bash tool's and the extensions'
// — Claude Code command hooks and MCP stdio servers — run under the
// policy of the plugin they come from (its manifest's sandbox section, or
// the default policy), or, when no plugin brings them (a settings file's
// hooks, the user's MCP servers), under the default policy with no
// directories of their own. sandbox.plugins = off runs them all as the
// user (docs/sandbox.md).

// declared is a manifest's sandbox section as the sandbox reads it (nil:
// none).
func declared(s *plugin.Sandbox) *sandbox.Declared {
	if s == nil {
		return nil
	}
	return &sandbox.Declared{Read: s.Read, Write: s.Write, Network: s.Network}
}

// pluginPolicy is the policy of a process plugin id (in dir) starts, nil
// when sandbox.plugins = off.
func (a *App) pluginPolicy(id, dir string, s *plugin.Sandbox) *sandbox.Policy {
	if !a.sandbox.Plugins {
		return nil
	}
	p := sandbox.ForPlugin(a.sandbox, a.BaseDir, a.WorkDir, id, dir, declared(s), a.opts.Getenv)
	return &p
}

// unownedPolicy is the policy of a process no plugin brings, nil when
// sandbox.plugins = off.
func (a *App) unownedPolicy(name string) *sandbox.Policy {
	if !a.sandbox.Plugins {
		return nil
	}
	p := sandbox.ForUnowned(a.sandbox, a.BaseDir, a.WorkDir, name, a.opts.Getenv)
	return &p
}

// mcpPolicy is the policy of a stdio server, under the settings c: its
// plugin's when a plugin's .mcp.json (or manifest) brings it, else the
// default one; nil when sandbox.plugins = off. Sessions and
// `synaps mcp list` alike start servers under it.
func mcpPolicy(c sandbox.Config, baseDir, workDir string, getenv func(string) string) func(mcp.Server) *sandbox.Policy {
	return func(sv mcp.Server) *sandbox.Policy {
		if !c.Plugins {
			return nil
		}
		var p sandbox.Policy
		if src := sv.Source; src.Scope == "plugin" && src.PluginID != "" {
			p = sandbox.ForPlugin(c, baseDir, workDir, src.PluginID, src.PluginDir, src.Sandbox, getenv)
		} else {
			p = sandbox.ForUnowned(c, baseDir, workDir, "MCP server "+sv.Name, getenv)
		}
		return &p
	}
}

// PluginSandbox says in words what p's processes may do under the
// sandbox settings c (sandbox.PluginSummary), for status listings.
func PluginSandbox(c sandbox.Config, baseDir, project string, p *plugin.Plugin, getenv func(string) string) []string {
	var d *sandbox.Declared
	if p.Manifest != nil {
		d = declared(p.Manifest.Sandbox)
	}
	return sandbox.PluginSummary(c, baseDir, project, p.ID, p.Dir, d, getenv)
}
