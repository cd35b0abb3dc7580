package extension

// Relink builds the links that are not extension processes (Options.Links:
// the Claude Code hooks of settings files and plugins) again, for the
// plugins of the last start, and puts them in the chain beside the
// running extensions: a settings file whose hooks changed is read anew
// without restarting any extension (app's ConfigChange).
func (h *Host) Relink() {
	if h.opts.Links == nil {
		return
	}
	h.mu.Lock()
	plugins := h.plugins
	h.mu.Unlock()
	links := h.opts.Links(plugins)
	h.mu.Lock()
	h.links = links
	h.mu.Unlock()
	h.resetChain()
}

// resetChain builds the hook chain's table again from the running set,
// the links and the hooks turned off.
func (h *Host) resetChain() {
	h.mu.Lock()
	plugins, exts, links := h.plugins, h.exts, h.links
	h.mu.Unlock()
	h.chain.Set(assemble(exts, plugins, links, h.disabledHooks()))
}
