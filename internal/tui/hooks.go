package tui

// The /hooks screen: every hook of the session's directory in chain order
// (app.ListHooks), in place of the input. ↑/↓ choose a hook; space or
// enter turns it off or on again — saved in config disabled_hooks and
// applied at once (/hooks toggle ID reloads the extensions). esc leaves
// the screen.

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/app"
)

type hooksScreen struct {
	hooks []app.HookInfo
	cur   int
	note  string
	ended bool
}

// hooksRows is how many hooks show at once; the list scrolls.
const hooksRows = 14

func newHooksScreen(list *app.HookList) *hooksScreen {
	return &hooksScreen{hooks: list.Hooks}
}

// openHooks opens the screen, or says why it cannot.
func (m *model) openHooks() {
	list, err := m.app.ListHooks(m.ctx)
	if err != nil {
		m.print(m.st.bad.Render("error: ") + err.Error())
		return
	}
	m.hooks = newHooksScreen(list)
}

// refreshHooks lists the hooks again after a toggle ended (workDone).
func (m *model) refreshHooks(out string, err error) {
	s := m.hooks
	if err != nil {
		s.note = "error: " + err.Error()
	} else {
		s.note = strings.TrimSpace(out)
	}
	if list, err := m.app.ListHooks(m.ctx); err == nil {
		s.hooks = list.Hooks
		s.cur = min(s.cur, max(len(s.hooks)-1, 0))
	}
}

// hooksKey handles a key while the hooks screen is open.
func (m *model) hooksKey(k tea.KeyPressMsg) tea.Cmd {
	s := m.hooks
	switch k.String() {
	case "esc", "ctrl+c", "ctrl+d", "q":
		s.ended = true
	case "up", "ctrl+p":
		s.cur = max(s.cur-1, 0)
	case "down", "ctrl+n":
		s.cur = min(s.cur+1, max(len(s.hooks)-1, 0))
	case "enter", "space":
		if len(s.hooks) == 0 {
			s.ended = true
			break
		}
		h := s.hooks[s.cur]
		if h.Kind == "permission" {
			s.note = fmt.Sprintf("%s is a permission rule or mode: change it where it is written (%s); /mode switches the mode", h.ID, h.Source)
			break
		}
		if m.busy != "" {
			s.note = "wait: " + m.busy
			break
		}
		// In a worker: the toggle reloads the extensions, whose notices
		// come through the program this key handler would be holding.
		a, id := m.app, h.ID
		s.note = "turning " + id + " off or on …"
		return m.work("toggling "+id, func(ctx context.Context) workDoneMsg {
			res, err := a.Slash(ctx, "/hooks toggle "+id)
			return workDoneMsg{out: res.Output, err: err}
		})
	}
	if s.ended {
		m.hooks = nil
		m.print(m.st.dim.Render("· hooks closed"))
	}
	return nil
}

// lines is the screen as lines.
func (s *hooksScreen) lines(st styles) []string {
	out := []string{st.dim.Render("hooks in chain order · ↑/↓ choose · space or enter turns one off or on (saved) · esc closes")}
	if len(s.hooks) == 0 {
		out = append(out, "  no hooks")
	}
	top := max(s.cur-hooksRows+1, 0)
	event := ""
	for i := top; i < len(s.hooks) && i < top+hooksRows; i++ {
		h := s.hooks[i]
		if h.Event != event {
			out = append(out, h.Event)
			event = h.Event
		}
		mark := "  "
		if i == s.cur {
			mark = "▸ "
		}
		box := "[on] "
		switch {
		case h.Kind == "permission":
			box = "     "
		case h.Status == app.HookDisabled:
			box = "[off]"
		}
		matcher := h.Matcher
		if h.Command != "" {
			matcher = strings.TrimSpace(h.ClaudeEvent+" "+matcher) + ": " + h.Command
		}
		line := fmt.Sprintf("%s%s %d %s  %s  %s", mark, box, h.Position, h.ID, h.Status, oneLine(matcher, 60))
		out = append(out, line)
		if i == s.cur && h.Why != "" {
			out = append(out, st.dim.Render("      "+h.Why))
		}
	}
	if s.note != "" {
		out = append(out, st.dim.Render(s.note))
	}
	return out
}
