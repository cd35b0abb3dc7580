package tui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/session"
)

// submit handles enter: answer the open question, or send the input.
func (m *model) submit() tea.Cmd {
	text := m.input.Value()
	switch m.asking {
	case promptConfirm:
		m.answerConfirm(confirmAnswer(text, m.confirm != nil && m.confirm.always != ""))
		return nil
	case promptTrust:
		return m.answerTrust(text)
	case promptChoice:
		m.submitChoice()
		return nil
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	m.hist.add(m.expandPastes(text))
	m.input.Reset()
	if m.busy != "" || m.opening {
		if cmd := strings.TrimSpace(text); cmd == "/quit" || cmd == "/exit" {
			return m.leave()
		}
		if m.steerable(text) && m.hs.Join(text) {
			// Steering: the text joins the running turn at its next
			// model request, after the tool results in flight.
			m.steering = append(m.steering, text)
			return nil
		}
		// Queued, as in Claude Code: it runs when the work ends.
		m.queue = append(m.queue, text)
		return nil
	}
	if strings.TrimSpace(text) == "/settings" && m.app != nil {
		m.settings = newSettingsScreen(m.app.SettingsValues())
		return nil
	}
	if strings.TrimSpace(text) == "/rewind" && m.app != nil {
		return m.openRewind()
	}
	if strings.TrimSpace(text) == "/hooks" && m.app != nil {
		m.openHooks()
		return nil
	}
	if strings.TrimSpace(text) == "/model" && m.app != nil {
		return m.listModels()
	}
	if strings.TrimSpace(text) == "/resume" && m.app != nil {
		if infos, err := session.List(m.app.BaseDir); err == nil && len(infos) > 0 {
			m.pick = newPicker(infos, m.width)
			return nil
		}
	}
	return m.run(text)
}

// run starts what the user sent: a slash command or a message.
func (m *model) run(text string) tea.Cmd {
	// What the input showed decides what it is (a paste starting with "/"
	// is no command); a long paste shows as its placeholder and is sent
	// whole.
	m.print(m.userLines(text))
	full := m.expandPastes(text)
	if app.IsSlash(text) {
		return m.startSlash(strings.TrimSpace(full))
	}
	if cmd, ok := strings.CutPrefix(strings.TrimSpace(text), "!"); ok && strings.TrimSpace(cmd) != "" {
		return m.startShell(strings.TrimSpace(m.expandPastes(cmd)))
	}
	return m.startTurn(full)
}

// startShell runs a !command in a worker; its output goes to the model
// with the next message.
func (m *model) startShell(command string) tea.Cmd {
	dir := m.app.WorkDir
	return m.work("running "+oneLine(command, 40), func(ctx context.Context) workDoneMsg {
		out, status := runShell(ctx, command, dir)
		return workDoneMsg{shell: &shellRun{command: command, output: out, status: status}}
	})
}

// startSlash runs a slash command in a worker.
func (m *model) startSlash(line string) tea.Cmd {
	if rest, ok := strings.CutPrefix(line, "/attach"); ok && (rest == "" || rest[0] == ' ') {
		if p := strings.TrimSpace(rest); p != "" {
			m.attach(p)
		} else {
			m.print(m.st.bad.Render("error: ") + "usage: /attach PATH (a picture or a PDF, sent with your next message)")
		}
		return m.next()
	}
	return m.work("running "+strings.Fields(line)[0], func(ctx context.Context) workDoneMsg {
		res, err := m.hs.Slash(ctx, line)
		out := res.Output
		if err == nil && res.Command != nil {
			// A Markdown command: its prompt is this turn's message.
			for _, n := range res.Command.Notes {
				m.app.Notice(n)
			}
			return workDoneMsg{err: m.hs.Run(ctx, host.Input{Command: res.Command})}
		}
		if err == nil && strings.Fields(line)[0] == "/help" {
			out = strings.TrimRight(out, "\n") + "\n" + keysHelp
		}
		msg := workDoneMsg{out: out, err: err, quit: res.Quit, edit: res.Edit}
		if res.Resumed {
			msg.history = m.app.Session.Messages()
		}
		return msg
	})
}
