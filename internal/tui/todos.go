package tui

import (
	"fmt"

	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// todosShown is the most tasks the list above the input shows; the rest
// are counted.
const todosShown = 8

// todoLines is the session's task list (the model's todo_write), one
// line per task, shown above the input while a task is open: ☐ pending,
// ◐ in progress (its activeForm), ☒ completed. A list whose tasks are all
// completed is done and no longer shown.
func (m *model) todoLines(w int) []string {
	if m.app == nil || m.app.Todos == nil {
		return nil
	}
	items := m.app.Todos.Items()
	open := false
	for _, it := range items {
		open = open || it.Status != builtin.TodoCompleted
	}
	if !open {
		return nil
	}
	done := 0
	for _, it := range items {
		if it.Status == builtin.TodoCompleted {
			done++
		}
	}
	lines := []string{fit(m.st.dim.Render(fmt.Sprintf("tasks %d/%d done", done, len(items))), w)}
	for i, it := range items {
		if i == todosShown {
			lines = append(lines, m.st.dim.Render(fmt.Sprintf("  … %d more", len(items)-i)))
			break
		}
		var l string
		switch it.Status {
		case builtin.TodoCompleted:
			l = m.st.dim.Render("  ☒ " + oneLine(it.Content, summaryMax))
		case builtin.TodoInProgress:
			text := it.ActiveForm
			if text == "" {
				text = it.Content
			}
			l = "  " + m.st.accent.Render("◐") + " " + m.st.user.Render(oneLine(text, summaryMax))
		default:
			l = "  ☐ " + oneLine(it.Content, summaryMax)
		}
		lines = append(lines, fit(l, w))
	}
	return lines
}
