package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// userLines is how the user's message shows in the transcript.
func (m *model) userLines(text string) string {
	lines := strings.Split(sanitize(text), "\n")
	for i, l := range lines {
		p := "  "
		if i == 0 {
			p = "› "
		}
		lines[i] = m.st.accent.Render(p) + m.st.user.Render(l)
	}
	return "\n" + strings.Join(lines, "\n") // a blank line sets each exchange apart
}

// entry is a piece of the transcript, rendered for a terminal width.
// Entries are kept so that a resize can print the transcript again,
// laid out for the new width.
type entry func(width int) string

// print queues s for the transcript.
func (m *model) print(s string) { m.printW(func(int) string { return s }) }

// printW queues an entry whose layout depends on the width.
func (m *model) printW(e entry) { m.entries = append(m.entries, e) }

// transcriptText renders entries[from:] for width cells: every line
// shorter than the width, so that each takes exactly one row (the
// renderer counts rows to move the cursor over printed text; a line of
// exactly the width would be counted twice).
func (m *model) transcriptText(from, width int) []string {
	var lines []string
	for _, e := range m.entries[from:] {
		s := downsample(m.profile, e(width))
		for _, l := range strings.Split(s, "\n") {
			if width > 1 && ansi.StringWidth(l) >= width {
				lines = append(lines, wrapLine(l, width-1)...)
				continue
			}
			lines = append(lines, l)
		}
	}
	return lines
}

// clearAll clears the screen and the scrollback: a resize prints the
// whole transcript again after it. Screen first: some terminals (tmux)
// move a cleared screen into the scrollback.
const clearAll = "\x1b[H\x1b[2J\x1b[3J"

// flush prints what was queued, one print in flight at a time; when
// quitting and everything is out, it ends the program.
//
// Each print is at most as tall as the room above the view: the
// renderer makes room by scrolling and moves back up over what it
// printed, and cannot move above the top of the screen — a taller print
// left stale copies of the view and blank lines in the scrollback. After
// a resize the terminal has re-wrapped (or cut) the old view and the
// transcript; the screen and scrollback are cleared and the transcript
// printed again at the new width, as a fresh start would show it.
func (m *model) flush() tea.Cmd {
	if m.printing || m.tview != nil {
		return nil // the transcript view shows what waits
	}
	w := max(m.width, 20)
	if m.redraw {
		m.redraw = false
		lines := m.transcriptText(0, w)
		m.printed, m.printing = len(m.entries), true
		return tea.Sequence(tea.Println(clearAll+strings.Join(lines, "\n")), tea.ClearScreen, func() tea.Msg { return printedMsg{} })
	}
	if m.printed == len(m.entries) {
		if m.quitting {
			return tea.Quit
		}
		return nil
	}
	lines := m.transcriptText(m.printed, w)
	m.printed, m.printing = len(m.entries), true
	room := max(1, m.height-m.viewRows-1)
	var cmds []tea.Cmd
	for len(lines) > 0 {
		n := min(room, len(lines))
		cmds = append(cmds, tea.Println(strings.Join(lines[:n], "\n")))
		lines = lines[n:]
	}
	cmds = append(cmds, func() tea.Msg { return printedMsg{} })
	return tea.Sequence(cmds...)
}
