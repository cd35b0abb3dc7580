package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// histSearch is Ctrl+R's reverse search of the input history, as in bash
// and Claude Code: what is typed narrows to the newest input containing
// it (case ignored), shown in the input; Ctrl+R again goes to the next
// older one. Enter sends the match, Tab or an arrow key keeps it in the
// input to edit, Esc (or Ctrl+C, Ctrl+G) gives back what was typed
// before.
type histSearch struct {
	query string
	// at is the entry shown, -1 when nothing matches.
	at    int
	draft string // the input before the search
}

// search is the index of the newest entry before index before that
// contains query, case ignored; -1 when none does.
func (h *history) search(query string, before int) int {
	q := strings.ToLower(query)
	for i := min(before, len(h.entries)) - 1; i >= 0; i-- {
		if strings.Contains(strings.ToLower(h.entries[i]), q) {
			return i
		}
	}
	return -1
}

// startSearch opens the search on the input as it is.
func (m *model) startSearch() {
	m.search = &histSearch{at: -1, draft: m.input.Value()}
	m.findMatch(len(m.hist.entries))
}

// findMatch looks for the query from before and shows what it found;
// nothing found keeps the last match in the input.
func (m *model) findMatch(before int) {
	s := m.search
	if i := m.hist.search(s.query, before); i >= 0 {
		s.at = i
		m.input.SetValue(m.hist.entries[i])
		return
	}
	if s.query == "" {
		s.at = -1
		m.input.SetValue(s.draft)
		return
	}
	s.at = -1
}

// searchKey handles a key while the search is open.
func (m *model) searchKey(k tea.KeyPressMsg) tea.Cmd {
	s := m.search
	switch k.String() {
	case "ctrl+r":
		before := len(m.hist.entries)
		if s.at >= 0 {
			before = s.at
		}
		if i := m.hist.search(s.query, before); i >= 0 {
			s.at = i
			m.input.SetValue(m.hist.entries[i])
		}
		return nil
	case "esc", "ctrl+c", "ctrl+g":
		m.input.SetValue(s.draft)
		m.search = nil
		return nil
	case "enter", "ctrl+m":
		m.search = nil
		m.hist.reset()
		if s.at < 0 {
			m.input.SetValue(s.draft)
			return nil
		}
		return m.submit()
	case "backspace", "ctrl+h":
		if s.query != "" {
			r := []rune(s.query)
			s.query = string(r[:len(r)-1])
			m.findMatch(len(m.hist.entries))
		}
		return nil
	case "tab", "left", "right", "up", "down", "home", "end", "ctrl+a", "ctrl+e":
		// Keep the match to edit it.
		m.search = nil
		m.hist.reset()
		if s.at < 0 {
			m.input.SetValue(s.draft)
		}
		return nil
	}
	if k.Text != "" {
		s.query += k.Text
		m.findMatch(len(m.hist.entries))
	}
	return nil
}

// searchLine is the line above the input while the search is open.
func (m *model) searchLine(w int) string {
	s := m.search
	line := m.st.accent.Render("reverse search: ") + sanitize(s.query) + "_"
	switch {
	case s.at < 0 && s.query != "":
		line += m.st.warn.Render("  no match")
	case s.at < 0:
		line += m.st.dim.Render("  type to search your inputs")
	}
	return fit(line+m.st.dim.Render("  · ctrl+r older · enter send · tab edit · esc back"), w)
}
