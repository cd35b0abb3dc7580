package tui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
)

// keysHelp is appended to /help.
const keysHelp = `
keys (docs/keys.md):
  enter             send; while a turn runs, words join it at its next step (steering), commands are queued
  esc               interrupt the running turn; at a question: no; twice on an empty prompt: /rewind
  shift+tab         next permission mode: default, acceptEdits, plan
  ctrl+c            clear the input, else interrupt; twice on an empty prompt quit
  alt+enter ctrl+j  a new line (or shift+enter, or \ then enter)
  up/down           input history, kept per project; at a multiple-choice question, move
  1–9 space         at a multiple-choice question: pick (or tick) an option; enter sends, typed text is your own answer
  ctrl+r            search the input history (again: older; enter send, tab edit, esc back)
  tab               complete /commands and @paths; in the @ list (as you type @src/ma) put the chosen file (enter too; up/down choose, esc closes)
  ctrl+b            while a bash command runs: send it to the background (it goes on, the turn too)
  ctrl+o            the transcript full-screen, every tool output in full (↑/↓ pgup/pgdn g/G, esc back)
  ctrl+g            edit the input in $EDITOR
  ctrl+d            twice on an empty prompt quit
  @path             attach a file · !command run it; its output goes with the next message`

func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	m.idleSeq++ // the user is here: no idle notification
	if m.tview != nil {
		return m.transcriptKey(k)
	}
	if m.pick != nil {
		return m.pickKey(k)
	}
	if m.mpick != nil {
		return m.modelPickerKey(k)
	}
	if m.settings != nil {
		return m.settingsKey(k)
	}
	if m.hooks != nil {
		return m.hooksKey(k)
	}
	if m.search != nil {
		return m.searchKey(k)
	}
	if m.asking == promptChoice {
		if cmd, ok := m.choiceKey(k); ok {
			return cmd
		}
	}
	if cmd, ok := m.mentionKey(k); ok {
		return cmd
	}
	switch k.String() {
	case "ctrl+b":
		// As in Claude Code: the running bash command to the background.
		if m.backgroundBash() {
			return nil
		}
	case "ctrl+r":
		if m.asking == promptNone {
			m.startSearch()
		}
		return nil
	case "ctrl+c":
		return m.ctrlC()
	case "esc":
		return m.esc()
	case "alt+esc":
		// Two escapes read at once: Esc Esc (rewind.go).
		if m.busy == "" && m.asking == promptNone && m.input.Value() == "" {
			return m.openRewind()
		}
		return m.esc()
	case "ctrl+g":
		if m.asking == promptNone {
			return m.openEditor()
		}
		return nil
	case "shift+tab":
		// As in Claude Code: the next permission mode.
		if m.app != nil && m.app.Permissions != nil {
			m.app.Permissions.Cycle()
		}
		return nil
	case "ctrl+o":
		// As in Claude Code: the whole transcript, every output in full.
		m.openTranscript()
		return nil
	case "ctrl+d":
		// As ctrl+c: a stray ctrl+d (an end-of-file meant for another
		// program) must not end the session, so it asks for a second.
		// In the daemon it detaches, which never stops the work.
		if m.input.Value() == "" && (m.busy == "" || m.link != nil) && m.asking == promptNone {
			return m.armQuit("ctrl+d")
		}
	case "enter", "ctrl+m":
		if v := m.input.Value(); m.asking == promptNone && strings.HasSuffix(v, "\\") {
			// "\" then enter: a new line, as in Claude Code, for
			// terminals that send shift+enter as plain enter.
			m.input.SetValue(strings.TrimSuffix(v, "\\") + "\n")
			return nil
		}
		return m.submit()
	case "tab":
		if m.asking == promptNone {
			if v := m.input.Value(); strings.HasPrefix(v, "/") {
				if c := completeSlash(v, m.cands); c != v {
					m.input.SetValue(c)
				}
			} else if m.app != nil {
				if c, ok := completeMention(v, m.app.WorkDir); ok {
					m.input.SetValue(c)
				}
			}
		}
		return nil
	case "up":
		if m.asking == promptNone && m.input.Line() == 0 {
			if s, ok := m.hist.prev(m.input.Value()); ok {
				m.input.SetValue(s)
			}
			return nil
		}
	case "down":
		if m.asking == promptNone && m.hist.browsing() && m.input.Line() == m.input.LineCount()-1 {
			if s, ok := m.hist.next(); ok {
				m.input.SetValue(s)
			}
			return nil
		}
	}
	if kb, ok := m.pluginKey(k.String()); ok {
		return m.runPluginKey(kb)
	}
	m.quitArmed = time.Time{} // any other key disarms the second ctrl+c
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return cmd
}

// pluginKey finds the plugin keybind bound to key (app.KeyBinding: only
// keys that clash with none of synaps's own are bound).
func (m *model) pluginKey(key string) (app.KeyBinding, bool) {
	if m.app == nil || m.asking != promptNone {
		return app.KeyBinding{}, false
	}
	for _, kb := range m.app.KeyBindings() {
		if kb.Refused == "" && kb.Name() == key {
			return kb, true
		}
	}
	return app.KeyBinding{}, false
}

// runPluginKey does what a plugin's keybind says: run a slash command
// (queued while work runs, as typed input is), put a prompt into the
// input, or run the plugin's script.
func (m *model) runPluginKey(kb app.KeyBinding) tea.Cmd {
	slash, text := kb.KeyAction()
	switch {
	case slash != "":
		m.input.SetValue(slash)
		return m.submit()
	case text != "":
		m.input.SetValue(m.input.Value() + text)
		return nil
	}
	if m.busy != "" {
		m.print(m.st.dim.Render("· " + kb.Key + " runs a script of plugin " + kb.Plugin + "; wait until the work ends"))
		return nil
	}
	a := m.app
	return m.work("running "+kb.Script, func(ctx context.Context) workDoneMsg {
		out, err := a.RunKeyScript(ctx, kb)
		return workDoneMsg{out: out, err: err}
	})
}

// ctrlC is ctrl+c (and SIGINT), as in Claude Code and pi: it takes back
// one thing at a time. At a question it answers no and interrupts the
// turn; with text typed it clears the text; while work runs it
// interrupts the work; on an empty idle prompt it arms quitting, and a
// second press within quitWindow quits. Pressed again while an
// interrupted worker is still winding down, it quits.
func (m *model) ctrlC() tea.Cmd {
	switch {
	case m.asking == promptConfirm:
		m.answerConfirm(agent.AnswerNo)
		m.interrupt()
		return nil
	case m.asking == promptTrust:
		m.input.SetValue("n")
		return m.submit()
	case m.input.Value() != "":
		m.input.Reset()
		m.hist.reset()
		m.quitArmed = time.Time{}
		return nil
	case m.busy != "" && !m.interrupted:
		m.interrupt()
		return nil
	case m.busy != "":
		return m.leave() // the interrupted work does not end: leave anyway
	}
	return m.armQuit("ctrl+c")
}

// armQuit quits when key was already pressed within quitWindow on an
// empty idle prompt; otherwise it arms quitting and says so. Only the
// same key twice quits, as in Claude Code: the hint names the key, so
// ctrl+c then ctrl+d re-arms for ctrl+d rather than quitting.
func (m *model) armQuit(key string) tea.Cmd {
	now := time.Now()
	if !m.quitArmed.IsZero() && m.quitKey == key && now.Sub(m.quitArmed) < quitWindow {
		return m.leave()
	}
	m.quitArmed, m.quitKey = now, key
	return tea.Tick(quitWindow, func(time.Time) tea.Msg { return disarmMsg{} })
}

// esc interrupts the running turn (Claude Code's Escape); at a question
// it answers no. Idle, it does nothing, so a stray escape loses nothing.
func (m *model) esc() tea.Cmd {
	switch {
	case m.asking == promptConfirm:
		m.answerConfirm(agent.AnswerNo)
		m.interrupt()
	case m.busy != "" && !m.interrupted:
		m.interrupt()
	case m.busy == "" && m.asking == promptNone && m.input.Value() == "":
		return m.escIdle() // twice: /rewind (rewind.go)
	}
	return nil
}

// pickKey handles a key while the session picker (/resume) is open: Enter
// resumes the chosen session as `/resume ID` would, Esc closes it.
func (m *model) pickKey(k tea.KeyPressMsg) tea.Cmd {
	m.pick.Update(k)
	if !m.pick.ended {
		return nil
	}
	id := m.pick.chosen
	m.pick = nil
	if id == "" {
		return nil
	}
	return m.run("/resume " + id)
}
