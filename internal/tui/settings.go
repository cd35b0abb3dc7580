package tui

// The /settings screen: every plugin's settings (a SynapsCLI manifest's
// "settings"), in place of the input. ↑/↓ choose a field; a cycler
// changes with enter or ←/→ and is saved at once; enter on a text field
// puts "/settings ID KEY " in the input to type the value; enter on a
// custom or picker field opens its extension's editor, whose rows take
// the screen's place and receive the keys until it commits or esc closes
// it. esc leaves the screen.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/extension"
)

type settingsScreen struct {
	vals   []app.SettingValue
	cur    int
	editor *extension.EditorState // the open custom editor, nil when none
	note   string
	ended  bool
	// input is set when the screen ends asking the user to type a value.
	input string
}

func newSettingsScreen(vals []app.SettingValue) *settingsScreen {
	return &settingsScreen{vals: vals}
}

// settingsKey handles a key while the settings screen is open.
func (m *model) settingsKey(k tea.KeyPressMsg) tea.Cmd {
	s := m.settings
	ctx, cancel := context.WithCancel(m.ctx)
	defer cancel()
	if s.editor != nil {
		name := editorKeyName(k)
		if name == "" {
			return nil
		}
		v := s.vals[s.cur]
		ed, note, err := m.app.EditSetting(ctx, v.Plugin, v.Field.Key, name)
		switch {
		case err != nil:
			s.note, s.editor = "error: "+err.Error(), nil
		case note != "":
			s.note, s.editor = note, nil
			s.vals = m.app.SettingsValues()
		case ed.Closed:
			s.note, s.editor = "closed", nil
		default:
			s.editor = &ed
		}
		return nil
	}
	switch k.String() {
	case "esc", "ctrl+c", "ctrl+d":
		s.ended = true
	case "up", "ctrl+p":
		s.cur = max(s.cur-1, 0)
	case "down", "ctrl+n":
		s.cur = min(s.cur+1, max(len(s.vals)-1, 0))
	case "enter", "right", "left", "space":
		if len(s.vals) == 0 {
			s.ended = true
			break
		}
		v := s.vals[s.cur]
		switch v.Field.Editor {
		case "cycler":
			i := slices.Index(v.Field.Options, v.Value)
			if k.String() == "left" {
				i = (i - 1 + len(v.Field.Options)) % len(v.Field.Options)
			} else {
				i = (i + 1) % len(v.Field.Options)
			}
			note, err := m.app.SetSetting(v.Plugin, v.Field.Key, v.Field.Options[i])
			if err != nil {
				note = "error: " + err.Error()
			}
			s.note = note
			s.vals = m.app.SettingsValues()
		case "text":
			s.ended, s.input = true, fmt.Sprintf("/settings %s %s ", v.Plugin, v.Field.Key)
		default: // custom, picker: the extension's editor
			ed, _, err := m.app.EditSetting(ctx, v.Plugin, v.Field.Key, "")
			if err != nil {
				s.note = "error: " + err.Error()
				break
			}
			s.editor, s.note = &ed, ""
		}
	}
	if s.ended {
		m.settings = nil
		if s.input != "" {
			m.input.SetValue(s.input)
		}
		m.print(m.st.dim.Render("· settings closed"))
	}
	return nil
}

// editorKeyName is a key as settings.editor.key names it.
func editorKeyName(k tea.KeyPressMsg) string {
	switch s := k.String(); s {
	case "up":
		return "Up"
	case "down":
		return "Down"
	case "left":
		return "Left"
	case "right":
		return "Right"
	case "enter":
		return "Enter"
	case "esc", "ctrl+c":
		return "Esc"
	case "tab":
		return "Tab"
	case "shift+tab":
		return "BackTab"
	case "backspace":
		return "Backspace"
	case "home":
		return "Home"
	case "end":
		return "End"
	}
	if k.Text != "" {
		return "Char(" + k.Text + ")"
	}
	return ""
}

// lines is the screen as lines.
func (s *settingsScreen) lines(st styles) []string {
	if s.editor != nil {
		v := s.vals[s.cur]
		out := []string{st.dim.Render(fmt.Sprintf("%s · %s (plugin %s) · its editor: ↑/↓, enter chooses, esc closes", v.Category.Label, v.Field.Label, v.Plugin))}
		return append(out, app.EditorLines(*s.editor)...)
	}
	out := []string{st.dim.Render("settings · ↑/↓ choose · enter or ←/→ changes · esc closes")}
	if len(s.vals) == 0 {
		out = append(out, "  no plugin has settings")
	}
	last := ""
	for i, v := range s.vals {
		if cat := v.Plugin + "/" + v.Category.ID; cat != last {
			out = append(out, fmt.Sprintf("%s (plugin %s)", v.Category.Label, v.Plugin))
			last = cat
		}
		mark := "  "
		if i == s.cur {
			mark = "▸ "
		}
		val := v.Value
		switch {
		case v.Field.Editor == "custom" || v.Field.Editor == "picker":
			val = strings.TrimSpace(val + " [enter opens its editor]")
		case val == "":
			val = "(unset)"
		case v.FromDefault:
			val += " (default)"
		}
		line := fmt.Sprintf("%s%s: %s", mark, v.Field.Label, val)
		if v.Field.Editor == "cycler" {
			line += "  ‹" + strings.Join(v.Field.Options, "|") + "›"
		}
		out = append(out, line)
	}
	if s.note != "" {
		out = append(out, st.dim.Render(s.note))
	}
	return out
}
