package app

import (
	"github.com/synaps-cli/synaps/internal/plugin"
)

// A start used to discover the plugins five times over (the extension
// host, skills, commands, MCP servers, the bash tool's PATH), and each
// discovery reads every manifest and, in a trusted project or with
// plugins.verify = strict, takes every plugin's digest: start-up grew
// with the plugins installed several times over. Open discovers once and
// every part of the start, the host included (extension.Options.
// Discovered), reads that one list. After Open each caller discovers
// afresh, so a reload or a trust change sees the files as they are then.

// startDiscovery is the one discovery of Open, made when first asked
// for (a start with --no-extensions and --no-mcp makes none).
type startDiscovery struct {
	opening bool
	ok      bool
	plugins []*plugin.Plugin
	err     error
}

// discoverOptions are the session's: its project, trust, disabled
// plugins and plugins.verify.
func (a *App) discoverOptions() plugin.DiscoverOptions {
	return plugin.DiscoverOptions{
		BaseDir: a.BaseDir, ProjectDir: a.WorkDir, TrustProject: a.opts.TrustProject,
		Disabled: a.Config.List("disabled_plugins"), Verify: verifyMode(a.Config),
	}
}

// beginStart and endStart bracket Open: between them every discover
// call shares one discovery.
func (a *App) beginStart() { a.started = startDiscovery{opening: true} }

func (a *App) endStart() { a.started = startDiscovery{} }

// startPlugins is the start's discovery with its error (a plugins
// directory that could not be read), made now if not yet.
func (a *App) startPlugins() ([]*plugin.Plugin, error) {
	if !a.started.ok {
		a.started.plugins, a.started.err = plugin.Discover(a.discoverOptions())
		a.started.ok = true
	}
	return a.started.plugins, a.started.err
}

// discover is the start's list while Open runs, a fresh discovery after.
// A plugins directory that cannot be read is said once, by the host's
// warnings, so the error is not returned here.
func (a *App) discover() []*plugin.Plugin {
	if a.started.opening {
		plugins, _ := a.startPlugins()
		return plugins
	}
	plugins, _ := plugin.Discover(a.discoverOptions())
	return plugins
}
