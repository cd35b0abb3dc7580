package tui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/plural"
)

// running is a tool call in progress.
type running struct {
	call  agent.ToolCall
	start time.Time
}

// startTurn sends text to the agent in a worker.
func (m *model) startTurn(text string) tea.Cmd {
	if m.app.Agent == nil {
		m.print(m.st.bad.Render("error: ") + sanitize(m.app.NoModel().Error()))
		return m.next()
	}
	text, images, notes, refused := attachMentions(text, m.app.WorkDir, m.app.Model, m.denyRead())
	for _, n := range notes {
		m.print(m.st.dim.Render("· " + sanitize(n)))
	}
	images = append(m.attached, images...)
	m.attached = nil
	if refused == "" {
		refused = refusal(m.app.Model, m.pendingNames(images))
	}
	if refused != "" {
		m.print(m.st.bad.Render("error: ") + sanitize(refused))
		return m.next()
	}
	if len(m.shellContext) > 0 {
		text = strings.Join(m.shellContext, "\n\n") + "\n\n" + text
		m.shellContext = nil
	}
	cmd := m.work("thinking", func(ctx context.Context) workDoneMsg {
		return workDoneMsg{err: m.hs.Run(ctx, host.Input{Text: text, Images: images})}
	})
	m.turn = true
	return cmd
}

// flushTurn prints what is left of an interrupted turn: the partial
// answer and tool calls that never reported an end.
func (m *model) flushTurn() {
	if s := strings.TrimSpace(m.stream.String()); s != "" {
		// Laid out as a finished answer is (EventMessage).
		text := sanitize(s)
		m.printW(func(w int) string { return m.md.render(text, w) })
	}
	m.stream.Reset()
	m.doneLen = 0
	m.thinking.Reset()
	for _, r := range m.tools {
		m.print(m.st.bad.Render("✗ ") + m.st.tool.Render(r.call.Name) + " " + inputSummary(r.call.Name, r.call.Input) + m.st.dim.Render(" · interrupted"))
	}
	m.tools = nil
}

func (m *model) event(ev agent.Event) tea.Cmd {
	if ev.Subagent != nil {
		m.kidEvent(ev)
		return nil
	}
	if ev.Type != agent.EventRetry && ev.Type != agent.EventNotice {
		m.retry = nil // the model answers again
	}
	switch ev.Type {
	case agent.EventText:
		m.stream.WriteString(ev.Text)
	case agent.EventThinking:
		m.thinking.WriteString(ev.Text)
	case agent.EventMessage:
		text, thinking := messageText(ev.Message)
		if thinking = strings.TrimSpace(thinking); thinking != "" {
			lines, more := preview(thinking, previewLines)
			if more > 0 {
				lines = append(lines, "… "+plural.Count(more, "more line"))
			}
			m.print(m.st.dim.Render("thinking: " + strings.Join(lines, "\n          ")))
		}
		if strings.TrimSpace(text) != "" {
			text = sanitize(text)
			m.printW(func(w int) string { return m.md.render(text, w) })
		}
		m.stream.Reset()
		m.doneLen = 0
		m.thinking.Reset()
	case agent.EventToolStart:
		m.tools = append(m.tools, running{call: *ev.Tool, start: time.Now()})
	case agent.EventToolEnd:
		for i, r := range m.tools {
			if r.call.ID == ev.Tool.ID {
				m.tools = append(m.tools[:i], m.tools[i+1:]...)
				break
			}
		}
		tc := ev.Tool
		m.printW(func(w int) string { return joinLines(toolLines(tc, m.st, w-1)) })
		m.expandTool(tc, nil)
	case agent.EventTurnEnd:
		m.state.usage.InputTokens += ev.Usage.InputTokens
		m.state.usage.OutputTokens += ev.Usage.OutputTokens
	case agent.EventRetry:
		// One line, updated in place, not a line per attempt.
		m.retry = &retryState{until: time.Now().Add(ev.Delay), why: retryReason(ev.Err), n: ev.Retry, of: ev.Retries}
	case agent.EventNotice:
		if ev.Text == agent.NoticeCancelled {
			// The partial answer comes first, as it was said before
			// the turn stopped.
			m.flushTurn()
		}
		m.print(m.st.dim.Render("· " + sanitize(ev.Text)))
	case agent.EventSteer:
		m.steered(ev.Text)
	case host.EventPrompt:
		// Steering the turn finished before taking is its own message
		// now: shown as the user's, as if sent after the answer.
		for i, q := range m.steering {
			if q == ev.Text {
				m.steering = append(m.steering[:i], m.steering[i+1:]...)
				break
			}
		}
		m.print(m.userLines(ev.Text))
	case agent.EventOutput:
		// A plugin command's output, as it streams.
		switch ev.Stream {
		case "insert":
			// Text a sidecar produced (dictation): it goes into the
			// input, for the user to edit and send.
			v := m.input.Value()
			if v != "" && !strings.HasSuffix(v, " ") && !strings.HasSuffix(v, "\n") {
				v += " "
			}
			m.input.SetValue(v + sanitize(ev.Text))
		case "error":
			m.print(m.st.bad.Render("error: ") + sanitize(ev.Text))
		case "system", "task":
			m.print(m.st.dim.Render(sanitize(ev.Text)))
		default:
			m.print(sanitize(ev.Text))
		}
	case agent.EventInject:
		// Injected context never reaches the model unseen.
		where := "your message"
		if ev.Where == "system" {
			where = "the system prompt"
		}
		m.print(m.st.dim.Render("· context added to " + where + " by " + sanitize(ev.Text)))
	}
	return nil
}
