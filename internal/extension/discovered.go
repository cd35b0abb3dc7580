package extension

import "github.com/synaps-cli/synaps/internal/plugin"

// A session's start discovers the plugins once and shares the list
// (app.Open): the host takes it through Options.Discovered instead of
// discovering again. Reload always discovers afresh.

// Discovery is one plugin.Discover result: the plugins and the error
// naming the plugins directories that could not be read.
type Discovery struct {
	Plugins []*plugin.Plugin
	Err     error
}

// firstDiscovery is Options.Discovered, once, or a discovery.
func (h *Host) firstDiscovery() ([]*plugin.Plugin, error) {
	h.mu.Lock()
	d := h.opts.Discovered
	h.opts.Discovered = nil
	h.mu.Unlock()
	if d != nil {
		return d.Plugins, d.Err
	}
	return plugin.Discover(h.discoverOptions())
}
