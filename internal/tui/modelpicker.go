package tui

// /model without a name opens a picker of the models it can switch to
// (app.Models: the configured model, what each provider with a key
// lists, the extensions' models), in place of the input, the current
// one marked. ↑/↓ choose, enter switches as `/model NAME` does, esc
// closes. Listing asks providers over the network, so it runs as work.

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/app"
)

// modelPickerRows is how many models show at once; the list scrolls.
const modelPickerRows = 12

type modelPicker struct {
	choices []app.ModelChoice
	current string
	cur     int
	notes   []string
}

// listModels starts listing the models for the picker.
func (m *model) listModels() tea.Cmd {
	a := m.app
	return m.work("listing models", func(ctx context.Context) workDoneMsg {
		choices, notes := a.Models(ctx)
		if a.Model != "" {
			found := false
			for _, c := range choices {
				found = found || c.Name == a.Model
			}
			if !found {
				choices = append([]app.ModelChoice{{Name: a.Model, From: "in use"}}, choices...)
			}
		}
		return workDoneMsg{models: &modelPicker{choices: choices, current: a.Model, notes: notes}}
	})
}

// openModelPicker shows the listed models, the current one chosen; with
// none listed, /model's text says why.
func (m *model) openModelPicker(p *modelPicker) tea.Cmd {
	if len(p.choices) == 0 {
		return m.run("/model")
	}
	for i, c := range p.choices {
		if c.Name == p.current {
			p.cur = i
		}
	}
	m.mpick = p
	return nil
}

// modelPickerKey handles a key while the picker is open.
func (m *model) modelPickerKey(k tea.KeyPressMsg) tea.Cmd {
	p := m.mpick
	switch k.String() {
	case "esc", "ctrl+c", "q":
		m.mpick = nil
	case "up", "ctrl+p", "k":
		p.cur = max(p.cur-1, 0)
	case "down", "ctrl+n", "j":
		p.cur = min(p.cur+1, len(p.choices)-1)
	case "enter", "ctrl+m":
		m.mpick = nil
		return m.run("/model " + p.choices[p.cur].Name)
	}
	return nil
}

// modelPickerLines draws the picker.
func (m *model) modelPickerLines(w int) []string {
	p := m.mpick
	out := []string{m.st.dim.Render("models · ↑/↓ choose · enter switches for the rest of the session · esc closes")}
	nameW := 0
	for _, c := range p.choices {
		nameW = max(nameW, len(c.Name))
	}
	top := max(p.cur-modelPickerRows+1, 0)
	for i := top; i < len(p.choices) && i < top+modelPickerRows; i++ {
		c := p.choices[i]
		mark := "  "
		if i == p.cur {
			mark = m.st.accent.Render("› ")
		}
		cur := " "
		if c.Name == p.current {
			cur = "*"
		}
		out = append(out, fit(fmt.Sprintf("%s%s %-*s  ", mark, cur, nameW, c.Name)+m.st.dim.Render(c.From), w))
	}
	for _, n := range p.notes {
		out = append(out, fit(m.st.dim.Render("("+strings.TrimSpace(n)+")"), w))
	}
	return out
}
