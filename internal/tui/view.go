package tui

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/synaps-cli/synaps/internal/permission"
)

func (m *model) View() tea.View {
	m.frame.view()
	if m.quitting {
		return tea.NewView("")
	}
	if m.tview != nil {
		return m.transcriptScreen()
	}
	var parts []string
	w := max(m.width, 20)

	// The turn in progress.
	if s := m.stream.String(); s != "" {
		keep := max(3, m.height-12)
		// Finished blocks show rendered, the open one as it comes.
		var done []string
		if cut := finishedBlocks(s); cut > 0 {
			if cut != m.doneLen || w != m.doneWidth {
				m.doneLen, m.doneWidth = cut, w
				m.doneText = m.md.render(sanitize(s[:cut]), w)
			}
			done = strings.Split(m.doneText, "\n")
			s = strings.TrimLeft(s[cut:], "\n")
		}
		// Only the tail can show: wrap just that, so that a long answer
		// does not cost a full re-wrap per streamed word.
		if tail := keep * w * 4; len(s) > tail {
			s = s[len(s)-tail:]
			for len(s) > 0 && !utf8.RuneStart(s[0]) {
				s = s[1:]
			}
		}
		lines := strings.Split(ansi.Wrap(sanitize(s), w, ""), "\n")
		if s == "" {
			lines = nil
		}
		lines = append(done, lines...)
		if len(lines) > keep {
			lines = lines[len(lines)-keep:]
		}
		parts = append(parts, strings.Join(lines, "\n"))
	} else if t := strings.TrimSpace(m.thinking.String()); t != "" {
		parts = append(parts, fit(m.st.dim.Render("thinking: "+lastLine(t)), w))
	}
	for _, r := range m.tools {
		icon := m.spin.View()
		if m.asking == promptConfirm {
			icon = m.st.warn.Render("?")
		}
		line := icon + " " + m.st.tool.Render(r.call.Name) + " " + inputSummary(r.call.Name, r.call.Input) +
			m.st.dim.Render(" · "+formatDuration(time.Since(r.start).Truncate(100*time.Millisecond)))
		parts = append(parts, fit(line, w))
		parts = append(parts, m.kidLines(r.call.ID, w)...)
	}

	// The open question.
	switch m.asking {
	case promptConfirm, promptTrust, promptChoice:
		parts = append(parts, strings.Join(m.questionLines(w), "\n"))
	}

	if r := m.retry; r != nil {
		parts = append(parts, fit(m.st.warn.Render(r.line(time.Now())), w))
	}
	for _, q := range m.steering {
		parts = append(parts, fit(m.st.dim.Render("queued › "+oneLine(q, summaryMax)+" · joins the turn at its next step"), w))
	}
	for _, q := range m.queue {
		parts = append(parts, fit(m.st.dim.Render("queued › "+oneLine(q, summaryMax)), w))
	}
	parts = append(parts, m.todoLines(w)...)
	if m.pick != nil {
		parts = append(parts, m.pick.lines()...)
	} else if m.settings != nil {
		for _, l := range m.settings.lines(m.st) {
			parts = append(parts, fit(l, w))
		}
	} else if m.mpick != nil {
		parts = append(parts, m.modelPickerLines(w)...)
	} else if m.hooks != nil {
		for _, l := range m.hooks.lines(m.st) {
			parts = append(parts, fit(l, w))
		}
	} else {
		if m.search != nil {
			parts = append(parts, m.searchLine(w))
		}
		parts = append(parts, m.input.View())
		if l := m.statusLineView(w); l != "" {
			parts = append(parts, l)
		}
	}

	parts = append(parts, m.mentionLines(w)...)
	if m.asking == promptNone {
		if ms := slashMatches(m.input.Value(), m.cands); len(ms) > 0 {
			var l []string
			nameW := 0
			for _, c := range ms[:min(len(ms), matchesShown)] {
				nameW = max(nameW, len(c.Name))
			}
			for i, c := range ms {
				if i == matchesShown {
					l = append(l, m.st.dim.Render(fmt.Sprintf("  … %d more", len(ms)-i)))
					break
				}
				l = append(l, fit(fmt.Sprintf("  %-*s  ", nameW, c.Name)+m.st.dim.Render(c.Help), w))
			}
			parts = append(parts, strings.Join(l, "\n"))
		}
	}

	status := m.st.dim.Render(statusText(m.state.model, m.state.usage, m.state.health, ""))
	if m.app != nil && m.app.Permissions != nil {
		// Another mode than default leads the line; default ends it,
		// where a narrow terminal may cut it.
		if mode := m.app.Permissions.Mode(); mode == permission.Default {
			status += m.st.dim.Render(" · ") + m.modeText(mode)
		} else {
			status = m.modeText(mode) + m.st.dim.Render(" · ") + status
		}
	}
	switch {
	case m.opening:
		what := "starting"
		if len(m.starting) > 0 {
			what = "starting extensions: " + strings.Join(m.starting, ", ")
		}
		status = m.spin.View() + " " + what + m.st.dim.Render(" · you can type meanwhile")
	case !m.quitArmed.IsZero():
		verb := "quit"
		if m.link != nil {
			verb = "detach (the session goes on)"
		}
		status = m.st.warn.Render("press "+m.quitKey+" again to "+verb) + m.st.dim.Render(" · ") + status
	case m.asking != promptNone:
		status = m.st.warn.Render("waiting for your answer") + m.st.dim.Render(" · ") + status
	case m.busy != "":
		hint := ""
		if !m.interrupted {
			hint = m.st.dim.Render(" (esc to interrupt)")
		}
		what := m.busy
		if len(m.starting) > 0 {
			what += " (starting " + strings.Join(m.starting, ", ") + ")"
		}
		status = m.spin.View() + " " + what + hint + m.st.dim.Render(" · ") + status
	case len(m.starting) > 0:
		status = m.st.dim.Render("starting extensions: "+strings.Join(m.starting, ", ")+" · ") + status
	}
	parts = append(parts, fit(status, w))
	lines := strings.Split(strings.Join(parts, "\n"), "\n")
	if limit := max(m.height-1, 2); len(lines) > limit {
		// Never taller than the terminal: the renderer's cursor
		// arithmetic breaks, and the input and status must show.
		lines = lines[len(lines)-limit:]
	}
	m.viewRows = len(lines)
	return tea.NewView(strings.Join(lines, "\n"))
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
