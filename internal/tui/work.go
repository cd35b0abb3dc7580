package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// interrupt cancels the running work. What it produced stays: the
// agent keeps the partial answer and finished tool results in the
// session, and the transcript keeps what was shown.
func (m *model) interrupt() {
	if m.cancel == nil || m.interrupted {
		return
	}
	m.interrupted = true
	m.busy = "interrupting"
	// What has not reached the model comes back before the turn stops,
	// so that the host does not send it as a message of its own.
	m.unqueue()
	m.cancel()
}

// quit ends the program once everything queued is printed.
func (m *model) quit() tea.Cmd {
	if m.asking == promptConfirm {
		m.answerConfirm(agent.AnswerNo)
	}
	if m.cancel != nil {
		m.cancel()
	}
	m.flushTurn()
	m.quitting = true
	return nil
}

// stopWork cancels a running worker and waits for it; Run calls it after
// the program has ended.
func (m *model) stopWork() {
	if m.cancel != nil {
		m.cancel()
	}
	m.wg.Wait()
}

// work runs fn in a worker goroutine; its result arrives as workDoneMsg.
func (m *model) work(label string, fn func(context.Context) workDoneMsg) tea.Cmd {
	ctx, cancel := context.WithCancel(builtin.WithBackgrounder(m.ctx, m.bg))
	m.busy, m.cancel, m.interrupted, m.quitArmed = label, cancel, false, time.Time{}
	a, br := m.app, m.br
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer cancel()
		msg := fn(ctx)
		msg.state = readState(a)
		br.send(msg)
	}()
	return m.spin.Tick
}

func (m *model) workDone(msg workDoneMsg) tea.Cmd {
	// Steering the turn ended before taking ran as messages of their own
	// (the host sends them; EventPrompt showed each).
	m.turn, m.steering = false, nil
	m.busy, m.cancel, m.interrupted, m.retry = "", nil, false, nil
	m.flushTurn()
	m.state = msg.state
	m.cands = defaultCandidates(msg.state)
	if m.hooks != nil {
		m.refreshHooks(msg.out, msg.err)
	}
	if out := strings.TrimRight(msg.out, "\n"); out != "" {
		m.print(sanitize(out))
	}
	if len(msg.history) > 0 {
		m.printHistory(msg.history)
	}
	if sh := msg.shell; sh != nil {
		tc := &agent.ToolCall{Name: "!", Input: nil, Output: sh.output, IsError: sh.status != "exit 0", Duration: noDuration}
		m.printW(func(w int) string {
			lines := toolLines(tc, m.st, w-1)
			lines[0] = fit(lines[0]+" "+sanitize(oneLine(sh.command, summaryMax))+m.st.dim.Render(" · "+sh.status), w-1)
			return joinLines(lines)
		})
		m.expandTool(tc, func(first string, w int) string {
			return fit(first+" "+sanitize(oneLine(sh.command, summaryMax))+m.st.dim.Render(" · "+sh.status), w-1)
		})
		m.shellContext = append(m.shellContext, fmt.Sprintf("<bash-input>%s</bash-input>\n<bash-output>%s</bash-output>", sh.command, strings.TrimRight(sh.output, "\n")))
		m.print(m.st.dim.Render("· the command and its output go to the model with your next message"))
	}
	if msg.err != nil && !errors.Is(msg.err, context.Canceled) {
		m.print(m.st.bad.Render("error: ") + sanitize(msg.err.Error()))
	}
	if msg.quit {
		return m.leave()
	}
	if msg.edit != "" {
		return m.openMemory(msg.edit)
	}
	if msg.models != nil {
		return m.openModelPicker(msg.models)
	}
	next := m.next()
	if m.busy != "" || m.app == nil || m.app.Agent == nil {
		return next
	}
	// Idle now: if the user does not come back, a notifier hears it.
	m.idleSeq++
	seq := m.idleSeq
	return tea.Batch(next, tea.Tick(m.idleAfter, func(time.Time) tea.Msg { return idleMsg{seq} }))
}

// idle fires on_notification (idle_prompt) when nothing happened since
// the answer the tick was set for, and says whether it did.
func (m *model) idle(msg idleMsg) bool {
	if msg.seq != m.idleSeq || m.busy != "" || m.asking != promptNone || m.app == nil || m.app.Agent == nil {
		return false
	}
	m.app.Agent.Notify(m.ctx, "idle_prompt", "synaps is waiting for your input")
	return true
}
