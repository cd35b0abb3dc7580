package extension

import (
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// assemble is the chain's table of a start: the extensions' places
// (buildTable) and the other links (Options.Links), in the chain's order.
func assemble(exts []*Extension, plugins []*plugin.Plugin, links hook.Table, off hook.Disabled) hook.Table {
	t := buildTable(exts, plugins, off)
	for name, entries := range links {
		t[name] = append(t[name], entries...)
	}
	t.Sort()
	return t
}

// Plan discovers the plugins and builds the table a start would run,
// starting nothing: what `synaps hooks` lists without starting a process.
// An extension holds the places its manifest declares (extension.hooks);
// one whose manifest declares none subscribes at initialize (the guide's
// dialect), so until it is started it holds every hook its permissions
// cover, as a session's table does while it starts. It returns the
// plugins discovered and what discovery could not read.
func (h *Host) Plan() (t hook.Table, plugins []*plugin.Plugin, warnings []string) {
	plugins, err := plugin.Discover(h.discoverOptions())
	var exts []*Extension
	for _, p := range plugins {
		if p.Spawnable() {
			exts = append(exts, &Extension{plugin: p, env: h.env, log: newLogSink("", p.ID), planned: true, state: StateStarting, startDone: make(chan struct{})})
		}
	}
	var links hook.Table
	if h.opts.Links != nil {
		links = h.opts.Links(plugins)
	}
	return assemble(exts, plugins, links, h.disabledHooks()), plugins, unjoinStrings(err)
}

// Table is the table the chain runs now: after Start, what each
// extension subscribed to at initialize.
func (h *Host) Table() hook.Table { return h.chain.Table() }

// Plugins are the plugins of the last discovery (Start, Reload).
func (h *Host) Plugins() []*plugin.Plugin {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.plugins
}
