package tui

import (
	tea "charm.land/bubbletea/v2"
)

// wakeMsg is text a background hook wakes the model with while no turn
// runs (Claude Code's asyncRewake: app.Options.OnWake; a running turn
// takes it itself, host.Session.Join). It is sent as a message of its
// own, as if the user had sent it, behind what the user queued.
type wakeMsg struct{ text string }

// woken queues the wake's text and starts it when the UI is free.
func (m *model) woken(msg wakeMsg) tea.Cmd {
	m.queue = append(m.queue, msg.text)
	return m.next()
}
