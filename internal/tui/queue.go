package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/app"
)

// steerable reports whether text typed now can join the running turn:
// plain words to a turn, with nothing queued before them. A slash
// command, a !command, an @file, /attach'd files or a long paste wait in
// the queue.
func (m *model) steerable(text string) bool {
	t := strings.TrimSpace(text)
	return m.turn && !m.interrupted && !m.hasPaste(t) && len(m.queue) == 0 && len(m.attached) == 0 && len(m.shellContext) == 0 &&
		!app.IsSlash(t) && !strings.HasPrefix(t, "!") && !mentionRE().MatchString(t) && len(pastedPictures(t)) == 0
}

// steered shows text that joined the running turn as the user's words,
// marked steered.
func (m *model) steered(text string) {
	for i, s := range m.steering {
		if s == text {
			m.steering = append(m.steering[:i], m.steering[i+1:]...)
			break
		}
	}
	m.print(m.userLines(text) + m.st.dim.Render("  · steered into the turn"))
}

// next starts the oldest queued input, if any.
func (m *model) next() tea.Cmd {
	if len(m.queue) == 0 || m.quitting || m.busy != "" || m.opening || m.asking != promptNone {
		return nil
	}
	text := m.queue[0]
	m.queue = m.queue[1:]
	return m.run(text)
}

// unqueue puts queued inputs back into the input, before what is typed
// there, so that an interrupt runs nothing the user did not see coming
// and loses nothing they typed.
func (m *model) unqueue() {
	if m.turn && m.hs != nil {
		// Steering that has not joined the turn yet comes back too.
		taken := m.hs.Unsteer()
		m.steering = nil
		m.queue = append(taken, m.queue...)
	}
	if len(m.queue) == 0 {
		return
	}
	parts := append(m.queue, m.input.Value())
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	m.queue = nil
	m.input.SetValue(strings.Join(parts, "\n"))
}
