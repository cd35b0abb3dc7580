package extension

import (
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/hook"
)

// disabledHooks is config disabled_hooks as a set, read at each start and
// reload; empty with Options.KeepDisabledHooks.
func (h *Host) disabledHooks() hook.Disabled {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.opts.KeepDisabledHooks {
		return nil
	}
	return hook.NewDisabled(h.opts.Config.List(config.KeyDisabledHooks))
}
