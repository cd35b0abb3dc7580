package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/daemon"
)

// A UI inside the session daemon (synaps --detachable, synaps attach;
// see internal/daemon) has a link to it. There, what quits a plain UI
// detaches instead: the client that owns the input leaves and the session
// — its turn too — goes on. The UI tells the daemon when work runs (so
// idle exit never ends a turn) and takes text from `synaps send` as if it
// was typed.

// remoteInputMsg is text `synaps send` sent.
type remoteInputMsg struct{ text string }

// leave is the user's quit: detach in the daemon, quit elsewhere.
func (m *model) leave() tea.Cmd {
	if m.link == nil {
		return m.quit()
	}
	m.quitArmed = time.Time{}
	m.link.Detach()
	return nil
}

// noteBusy tells the daemon when work starts and ends.
func (m *model) noteBusy() {
	if busy := m.busy != "" || m.opening; busy != m.linkBusy {
		m.linkBusy = busy
		m.link.Busy(busy)
	}
}

// remoteInput takes sent text as enter takes typed text, without
// touching what the user is typing: run now when idle; while a turn runs,
// plain words steer it (they join its next model request); anything else
// is queued for when the work ends.
func (m *model) remoteInput(text string) tea.Cmd {
	m.hist.add(text)
	if m.busy != "" || m.opening || m.asking != promptNone {
		if m.busy != "" && m.hs != nil && m.steerable(text) && m.hs.Join(text) {
			m.steering = append(m.steering, text)
			return nil
		}
		m.queue = append(m.queue, text)
		return nil
	}
	return m.run(text)
}

// linkInputs forwards what `synaps send` sends to the program.
func linkInputs(l *daemon.Link, br *bridge) {
	l.Inputs(func(text string) { br.send(remoteInputMsg{text}) })
}
