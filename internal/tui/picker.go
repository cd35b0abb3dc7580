package tui

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/synaps-cli/synaps/internal/session"
)

// Pick shows the saved sessions, newest first, and returns the id the
// user chose, or "" when they cancelled (esc, ctrl+c). Typing filters
// the list by title (the first prompt) and id. It runs before the
// session opens, so `synaps --resume` without an id needs no id.
func Pick(ctx context.Context, sessions []session.Info, in io.Reader, out io.Writer) (string, error) {
	m := newPicker(sessions, 80)
	p := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out), tea.WithContext(ctx))
	if _, err := p.Run(); err != nil {
		return "", err
	}
	return m.chosen, nil
}

func newPicker(sessions []session.Info, width int) *picker {
	m := &picker{all: sessions, now: time.Now(), width: max(width, 20)}
	m.refilter()
	return m
}

// picker is the session list, on its own (Pick) or inside the TUI
// (/resume), where it takes the input's place. Only readable sessions
// are offered.
type picker struct {
	all    []session.Info
	shown  []session.Info
	filter string
	cur    int
	width  int
	now    time.Time
	chosen string
	ended  bool // enter or esc: the picker is done
}

// pickerRows is how many sessions show at once; the list scrolls.
const pickerRows = 12

func (m *picker) Init() tea.Cmd { return nil }

func (m *picker) refilter() {
	f := strings.ToLower(m.filter)
	m.shown = m.shown[:0]
	for _, s := range m.all {
		if s.Error != "" {
			continue
		}
		if f == "" || strings.Contains(strings.ToLower(s.Title+" "+s.ID), f) {
			m.shown = append(m.shown, s)
		}
	}
	m.cur = min(m.cur, max(len(m.shown)-1, 0))
}

func (m *picker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = msg.Width
	case tea.KeyPressMsg:
		switch msg.String() {
		case "esc", "ctrl+c", "ctrl+d":
			m.ended = true
			return m, tea.Quit
		case "enter":
			if len(m.shown) > 0 {
				m.chosen = m.shown[m.cur].ID
			}
			m.ended = true
			return m, tea.Quit
		case "up", "ctrl+p":
			m.cur = max(m.cur-1, 0)
		case "down", "ctrl+n":
			m.cur = min(m.cur+1, max(len(m.shown)-1, 0))
		case "backspace":
			if r := []rune(m.filter); len(r) > 0 {
				m.filter = string(r[:len(r)-1])
				m.refilter()
			}
		default:
			if msg.Text != "" {
				m.filter += msg.Text
				m.refilter()
			}
		}
	}
	return m, nil
}

func (m *picker) View() tea.View {
	// The alternate screen: the list leaves no trace in the scrollback,
	// and the transcript of the chosen session starts on a clean screen.
	v := tea.NewView(strings.Join(m.lines(), "\n"))
	v.AltScreen = true
	return v
}

// lines is the picker as screen lines.
func (m *picker) lines() []string {
	lines := []string{
		"resume a session · type to filter · ↑/↓ choose · enter resumes · esc cancels",
		"› " + m.filter,
	}
	if len(m.shown) == 0 {
		lines = append(lines, "  no sessions match")
	}
	top := max(m.cur-pickerRows+1, 0)
	for i := top; i < len(m.shown) && i < top+pickerRows; i++ {
		s := m.shown[i]
		mark := "  "
		if i == m.cur {
			mark = "▸ "
		}
		title := s.Title
		if title == "" {
			title = s.ID
		}
		line := fmt.Sprintf("%s%-9s %4d msgs  %s", mark, ago(m.now, s.Time), s.Messages, oneLine(title, 200))
		lines = append(lines, ansi.Truncate(line, max(m.width-1, 10), "…"))
	}
	return lines
}

// ago says how long before now an RFC 3339 time was, shortly.
func ago(now time.Time, stamp string) string {
	t, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		return "?"
	}
	switch d := now.Sub(t); {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	default:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
}
