package app

import (
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
