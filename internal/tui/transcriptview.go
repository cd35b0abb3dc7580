package tui

// The transcript view (ctrl+o, as in Claude Code): the whole transcript
// full-screen, on the terminal's alternate screen, with every tool call's
// output and diff expanded where the transcript shows them collapsed.
// ↑/↓, pgup/pgdn (space, b), g/G (home/end) scroll; esc, q or ctrl+o
// go back to the prompt, and the terminal's own scrollback is as it was.
// While the view is open, new transcript lines wait (flush holds them)
// and the view shows them as they come.

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/synaps-cli/synaps/internal/agent"
)

// transcriptView is the open view: its lines for a width and a number of
// entries, and the first line shown.
type transcriptView struct {
	lines   []string
	width   int
	entries int
	top     int
	// bottom: the view follows the end as lines come (it opened there,
	// or G went there).
	bottom bool
}

// expandTool records the expanded rendering of the tool call just
// printed (the last entry), for the transcript view. head, if not nil,
// rewrites the header line as the printed entry does.
func (m *model) expandTool(tc *agent.ToolCall, head func(first string, w int) string) {
	if m.expanded == nil {
		m.expanded = map[int]entry{}
	}
	m.expanded[len(m.entries)-1] = func(w int) string {
		lines := toolLinesN(tc, m.st, w-1, maxInt, maxInt)
		if head != nil {
			lines[0] = head(lines[0], w)
		}
		return joinLines(lines)
	}
}

// maxInt shows every line.
const maxInt = int(^uint(0) >> 1)

// openTranscript opens the view at its end.
func (m *model) openTranscript() {
	m.tview = &transcriptView{bottom: true}
}

// transcriptRows is how many transcript lines the view shows: all but
// its footer.
func (m *model) transcriptRows() int { return max(m.height-1, 1) }

// layoutTranscript renders the transcript again when the width or the
// entries changed, each tool call expanded.
func (m *model) layoutTranscript() {
	tv := m.tview
	w := max(m.width, 20)
	if tv.lines != nil && tv.width == w && tv.entries == len(m.entries) {
		return
	}
	tv.width, tv.entries, tv.lines = w, len(m.entries), nil
	for i, e := range m.entries {
		if x, ok := m.expanded[i]; ok {
			e = x
		}
		for _, l := range strings.Split(downsample(m.profile, e(w)), "\n") {
			if ansi.StringWidth(l) >= w {
				tv.lines = append(tv.lines, wrapLine(l, w-1)...)
				continue
			}
			tv.lines = append(tv.lines, l)
		}
	}
	tv.clamp(m.transcriptRows())
}

// clamp keeps the first line shown within the lines.
func (tv *transcriptView) clamp(rows int) {
	last := max(len(tv.lines)-rows, 0)
	if tv.bottom {
		tv.top = last
	}
	tv.top = min(max(tv.top, 0), last)
	tv.bottom = tv.top == last
}

// transcriptKey handles a key while the view is open.
func (m *model) transcriptKey(k tea.KeyPressMsg) tea.Cmd {
	tv := m.tview
	m.layoutTranscript()
	rows := m.transcriptRows()
	switch k.String() {
	case "esc", "q", "ctrl+o", "ctrl+c":
		m.tview = nil
		return m.flush() // what came while the view was open
	case "up", "k":
		tv.top--
	case "down", "j", "enter":
		tv.top++
	case "pgup", "b", "ctrl+b", "ctrl+u":
		tv.top -= rows - 1
	case "pgdown", "space", "ctrl+f", "ctrl+d":
		tv.top += rows - 1
	case "g", "home":
		tv.top = 0
	case "G", "shift+g", "end":
		tv.top = len(tv.lines)
	}
	tv.bottom = false
	tv.clamp(rows)
	return nil
}

// transcriptScreen draws the view: a screenful of lines and a footer.
func (m *model) transcriptScreen() tea.View {
	m.layoutTranscript()
	tv := m.tview
	rows := m.transcriptRows()
	shown := tv.lines[tv.top:min(tv.top+rows, len(tv.lines))]
	lines := make([]string, 0, rows+1)
	lines = append(lines, shown...)
	for len(lines) < rows {
		lines = append(lines, "")
	}
	w := max(m.width, 20)
	where := "empty"
	if len(tv.lines) > 0 {
		where = fmt.Sprintf("lines %d–%d of %d", tv.top+1, tv.top+len(shown), len(tv.lines))
	}
	lines = append(lines, fit(m.st.accent.Render("transcript")+m.st.dim.Render(" · "+where+" · ↑/↓ pgup/pgdn g/G scroll · esc or ctrl+o back"), w-1))
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	return v
}
