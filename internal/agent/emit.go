package agent

import (
	"strings"

	"github.com/synaps-cli/synaps/internal/hook"
)

// How the agent's events reach its UI: one at a time through
// Config.OnEvent, whichever goroutine emits them, and the note that names
// the extensions whose context was injected.

// emitInjects tells the UI which extensions added context, so injected
// text never reaches the model unseen.
func (a *Agent) emitInjects(d hook.Decision, where string) {
	if len(d.Injects) == 0 {
		return
	}
	ids := make([]string, len(d.Injects))
	for i, in := range d.Injects {
		ids[i] = in.Extension
	}
	a.emit(Event{Type: EventInject, Text: strings.Join(ids, ", "), Where: where})
}

func (a *Agent) emit(ev Event) {
	if a.cfg.OnEvent != nil {
		// Calls running side by side emit from their goroutines; a UI
		// hears one event at a time.
		a.emitMu.Lock()
		defer a.emitMu.Unlock()
		a.cfg.OnEvent(ev)
	}
}
